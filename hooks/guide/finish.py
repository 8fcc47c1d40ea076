"""Step 3 of 3: finish the HTML a site builder wrote from the compiled tree.

`python -m guide finish build/site --to site` reads each page's content between the markers the
compile put around it (compile.py) and:

- refuses a page whose content could run script (validation should have said first);
- collects its search record, then writes the search index;
- typesets its formulas with the KaTeX HTML the compile checked, and gives its code blocks copy
  buttons;

then prints the cheat sheets, writes the Anki deck and the offline copy's service worker
(publish.py), and only then replaces `--to` with the finished site: a build that fails at any
step leaves the last good site where it was.
"""
from __future__ import annotations

import html
import itertools
import re
import shutil
import time
from pathlib import Path

from .compile import FOOTNOTES_PLACE, Compiled, end_marker, start_marker
from .formulas import typeset_page
from .publish import publish
from .safe import refusal, unsafe_html
from .search import IndexJob, Record, page_record
from .model import Url
from .urls import root_hrefs


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


class FinishError(RuntimeError):
    """A page the builder wrote cannot be finished; the message names it."""


_H1 = re.compile(r"<h1\b[^>]*>(.*?)</h1>", re.S)
_TAGS = re.compile(r"<[^>]+>")
_PLACEHOLDER = re.compile(r"<p>" + re.escape(FOOTNOTES_PLACE) + r"</p>")


def html_path(site: Path, url: str) -> Path:
    return site / url / "index.html" if url == "" or url.endswith("/") else site / url


def title_of(meta: dict, content: str) -> str:
    """The page's title as the builder shows it: its front matter's, else its first heading."""
    if meta.get("title"):
        return str(meta["title"])
    match = _H1.search(content)
    if match is None:
        return ""
    text = html.unescape(_TAGS.sub("", match.group(1)))
    return text.replace("¶", "").strip()


def finish_page(text: str, compiled: Compiled, src: str) -> tuple[str, str]:
    """(the finished page, its content as the builder rendered it)."""
    start, end = start_marker(compiled.token), end_marker(compiled.token)
    opened = text.find(start)
    closed = text.find(end, opened + len(start)) if opened != -1 else -1
    if opened == -1 or closed == -1 or text.count(start) != 1 or text.count(end) != 1:
        raise FinishError(f"{src}: the built page lacks its content markers once each; build it from the "
                          "tree the last 'python -m guide compile' wrote")
    info = compiled.pages[src]
    # The builder's Markdown output, as it would be without the markers (Python-Markdown strips it).
    content = root_hrefs(_PLACEHOLDER.sub("", text[opened + len(start):closed]).strip("\n"), Url(info.url))
    found = unsafe_html(content)
    if found:
        raise FinishError(refusal(src, info.generated, found))
    done = code_buttons(typeset_page(content, compiled.built.math))
    return fix_theme_html(text[:opened] + done + text[closed + len(end):]), content


def finish(built_site: Path, compiled: Compiled, site_url: str, cache: Path, root: Path,
           print_pdfs: bool = True, target: Path | None = None) -> list[str]:
    """Finish `built_site` in place, then move it to `target` (when given); return what was done."""
    timings = compiled.timings
    clock = time.perf_counter()
    records: list[Record] = []
    for src, info in compiled.pages.items():
        path = html_path(built_site, info.url)
        if not path.is_file():
            raise FinishError(f"{src}: the builder wrote no {path.relative_to(built_site)}")
        page, content = finish_page(path.read_text(encoding="utf-8"), compiled, src)
        path.write_text(page, encoding="utf-8")
        if not (info.meta.get("search") or {}).get("exclude"):
            # Listing pages (index, keywords, stats) are left out: they would outrank what they list.
            records.append(page_record(info.url, title_of(info.meta, content), info.meta, content))
    not_found = built_site / "404.html"  # the theme's own page, outside the compiled tree
    if not_found.is_file():
        not_found.write_text(fix_theme_html(not_found.read_text(encoding="utf-8")), encoding="utf-8")
    timings["finish_pages"] = time.perf_counter() - clock
    clock = time.perf_counter()
    index = IndexJob(records, built_site / "pagefind", compiled.built.corpus.synonyms)
    waited = [0.0]

    def index_written() -> None:
        try:
            waited[0] = index.wait()
        except RuntimeError as err:
            raise FinishError(str(err)) from None

    # The index is written by another process while the sheets print and the deck is written.
    done = publish(compiled.built, built_site, cache, site_url, print_pdfs=print_pdfs, root=root, before_offline=index_written,
                   timings=timings)
    timings["search_process"] = index.elapsed
    timings["search_wait"] = waited[0]
    timings["publish"] = time.perf_counter() - clock - waited[0]
    if target is not None and target.resolve() != built_site.resolve():
        replace(target, built_site)
        done.append(f"site written to {target}")
    return done


def replace(target: Path, finished: Path) -> None:
    """Put `finished` at `target`; the last site is set aside first and removed only once the new
    one is in place."""
    old = target.with_name(target.name + ".old")
    if old.exists():
        shutil.rmtree(old)
    if target.exists():
        target.rename(old)
    shutil.move(str(finished), str(target))
    if old.exists():
        shutil.rmtree(old)
