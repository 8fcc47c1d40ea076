"""The whole engine, top to bottom: load -> validate -> link -> render.

`emit` is left to the MkDocs adapter, the only caller that has MkDocs
objects.  Each stage is timed so `make bench` can show the pipeline's share
of a build.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from .errors import ContentError, Problem
from .formulas import MathCheck, corpus_formulas
from .link import Links, Target, link, resolve
from .load import load_content, read_text
from .model import Corpus, SrcUri
from .render import render
from .validate import validate


@dataclass
class Built:
    corpus: Corpus
    links: Links
    pages: dict[SrcUri, str]
    timings: dict[str, float] = field(default_factory=dict)
    """Seconds spent in each stage."""


def build(root: Path, docs_dir: Path | None = None, templates: Path | None = None, katex: Path | None = None) -> Built:
    """Run every stage on the project at `root`; raise ContentError listing every problem.

    `docs_dir`, when given, also has its hand-written pages' `[[links]]` checked;
    `templates` defaults to `root/templates`; formulas are checked with the KaTeX in `katex`
    (default `root/node_modules/katex`) when it is installed.
    """
    timings: dict[str, float] = {}
    clock = time.perf_counter()

    def lap(stage: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        timings[stage] = now - clock
        clock = now

    loaded = load_content(root / "content", display_root=root)
    lap("load")
    corpus, problems = validate(loaded)
    math = MathCheck(corpus_formulas(corpus), katex or root / "node_modules" / "katex")
    lap("validate")
    links, link_problems = link(corpus)
    problems += link_problems
    if docs_dir is not None:
        problems += check_docs(docs_dir, root, links.table)
    lap("link")
    pages: dict[SrcUri, str] = {}
    if not problems:
        pages, template_problems = render(corpus, links, templates or root / "templates", root)
        problems += template_problems
    lap("render")
    problems += math.problems()
    lap("math")
    if problems:
        raise ContentError(problems)
    return Built(corpus, links, pages, timings)


def check_docs(docs_dir: Path, root: Path, table: dict[str, Target]) -> list[Problem]:
    """`[[links]]` in hand-written pages are checked before the build starts, like content."""
    problems: list[Problem] = []
    for path in sorted(docs_dir.rglob("*.md")):
        display = path.relative_to(root).as_posix() if path.is_relative_to(root) else path.as_posix()
        text = read_text(path.read_bytes(), display)
        if isinstance(text, Problem):
            problems.append(text)
            continue
        problems += resolve(text, display, 1, table)[2]
    return problems
