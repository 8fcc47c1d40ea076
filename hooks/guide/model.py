"""The content model: frozen records that remember where they were written.

Ids, source paths and URLs are distinct types so a URL is never passed where
an id is expected; all conversions between them live in `urls`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import NewType

from .config import Guide

EntityId = NewType("EntityId", str)
"""A concept, question, report or coding-task id: kebab-case, stable, used in URLs and `[[links]]`."""

SrcUri = NewType("SrcUri", str)
"""Where a page pretends to live inside `docs/`, e.g. `concepts/ppo-clip.md`."""

Url = NewType("Url", str)
"""A site-relative URL, e.g. `concepts/ppo-clip/`."""


@dataclass(frozen=True)
class Location:
    """Where something was written: the path an author sees and a 1-based line."""

    path: str
    line: int


# --- taxonomy ---------------------------------------------------------------


@dataclass(frozen=True)
class Topic:
    id: str
    title: str
    """Chinese title shown to readers."""
    en: str
    summary: str
    order: int
    """Position in the taxonomy file: topics are listed in learning order."""
    loc: Location
    sheet: tuple[str, ...] = ()
    """The concepts whose cheat-sheet section the sheet carries (the authors' choice when a topic outgrows
    two pages); empty: all of the topic's concepts. The rest are named on the sheet."""


@dataclass(frozen=True)
class Company:
    id: str
    name: str
    en: str
    teams: tuple[str, ...]
    loc: Location


@dataclass(frozen=True)
class CodingKind:
    """A group of coding tasks on /coding/ (注意力与位置编码, 算法题 …), in taxonomy order."""

    id: str
    title: str
    order: int


@dataclass(frozen=True)
class Difficulty:
    id: str
    title: str
    rank: int


@dataclass(frozen=True)
class Taxonomy:
    topics: tuple[Topic, ...]
    companies: tuple[Company, ...]
    difficulties: tuple[Difficulty, ...]
    coding_kinds: tuple[CodingKind, ...] = ()

    @cached_property
    def coding_kind(self) -> dict[str, CodingKind]:
        return {k.id: k for k in self.coding_kinds}

    @cached_property
    def topic(self) -> dict[str, Topic]:
        return {t.id: t for t in self.topics}

    @cached_property
    def company(self) -> dict[str, Company]:
        return {c.id: c for c in self.companies}

    @cached_property
    def difficulty(self) -> dict[str, Difficulty]:
        return {d.id: d for d in self.difficulties}


# --- entities ---------------------------------------------------------------


@dataclass(frozen=True)
class Reference:
    """A paper or post a note relies on."""

    title: str
    year: int | None = None
    arxiv: str | None = None
    url: str | None = None

    @property
    def href(self) -> str | None:
        if self.url:
            return self.url
        return f"https://arxiv.org/abs/{self.arxiv}" if self.arxiv else None


@dataclass(frozen=True)
class Concept:
    id: EntityId
    title: str
    en: str
    topic: str
    difficulty: str
    summary: str
    body: str
    """Markdown after the front matter, exactly as written."""
    loc: Location
    """The file and the line of its `---` opening."""
    body_line: int
    """Line of the body's first line in the file, so body problems name the right line."""
    aliases: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    prerequisites: tuple[EntityId, ...] = ()
    related: tuple[EntityId, ...] = ()
    references: tuple[Reference, ...] = ()

    @property
    def label(self) -> str:
        return self.title


@dataclass(frozen=True)
class Question:
    id: EntityId
    text: str
    """The question as an interviewer would ask it."""
    brief: str
    """The answer's key point in one line (cheat sheets, drills)."""
    primary: EntityId
    """The concept the question tests: a report that asks the question counts for it in 考频."""
    difficulty: str
    body: str
    """The full answer, Markdown: key points first, then depth."""
    loc: Location
    body_line: int
    related: tuple[EntityId, ...] = ()
    """Other concepts the answer draws on: linked and shown as related, never counted in 考频."""
    aliases: tuple[str, ...] = ()
    """Other ways interviewers ask it (searched and ranked like the text)."""
    follow_ups: tuple[EntityId, ...] = ()
    """What an interviewer asks next after a good answer (question ids), in the order they would."""

    @property
    def label(self) -> str:
        return self.text

    @property
    def concepts(self) -> tuple[EntityId, ...]:
        """The primary concept first, then the related ones."""
        return (self.primary, *self.related) if self.primary else self.related


