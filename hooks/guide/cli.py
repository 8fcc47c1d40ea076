"""Commands: the build's steps (`compile`, `finish`) and the author's (`check`, `find`, `snippets`, `new`)."""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from .compile import CompileError, compile_tree, load_state
from .config import scaffold as scaffold_text
from .errors import ContentError
from .finish import FinishError, finish
from .offline import OfflineError
from .printing import PrintError
from .find import close_questions, find, warnings
from .load import load_content
from .pipeline import build, corpus_snippets
from .snippets import run, verdict
from .urls import is_valid_id
from .validate import read_taxonomy, validate

FOLDERS = {"concept": "concepts", "question": "questions", "report": "reports", "coding": "coding"}
"""Where `make new-<kind>` writes, by kind (the scaffold itself comes from guide.yml)."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="guide", description="Check and scaffold the guide's content.")
    sub = parser.add_subparsers(dest="command", required=True)
    comp = sub.add_parser("compile", help="step 1 of a build: write the complete docs tree a site builder reads (build/docs)")
    comp.add_argument("--out", type=Path, default=None, help="the tree to write (default: <root>/build/docs)")
    fin = sub.add_parser("finish", help="step 3 of a build: finish the HTML the builder wrote (search, formulas, "
                                        "code buttons, PDFs, deck, offline copy), then move it into place")
    fin.add_argument("site", type=Path, help="the folder the builder wrote (e.g. build/site)")
    fin.add_argument("--to", type=Path, default=None, help="where the finished site goes (e.g. site); replaced only on success")
    fin.add_argument("--site-url", required=True, help="the address the site is published at (the deck links to it)")
    sub.add_parser("check", help="validate content/ and print every problem")
    look = sub.add_parser("find", help="the ids whose title, English name, aliases or text match some words, best first")
    look.add_argument("query", nargs="+", help="words, e.g. 奖励 过优化")
    snip = sub.add_parser("snippets", help="run the Python snippets of some content files (no cache) and report each")
    snip.add_argument("files", nargs="+", type=Path, help="content files, e.g. content/concepts/dpo.md")
    new = sub.add_parser("new", help="scaffold a new content file")
    new.add_argument("kind", choices=sorted(FOLDERS))
    new.add_argument("id", nargs="?", default="")
    new.add_argument("--text", default="", help="a question's text: written into the scaffold, and the nearest "
                                                "existing questions are shown first")
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="project root (default: current directory)")
    parser.add_argument("--config", type=Path, default=None, help="the guide's configuration (default: <root>/guide.yml)")
    args = parser.parse_args(argv)
    args.root = args.root.resolve()  # node resolves KaTeX by this path; a relative one would be a module name
    config = args.config.resolve() if args.config else None
    if args.command == "compile":
        return compile_command(args.root, args.out or args.root / BUILD / "docs", config)
    if args.command == "finish":
        return finish_command(args.root, args.site, args.to, args.site_url)
    if args.command == "check":
        return check(args.root, config)
    if args.command == "find":
        return find_ids(args.root, " ".join(args.query), config)
    if args.command == "snippets":
        return run_snippets(args.root, args.files, config)
    return scaffold(args.root, args.kind, args.id, args.text, config)


BUILD = "build"
"""The project's folder for the build's intermediate results (the compiled tree, its state)."""

KEPT = "nothing was built and site/ was left as it was"


def compile_command(root: Path, out: Path, config: Path | None = None) -> int:
    try:
        compiled = compile_tree(root, root / "docs", out, root / BUILD / "state.pickle", config)
    except ContentError as err:
        for problem in err.problems:
            print(problem, file=sys.stderr)
        print(f"{len(err.problems)} problem(s) in the guide's sources; {KEPT}", file=sys.stderr)
        return 1
    except CompileError as err:
        print(f"{err}; {KEPT}", file=sys.stderr)
        return 1
    print(f"compiled {len(compiled.pages)} pages into {out}", file=sys.stderr)
    return 0


def finish_command(root: Path, site: Path, target: Path | None, site_url: str) -> int:
    try:
        compiled = load_state(root / BUILD / "state.pickle")
        done = finish(site, compiled, site_url, root / ".cache", root, print_pdfs=os.environ.get("GUIDE_PRINT") != "0",
                      target=target)
    except (FileNotFoundError, FinishError, PrintError, OfflineError) as err:
        print(f"{err}; {KEPT}" if target is not None else str(err), file=sys.stderr)
        return 1
    for line in done:
        print(line, file=sys.stderr)
    # `make bench` reads the steps' own timings from here.
    if os.environ.get("GUIDE_TIMINGS"):
        Path(os.environ["GUIDE_TIMINGS"]).write_text(json.dumps(compiled.timings), encoding="utf-8")
    return 0


def check(root: Path, config: Path | None = None) -> int:
    try:
        built = build(root, root / "docs", guide=config)
    except ContentError as err:
        for problem in err.problems:
            print(problem, file=sys.stderr)
        print(f"{len(err.problems)} problem(s)", file=sys.stderr)
        return 1
    c = built.corpus
    lines = {d.path: d.lines for d in load_content(root / "content", root, config).documents}
    for problem in warnings(c, lines, changed_files(root)):
        print(problem, file=sys.stderr)
    print(f"ok: {len(c.concepts)} concepts, {len(c.questions)} questions, {len(c.reports)} reports, {len(built.pages)} generated pages")
    return 0


def changed_files(root: Path) -> set[str] | None:
    """Content files added since the last commit, staged or not (paths as authors see them), or
    None when `root` is not in a git work tree: what `make check` compares with the rest."""
    try:
        top = subprocess.run(["git", "-C", str(root), "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=True)
        status = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=all", "--", "content"],
                                capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    repo = Path(top.stdout.strip())
    changed = set()
    for line in status.stdout.splitlines():
        if line[:2] not in ("??", "A ", "AM"):
            continue  # an edit to a file already committed is not a new question
        path = (repo / line[3:].split(" -> ")[-1].strip('"')).resolve()
        if path.is_relative_to(root):
            changed.add(path.relative_to(root).as_posix())
    return changed


def find_ids(root: Path, query: str, config: Path | None = None) -> int:
    """Print the best matches as `kind  id  title  (matched in field)`: what exists before writing anew."""
    corpus, problems = validate(load_content(root / "content", root, config))
    if not corpus.concepts and problems:
        for problem in problems:
            print(problem, file=sys.stderr)
        return 1
    found = find(corpus, query)
    if not found:
        print(f"nothing matches '{query}': no concept, question or report uses these words", file=sys.stderr)
        return 1
    width = max(len(f.id) for f in found)
    for f in found:
        print(f"{f.kind:<9}{f.id:<{width + 2}}{f.title}  ({f.matched})")
    return 0


def run_snippets(root: Path, files: list[Path], config: Path | None = None) -> int:
    """Run the snippets of `files` afresh, one line each: how an author tries one note's code."""
    corpus, problems = validate(load_content(root / "content", root, config))
    if corpus.guide is None:  # guide.yml could not be read: its problems say why
        for problem in problems:
            print(problem, file=sys.stderr)
        return 1
    every = corpus_snippets(corpus)
    having = {(root / s.path).resolve() for s in every}
    wanted = {(root / f).resolve(): f for f in files}
    chosen = [s for s in every if (root / s.path).resolve() in wanted]
    unknown = sorted(str(f) for path, f in wanted.items() if path not in having)
    for name in unknown:
        print(f"{name}: no runnable snippet (a ```python block at the start of a line) in this content file", file=sys.stderr)
    failed = 0
    for snippet in chosen:
        problem = verdict(snippet, run(snippet))
        if problem is None:
            print(f"{snippet.path}:{snippet.line}: {snippet.label}: ok")
        else:
            failed += 1
            print(problem, file=sys.stderr)
    print(f"{len(chosen)} snippet(s), {failed} failed", file=sys.stderr if failed else sys.stdout)
    return 1 if failed or unknown or not chosen else 0


