"""State that outlives one build while `mkdocs serve` rebuilds on every edit.

MkDocs reloads the hook module before each rebuild, but this package stays imported, so the
author loop keeps here: whether we are serving, the folder that backs generated pages (so a dirty
reload rebuilds only the pages an edit changed), the search records of pages a dirty rebuild did
not re-read, and the search-index process still running from the previous build.
"""
from __future__ import annotations

from pathlib import Path

import jinja2

from .search import IndexJob, Record

_state: dict = {"serving": False, "dirty": False, "records": {}, "index": None}


class _TemplateCode(jinja2.BytecodeCache):
    """Compiled theme templates, kept in memory: MkDocs builds a new template environment at every
    rebuild, and compiling Material's templates again was a third of an edit's reload. Entries are
    keyed by each template's source checksum, so an edited template is compiled anew."""

    def __init__(self) -> None:
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self.code:
            bucket.bytecode_from_string(self.code[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()


_TEMPLATE_CODE = _TemplateCode()


def template_code() -> jinja2.BytecodeCache:
    return _TEMPLATE_CODE


def start(command: str, dirty: bool) -> None:
    _state.update(serving=command == "serve", dirty=dirty, records={}, index=None)


def live() -> bool:
    return bool(_state["serving"])


def page_cache(root: Path) -> Path | None:
    """Where generated pages are backed by files during `mkdocs serve --dirty`, else None."""
    return root / ".cache" / "pages" if _state["serving"] and _state["dirty"] else None


def before_build() -> None:
    """An index still being written for the previous edit is stale: stop it (the build about to
    start writes a new one) rather than make the author wait for it."""
    job: IndexJob | None = _state["index"]
    if job is not None:
        job.cancel()
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
