"""MkDocs adapter: wires MkDocs events to the guide engine and does nothing else.

on_pre_build runs before MkDocs cleans `site/`, so content with mistakes
fails the build with one line per problem and leaves the last good site.
"""
from __future__ import annotations

import json
import logging
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from guide import pipeline, printfonts, safe, search, serving  # noqa: E402
from guide.offline import OfflineError  # noqa: E402
from guide.printing import PrintError  # noqa: E402
from guide.publish import publish  # noqa: E402
from guide.emit import emit  # noqa: E402
from guide.finish import code_buttons, fix_theme_html  # noqa: E402
from guide.errors import ContentError  # noqa: E402
from guide.formulas import typeset_page  # noqa: E402
from guide.link import resolve  # noqa: E402
from guide.urls import root_hrefs  # noqa: E402
from mkdocs.exceptions import PluginError  # noqa: E402

log = logging.getLogger("mkdocs.guide")
_built: pipeline.Built | None = None
_records: list[search.Record] = []
_search_seconds = [0.0]  # time the build spends on search: text extraction + waiting for the index
_index: search.IndexJob | None = None
# `mkdocs serve` reloads this module before every rebuild, so what must outlive a rebuild
# (the page cache, the last index job, the records of pages a dirty rebuild skips) lives in the
# engine's `serving` state instead.


def _root(config) -> Path:
    # Not resolve(): a project may symlink mkdocs.yml (as bench/ does) and still own its content/.
    return Path(config.config_file_path).absolute().parent


def on_startup(command: str, dirty: bool) -> None:
    serving.start(command, dirty)


def on_pre_build(config) -> None:
    global _built
    _records.clear()
    _search_seconds[0] = 0.0
    serving.before_build()
    try:
        _built = pipeline.build(_root(config), Path(config.docs_dir))
    except ContentError as err:
        for problem in err.problems:
            log.error(str(problem))
        raise PluginError(f"{len(err.problems)} problem(s) in the guide's sources; nothing was built and site/ was left as it was") from None


def on_files(files, config):
    assert _built is not None
    start = time.perf_counter()
    root = _root(config)
    try:
        fonts = printfonts.print_fonts([*_built.pages.values(), *_built.docs.values()], root / ".cache" / "print-fonts")
    except printfonts.PrintFontError as err:
        raise PluginError(str(err)) from None
    _built.timings["print_fonts"] = time.perf_counter() - start
    files = emit(files, config, _built.pages, root, serving.page_cache(root), fonts)
    _built.timings["emit"] = time.perf_counter() - start
    return files


def on_page_content(html: str, page, config, files) -> str:
    assert _built is not None
    html = root_hrefs(html, page.url)
    unsafe = safe.unsafe_html(html)
    if unsafe:
        raise PluginError(safe.refusal(page.file.src_uri, bool(page.file.generated_by), unsafe))
    if not (page.meta.get("search") or {}).get("exclude"):
        # Listing pages (index, keywords, stats) are left out: they would outrank what they list.
        start = time.perf_counter()
        _records.append(search.page_record(page.url, page.title or "", page.meta, html))
        _search_seconds[0] += time.perf_counter() - start
    return code_buttons(typeset_page(html, _built.math))


def on_env(env, config, files):
    # Every page's content is known now; MkDocs has yet to render and write the pages, so the
    # search index is built in a second process meanwhile (most builds have a core to spare).
    global _index
    env.bytecode_cache = serving.template_code()  # a rebuild reuses the compiled theme templates
    records = serving.all_records(_records, {f.url for f in files.documentation_pages()})
    _index = search.IndexJob(records, Path(config.site_dir) / "pagefind", _built.corpus.synonyms)
    serving.index_started(_index)
    return env


def on_post_build(config) -> None:
    assert _index is not None and _built is not None
    if serving.live():
        return  # the preview reloads now; the index lands a moment later
    try:
        _search_seconds[0] += _index.wait()
    except RuntimeError as err:
        raise PluginError(str(err)) from None
    _built.timings["search"] = _search_seconds[0]
    _built.timings["search_process"] = _index.elapsed
    start = time.perf_counter()
    try:
        for line in publish(_built, Path(config.site_dir), _root(config) / ".cache", config.site_url or "",
                            print_pdfs=os.environ.get("GUIDE_PRINT") != "0", root=_root(config)):
            log.info(line)
    except (PrintError, OfflineError) as err:
        raise PluginError(str(err)) from None
    _built.timings["publish"] = time.perf_counter() - start
    # `make bench` reads the pipeline's own stage timings from here.
    if os.environ.get("GUIDE_TIMINGS"):
        Path(os.environ["GUIDE_TIMINGS"]).write_text(json.dumps(_built.timings), encoding="utf-8")


def on_page_markdown(markdown: str, page, config, files) -> str:
    if page.file.generated_by:
        return markdown  # generated pages were linked by the engine
    assert _built is not None
    return resolve(markdown, page.file.src_uri, 1, _built.links.table)[0]


def on_post_page(output: str, page, config) -> str:
    return fix_theme_html(output)


def on_post_template(output: str, template_name: str, config) -> str:
    return fix_theme_html(output)  # 404.html
