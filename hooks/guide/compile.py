"""Step 1 of 3: write the complete docs tree a site builder turns into HTML.

`python -m guide compile` runs the pipeline (load -> validate -> link -> render) and writes
`build/docs/`: every generated page as Markdown, the hand-written pages of `docs/` with their
`[[links]]` resolved, their assets, the print fonts, KaTeX's files and the vendored study
libraries. Nothing is left for a builder plugin or hook to do: any builder that reads Markdown
with the site's extensions (MkDocs + Material today) builds it. Step 3, `finish.py`, then works
over the written HTML.

A file is rewritten only when its bytes changed, and files no longer produced are removed, so a
builder's dirty rebuild sees just what an edit changed. Content with mistakes raises ContentError
before anything is written.

Each page's body is wrapped in two comments carrying a random token (drawn once per checkout):
`finish` reads a page's content between them (what it checks for script, indexes for search,
typesets), whatever theme laid out the page around it. Content cannot forge the end marker: the
token lives in the build machine's `.cache/`, never in the repository.
"""
from __future__ import annotations

import pickle
import secrets
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .assets import AssetError, vendor_assets
from .errors import ContentError, Problem
from .pipeline import Built, build, display_dir
from .model import SrcUri
from .printfonts import PrintFontError, print_fonts
from .urls import relative_links, url_of

STATE_VERSION = 2
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader where PyYAML has it (about ten times faster on 800 front matters)."""
FOOTNOTES_PLACE = "///Footnotes Go Here///"
"""Python-Markdown's footnotes extension puts a page's footnotes where this line stands (its
PLACE_MARKER), so they fall inside the content markers rather than after them."""


class CompileError(RuntimeError):
    """The machine lacks what the build needs (a font file, an npm package); the message says what."""


@dataclass
class PageInfo:
    url: str
    """The page's address below the site root, as directory URLs make it: `concepts/dpo/`, `` (home)."""
    meta: dict
    generated: bool
    """Made by the engine from content/ (else a hand-written page of docs/)."""


@dataclass
class Compiled:
    """What `finish` needs from the compile: the pipeline's results and each page's address."""

    built: Built
    token: str
    pages: dict[str, PageInfo]
    """By source path inside the docs tree (`concepts/dpo.md`)."""
    version: int = STATE_VERSION
    timings: dict[str, float] = field(default_factory=dict)


def start_marker(token: str) -> str:
    return f"<!--guide-body {token}-->"


def end_marker(token: str) -> str:
    return f"<!--/guide-body {token}-->"


def split_front_matter(text: str) -> tuple[str, dict, str]:
    """(front matter block with its fences, its data, the body) of a Markdown page."""
    if text.startswith("---\n"):
        end = text.find("\n---\n", 4)
        if end != -1:
            block = text[: end + 5]
            data = yaml.load(text[4:end], Loader=_LOADER) or {}  # validated already: only read here
            return block, data if isinstance(data, dict) else {}, text[end + 5:]
    return "", {}, text


def wrap(text: str, token: str, src: str) -> tuple[str, dict]:
    """The page with its body between the content markers and its links relative, and its front matter."""
    block, meta, body = split_front_matter(text)
    body = relative_links(body, SrcUri(src))
    wrapped = (f"{block}{start_marker(token)}\n\n{body.rstrip()}\n\n{FOOTNOTES_PLACE}\n\n{end_marker(token)}\n")
    return wrapped, meta


def content_token(path: Path) -> str:
    """The token of the content markers: drawn once per checkout and kept in `.cache/` (which git
    ignores), so content cannot know it, and an unchanged page compiles to the same bytes (its file
    is not rewritten)."""
    if path.is_file():
        token = path.read_text(encoding="ascii").strip()
        if len(token) == 24 and all(c in "0123456789abcdef" for c in token):
            return token
    path.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_hex(12)
    path.write_text(token, encoding="ascii")
    return token


def compile_tree(root: Path, docs_dir: Path, out: Path, state: Path, guide: Path | None = None) -> Compiled:
    """Write the docs tree of the project at `root` into `out` and what `finish` needs into `state`."""
    built = build(root, docs_dir, guide=guide)
    clock = time.perf_counter()
    try:
        fonts = print_fonts([*built.pages.values(), *built.docs.values()], root / ".cache" / "print-fonts")
    except PrintFontError as err:
        raise CompileError(str(err)) from None
    built.timings["print_fonts"] = time.perf_counter() - clock
    clock = time.perf_counter()
    token = content_token(root / ".cache" / "content-token")
    files: dict[str, bytes | Path] = {}
    pages: dict[str, PageInfo] = {}
    hidden = []
    for path in sorted(p for p in docs_dir.rglob("*") if p.is_file()):
        src = path.relative_to(docs_dir).as_posix()
        if src.endswith(".md"):
            if src in built.pages:
                hidden.append(Problem(f"{display_dir(docs_dir, root)}/{src}", 1, "", "would hide the generated page at the same address; rename or remove it"))
                continue
            text = built.resolved_docs.get(src)
            if text is None:
                continue  # not readable as a page: the pipeline named it
            wrapped, meta = wrap(text, token, src)
            files[src] = wrapped.encode("utf-8")
            pages[src] = PageInfo(url_of(SrcUri(src)), meta, False)
        else:
            files[src] = path
    if hidden:
        raise ContentError(hidden)
    for src, markdown in built.pages.items():
        wrapped, meta = wrap(markdown, token, src)
        files[src] = wrapped.encode("utf-8")
        pages[src] = PageInfo(url_of(SrcUri(src)), meta, True)
    files.update(fonts)
    try:
        files.update(vendor_assets(root))
    except AssetError as err:
        raise CompileError(str(err)) from None
    write_tree(out, files)
    built.timings["tree"] = time.perf_counter() - clock  # wrapping every page, then writing what changed
    compiled = Compiled(built, token, pages, timings=dict(built.timings))
    state.parent.mkdir(parents=True, exist_ok=True)
    tmp = state.with_suffix(".tmp")
    tmp.write_bytes(pickle.dumps(compiled, protocol=pickle.HIGHEST_PROTOCOL))
    tmp.replace(state)
    return compiled


def write_tree(out: Path, files: dict[str, bytes | Path]) -> None:
    """Make `out` hold exactly `files`, touching only what differs."""
    out.mkdir(parents=True, exist_ok=True)
    for src, data in files.items():
        target = out / src
        if isinstance(data, Path):
            if target.is_file() and target.stat().st_size == data.stat().st_size and target.read_bytes() == data.read_bytes():
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(data, target)
        elif not target.is_file() or target.read_bytes() != data:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    wanted = {out / src for src in files}
    for path in sorted(out.rglob("*"), reverse=True):
        if path.is_file() and path not in wanted:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()


def load_state(state: Path) -> Compiled:
    if not state.is_file():
        raise FileNotFoundError(f"{state} is missing: run 'python -m guide compile' first")
    compiled = pickle.loads(state.read_bytes())
    if getattr(compiled, "version", None) != STATE_VERSION:
        raise FileNotFoundError(f"{state} was written by another version of the engine: run 'python -m guide compile' again")
    return compiled
