"""State that outlives one build while `mkdocs serve` rebuilds on every edit.

MkDocs reloads the hook module before each rebuild, but this package stays imported, so the
author loop keeps here: whether we are serving, the folder that backs generated pages (so a dirty
reload rebuilds only the pages an edit changed), the search records of pages a dirty rebuild did
not re-read, and the search-index process still running from the previous build.
"""
from __future__ import annotations

from pathlib import Path

from .search import IndexJob, Record

_state: dict = {"serving": False, "dirty": False, "records": {}, "index": None}


def start(command: str, dirty: bool) -> None:
    _state.update(serving=command == "serve", dirty=dirty, records={}, index=None)


def live() -> bool:
    return bool(_state["serving"])


def page_cache(root: Path) -> Path | None:
    """Where generated pages are backed by files during `mkdocs serve --dirty`, else None."""
    return root / ".cache" / "pages" if _state["serving"] and _state["dirty"] else None


def before_build() -> None:
    """Do not start writing a new index while the last one is still being written."""
    job: IndexJob | None = _state["index"]
    if job is not None:
        job.process.join()
        _state["index"] = None


def index_started(job: IndexJob) -> None:
    if _state["serving"]:
        _state["index"] = job


def all_records(fresh: list[Record], urls: set[str]) -> list[Record]:
    """This build's records plus, when serving, those of pages a dirty rebuild skipped."""
    if not _state["serving"]:
        return list(fresh)
    known: dict[str, Record] = _state["records"]
    known.update((r.url, r) for r in fresh)
    for url in list(known):
        if url not in urls:
            del known[url]
    return list(known.values())