def scaffold(root: Path, kind: str, entity_id: str, question_text: str = "", config: Path | None = None) -> int:
    """Write `make new-<kind>`'s file: the kind's front matter and sections from guide.yml, every
    value a placeholder `make check` rejects (naming file, line and field) until it is replaced."""
    if not entity_id:
        print(f"usage: make new-{kind} ID=<kebab-case-id>", file=sys.stderr)
        return 2
    if not is_valid_id(entity_id):
        print(f"'{entity_id}' is not a valid id: use lower-case a-z, 0-9 and '-' (it becomes the page URL)", file=sys.stderr)
        return 2
    content = root / "content"
    for folder in FOLDERS.values():
        clash = content / folder / f"{entity_id}.md"
        if clash.exists():
            print(f"{clash.relative_to(root)} already exists; ids are shared by concepts, questions, reports and coding tasks", file=sys.stderr)
            return 1
    loaded = load_content(content, root, config)
    if loaded.guide is None:
        for problem in loaded.problems:
            print(problem, file=sys.stderr)
        return 1
    taxonomy = next((read_taxonomy(d, []) for d in loaded.documents if d.kind == "taxonomy"), None)
    if taxonomy is None or not (taxonomy.topics and taxonomy.companies and taxonomy.difficulties):
        print("content/taxonomy.yml must list topics, companies and difficulties first", file=sys.stderr)
        return 1
    concepts = sorted(d.stem for d in loaded.documents if d.kind == "concepts")
    if kind == "question" and not concepts:
        print("write a concept first: every question names the concepts it probes", file=sys.stderr)
        return 1
    text = scaffold_text(loaded.guide.kinds[kind], {
        "topics": " / ".join(t.id for t in taxonomy.topics),
        "companies": " / ".join(c.id for c in taxonomy.companies),
        "difficulties": " / ".join(d.id for d in taxonomy.difficulties),
        "coding_kinds": " / ".join(k.id for k in taxonomy.coding_kinds),
    })
    if kind == "question" and question_text.strip():
        text = re.sub(r"^text:.*$", lambda _: "text: " + json.dumps(question_text.strip(), ensure_ascii=False), text, count=1, flags=re.M)
        corpus, _ = validate(loaded)
        near = close_questions(corpus, question_text)
        if near:
            print("the bank's nearest questions; if yours is one of them, improve that one instead:")
            for score, q in near:
                print(f"  {score:.2f}  {q.loc.path}  {q.text}")
    target = content / FOLDERS[kind] / f"{entity_id}.md"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target.relative_to(root)}: replace every <<待填写：…>> (make check lists the ones left), then run 'make serve'")
    return 0
