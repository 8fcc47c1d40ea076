"""Problems found in content, reported to the author who just edited a file."""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Iterable


@dataclass(frozen=True, order=True)
class Problem:
    """One mistake in one place: printed as `path:line: field: message`."""

    path: str
    """Source path as the author sees it, relative to the project root."""
    line: int
    """1-based line in that file."""
    field: str
    """Front-matter field (or section) at fault; empty when the whole file is."""
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}"
        return f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"


class ContentError(Exception):
    """Raised once, after every stage has had its say, when any problem was found."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems = sorted(set(problems))
        super().__init__("\n".join(str(p) for p in self.problems))


def suggest(word: str, candidates: Iterable[str]) -> str:
    """Return ` (did you mean 'x'?)` for the nearest candidate, or ''."""
    nearest = nearest_ids(word, candidates, n=1)
    return f" (did you mean '{nearest[0]}'?)" if nearest else ""


def nearest_ids(word: str, candidates: Iterable[str], n: int = 3) -> list[str]:
    """The candidates closest to `word`, best first (case-insensitive)."""
    pool = {c.lower(): c for c in candidates}
    return [pool[m] for m in difflib.get_close_matches(word.lower(), list(pool), n=n, cutoff=0.6)]
