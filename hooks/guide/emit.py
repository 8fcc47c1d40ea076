"""Stage 5 for `make serve` only: hand rendered pages and vendored assets to MkDocs as virtual files.

Nothing is written into `docs/` or `content/`: every page is a
`File.generated` that pretends to live in `docs/` at its `SrcUri`. (A build writes them as files
instead: compile.py.)
"""
from __future__ import annotations

from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

from .assets import AssetError, vendor_assets
from .model import SrcUri


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
    try:
        served = vendor_assets(root)
    except AssetError as err:
        raise PluginError(str(err)) from None
    for src, path in served.items():
        files.append(File.generated(config, src, abs_src_path=str(path)))
    return files


def write_if_changed(path: Path, text: str) -> Path:
    """Write `text` unless the file already holds it, so its modification time means "changed"."""
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return path