@dataclass(frozen=True)
class Round:
    """One interview round and what it asked."""

    name: str
    loc: Location
    questions: tuple[EntityId, ...] = ()
    """Questions from the bank that this round asked."""
    topics: tuple[EntityId, ...] = ()
    """Concepts this round probed without a specific bank question."""
    other: tuple[str, ...] = ()
    """Things asked that the guide does not cover (backend basics, project details), kept as text."""
    coding: tuple[EntityId, ...] = ()
    """Coding tasks (手撕) this round asked the candidate to write."""


REPORT_KINDS = ("interview", "question-list", "experience")


@dataclass(frozen=True)
class Report:
    id: EntityId
    title: str
    kind: str
    summary: str
    body: str
    loc: Location
    body_line: int
    company: str | None = None
    team: str = ""
    role: str = ""
    date: str = ""
    source: str = ""
    """Where the report came from: a seed file name or a URL."""
    duplicate_of: EntityId | None = None
    rounds: tuple[Round, ...] = ()

    @property
    def label(self) -> str:
        return self.title

    @property
    def source_url(self) -> str | None:
        """The source as an address a reader can open, when it is one."""
        return self.source if self.source.startswith(("https://", "http://")) else None


@dataclass(frozen=True)
class Code:
    """A fenced block of a coding task, with the file line of its first line of code."""

    line: int
    code: str


@dataclass(frozen=True)
class Bug:
    """A bug interviewers watch for, planted by a diff into the reference solution: the checks
    must catch it, or they do not check what the page says."""

    line: int
    """Line of the diff's first line in the file."""
    removed: tuple[str, ...]
    """Lines of the solution the bug replaces (exactly as in the solution)."""
    added: tuple[str, ...]


@dataclass(frozen=True)
class CodingTask:
    id: EntityId
    title: str
    en: str
    kind: str
    """A coding kind from the taxonomy: how /coding/ groups tasks."""
    difficulty: str
    summary: str
    signature: str
    """The function (or class) the candidate writes, shown with the task."""
    body: str
    loc: Location
    body_line: int
    solution: Code
    checks: Code
    """Runs after the solution: compares it with an independent reference on the edge cases."""
    bugs: tuple[Bug, ...] = ()
    aliases: tuple[str, ...] = ()
    concepts: tuple[EntityId, ...] = ()
    """Concepts the task exercises; the first is the main one (its topic is the task's topic)."""
    references: tuple[Reference, ...] = ()

    @property
    def label(self) -> str:
        return self.title

    def bugged_solution(self, bug: Bug) -> str:
        """The solution with `bug` planted (validate made sure its lines occur exactly once)."""
        lines = self.solution.code.rstrip("\n").split("\n")
        for start in range(len(lines) - len(bug.removed) + 1):
            if tuple(lines[start : start + len(bug.removed)]) == bug.removed:
                return "\n".join([*lines[:start], *bug.added, *lines[start + len(bug.removed) :]]) + "\n"
        return self.solution.code


@dataclass(frozen=True)
class Corpus:
    """Everything in `content/`, validated; dict order is file-name order."""

    taxonomy: Taxonomy
    concepts: dict[EntityId, Concept] = field(default_factory=dict)
    questions: dict[EntityId, Question] = field(default_factory=dict)
    reports: dict[EntityId, Report] = field(default_factory=dict)
    coding: dict[EntityId, CodingTask] = field(default_factory=dict)
    synonyms: tuple[tuple[str, ...], ...] = ()
    """Groups of words readers use for one thing (content/synonyms.yml): search expands a query
    with the other words of a group it names."""
    guide: Guide | None = None
    """The guide's configuration the corpus was read with (guide.yml): its kinds' sections and words."""
