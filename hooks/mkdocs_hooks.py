"""MkDocs adapter: wires MkDocs events to the guide engine and does nothing else.

on_pre_build runs before MkDocs cleans `site/`, so content with mistakes
fails the build with one line per problem and leaves the last good site.
"""
from __future__ import annotations

import logging
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from guide import pipeline  # noqa: E402
from guide.emit import emit  # noqa: E402
from guide.errors import ContentError  # noqa: E402
from guide.link import resolve  # noqa: E402
from mkdocs.exceptions import PluginError  # noqa: E402

log = logging.getLogger("mkdocs.guide")
_built: pipeline.Built | None = None


def _root(config) -> Path:
    return Path(config.config_file_path).resolve().parent


def on_pre_build(config) -> None:
    global _built
    try:
        _built = pipeline.build(_root(config), Path(config.docs_dir))
    except ContentError as err:
        for problem in err.problems:
            log.error(str(problem))
        raise PluginError(f"{len(err.problems)} problem(s) in the guide's sources; nothing was built and site/ was left as it was") from None


def on_files(files, config):
    assert _built is not None
    return emit(files, config, _built.pages, _root(config))


def on_page_markdown(markdown: str, page, config, files) -> str:
    if page.file.generated_by:
        return markdown  # generated pages were linked by the engine
    assert _built is not None
    return resolve(markdown, page.file.src_uri, 1, _built.links.table)[0]
