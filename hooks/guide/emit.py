"""Stage 5: hand rendered pages and vendored assets to MkDocs as virtual files.

Nothing is written into `docs/` or `content/`: every page is a
`File.generated` that pretends to live in `docs/` at its `SrcUri`.
"""
from __future__ import annotations

import itertools
import re
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

from .model import SrcUri

KATEX_FILES = ("katex.min.js", "katex.min.css")
"""KaTeX is served from the site itself (no CDN); fonts are added as woff2 only."""

VENDOR_FILES = {
    "assets/vendor/ts-fsrs.umd.js": "ts-fsrs/dist/index.umd.js",
    "assets/vendor/workbox-window.umd.js": "workbox-window/build/workbox-window.prod.umd.js",
}
"""Libraries the study pages load from the site (FSRS scheduling; the offline copy's service worker
registration), by the site path each is served at and its file in node_modules (package.json pins them)."""


_CHECKBOX_AUTOCOMPLETE = re.compile(r'(<input\b[^>]*\btype="checkbox"[^>]*?)\s+autocomplete="off"')


def fix_theme_html(page: str) -> str:
    """Material's base.html puts autocomplete on its checkbox toggles, which HTML does not allow
    there (search.js closes the toggles on pageshow instead); it sits outside any template block."""
    return _CHECKBOX_AUTOCOMPLETE.sub(r"\1", page)


_CODE_BLOCK = re.compile(r'<div class="highlight">((?:<span class="filename">.*?</span>)?)<pre>(<span></span>)?<code>')


def code_buttons(html_text: str) -> str:
    """Give each highlighted code block Material's copy button, in the HTML: Material's bundle,
    which would add it, is not loaded (theme.js handles the click). The code is focusable so a
    keyboard can scroll a long line, as Material makes it."""
    count = itertools.count()

    def button(match: re.Match[str]) -> str:
        n = next(count)
        return (f'<div class="highlight">{match[1]}<pre id="__code_{n}">{match[2] or ""}'
                f'<span class="md-code__nav"><button class="md-code__button" title="复制" aria-label="复制代码" '
                f'data-clipboard-target="#__code_{n} &gt; code" data-md-type="copy"></button></span>'
                '<code tabindex="0">')

    return _CODE_BLOCK.sub(button, html_text)


def emit(files: Files, config: MkDocsConfig, pages: dict[SrcUri, str], root: Path, cache: Path | None = None,
         assets: dict[SrcUri, bytes] | None = None) -> Files:
    """Add every generated page, the generated `assets` (print fonts) and KaTeX's files to MkDocs' files.

    With `cache` (a folder outside docs/, used by `make serve`), each page is backed by a file
    there that is rewritten only when the page changed: MkDocs' dirty reload then rebuilds just
    the pages an edit actually changed, instead of the whole guide.
    """
    for src, markdown in pages.items():
        existing = files.get_file_from_path(src)
        if existing is not None and not existing.generated_by:
            raise PluginError(f"docs/{src} would hide the generated page at the same address; rename or remove it")
        if existing is not None:
            files.remove(existing)
        if cache is None:
            files.append(File.generated(config, src, content=markdown))
        else:
            files.append(File.generated(config, src, abs_src_path=str(write_if_changed(cache / src, markdown))))
    for src, data in (assets or {}).items():
        files.append(File.generated(config, src, content=data))
    dist = katex_dir(root)
    for asset in katex_assets(root):
        files.append(File.generated(config, f"assets/katex/{asset.relative_to(dist).as_posix()}", abs_src_path=str(asset)))
    for src, path in VENDOR_FILES.items():
        library = root / "node_modules" / path
        if not library.is_file():
            raise PluginError(f"{path.split('/')[0]} is not installed ({library} is missing): run 'make site', which runs 'npm ci'")
        files.append(File.generated(config, src, abs_src_path=str(library)))
    return files


def write_if_changed(path: Path, text: str) -> Path:
    """Write `text` unless the file already holds it, so its modification time means "changed"."""
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return path


def katex_dir(root: Path) -> Path:
    return root / "node_modules" / "katex" / "dist"


def katex_assets(root: Path) -> list[Path]:
    dist = katex_dir(root)
    if not (dist / "katex.min.js").is_file():
        raise PluginError(f"KaTeX is not installed ({dist} is missing): run 'make site', which runs 'npm ci'")
    return [dist / name for name in KATEX_FILES] + sorted((dist / "fonts").glob("*.woff2"))
