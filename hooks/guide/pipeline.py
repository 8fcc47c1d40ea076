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
from .formulas import MathCheck, corpus_formulas, formulas_in
from .link import Links, link, resolve
from .load import load_content, read_text
from .model import Corpus, SrcUri
from .render import render
from .snippets import Snippet, SnippetCheck, snippets_in, without_asserts
from .validate import PLACEHOLDER, validate


@dataclass
class Built:
    corpus: Corpus
    links: Links
    pages: dict[SrcUri, str]
    timings: dict[str, float] = field(default_factory=dict)
    """Seconds spent in each stage."""
    math: dict[tuple[str, bool], str] = field(default_factory=dict)
    """Every formula's KaTeX HTML (see formulas.typeset_page)."""
    docs: dict[str, str] = field(default_factory=dict)
    """The hand-written pages' Markdown, by display path (docs/…)."""
    resolved_docs: dict[str, str] = field(default_factory=dict)
    """The hand-written pages with their `[[links]]` resolved, by path inside docs/."""


def build(root: Path, docs_dir: Path | None = None, templates: Path | None = None, katex: Path | None = None,
          run_snippets: bool = True, guide: Path | None = None) -> Built:
    """Run every stage on the project at `root`; raise ContentError listing every problem.

    `docs_dir`, when given, also has its hand-written pages' `[[links]]` checked;
    `templates` defaults to `root/templates`; formulas are checked with the KaTeX in `katex`
    (default `root/node_modules/katex`) when it is installed; every Python snippet is run (results
    cached by hash in `root/.cache/snippets.json`) unless `run_snippets` is False. The guide's
    configuration is read from `guide` (default `root/guide.yml`).
    """
    timings: dict[str, float] = {}
    clock = time.perf_counter()

    def lap(stage: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        timings[stage] = now - clock
        clock = now

    loaded = load_content(root / "content", display_root=root, guide=guide)
    if loaded.guide is None:  # nothing was read without the configuration: its problems come first
        raise ContentError(loaded.problems)
    lap("load")
    corpus, problems = validate(loaded)
    docs = read_docs(docs_dir, root) if docs_dir is not None else {}
    problems += [text for text in docs.values() if isinstance(text, Problem)]
    docs_formulas = [f for path, text in docs.items() if isinstance(text, str) for f in formulas_in(text, path, 1)]
    math = MathCheck(corpus_formulas(corpus) + docs_formulas, katex or root / "node_modules" / "katex",
                     cache=root / ".cache" / "katex.json")
    snippets = corpus_snippets(corpus)
    problems += [Problem(s.path, s.line, s.label, "a snippet must check what it claims with at least one assert")
                 for s in snippets if len(s.segments) == 1 and without_asserts(s)]  # a task's checks: validate
    code = SnippetCheck(snippets, cache=root / ".cache" / "snippets.json") if run_snippets else None
    lap("validate")
    links, link_problems = link(corpus, loaded.unreadable)
    problems += link_problems
    resolved_docs: dict[str, str] = {}
    for path, text in docs.items():
        if isinstance(text, str):
            resolved, _, found = resolve(text, path, 1, links.table, loaded.unreadable)
            problems += found
            resolved_docs[path] = resolved
    lap("link")
    pages: dict[SrcUri, str] = {}
    if not problems:
        pages, template_problems = render(corpus, links, templates or root / "templates", root)
        problems += template_problems
    lap("render")
    problems += math.problems()
    lap("math")
    if code is not None:
        problems += code.problems()
        timings["snippets_run"] = code.ran
    lap("snippets")
    if problems:
        raise ContentError(problems)
    prefix = display_dir(docs_dir, root) + "/" if docs_dir is not None else ""
    by_src = {path.removeprefix(prefix): text for path, text in resolved_docs.items()}
    return Built(corpus, links, pages, timings, math.html, {p: t for p, t in docs.items() if isinstance(t, str)}, by_src)


def corpus_snippets(corpus: Corpus) -> list[Snippet]:
    """Every runnable snippet of the guide, in file order: the notes' ```python blocks, and each coding
    task's solution with its checks, then the solution with each planted bug (which must fail)."""
    found: list[Snippet] = []
    for entity in (*corpus.concepts.values(), *corpus.questions.values(), *corpus.reports.values()):
        found += [s for s in snippets_in(entity.body, entity.loc.path, entity.body_line) if not PLACEHOLDER.search(s.segments[0][1])]
    for task in corpus.coding.values():
        if not (task.solution.code and task.checks.code) or PLACEHOLDER.search(task.solution.code + task.checks.code):
            continue  # validation already named the missing block or the scaffold's placeholder
        checks = (task.checks.line, task.checks.code)
        found.append(Snippet(task.loc.path, ((task.solution.line, task.solution.code), checks), "solution"))
        for n, bug in enumerate(task.bugs, 1):
            found.append(Snippet(task.loc.path, ((task.solution.line, task.bugged_solution(bug)), checks), f"planted bug {n}",
                                 expect_failure=True, at=bug.line))
    return found


def display_dir(docs_dir: Path, root: Path) -> str:
    """How problems name the folder of hand-written pages: `docs` inside the project."""
    return docs_dir.relative_to(root).as_posix() if docs_dir.is_relative_to(root) else docs_dir.as_posix()


def read_docs(docs_dir: Path, root: Path) -> dict[str, str | Problem]:
    """Hand-written pages, by display path: their `[[links]]` and formulas are checked before the
    build starts, like content."""
    docs: dict[str, str | Problem] = {}
    for path in sorted(docs_dir.rglob("*.md")):
        display = f"{display_dir(docs_dir, root)}/{path.relative_to(docs_dir).as_posix()}"
        docs[display] = read_text(path.read_bytes(), display)
    return docs
