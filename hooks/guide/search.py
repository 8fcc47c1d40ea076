"""Keyword search: one tokenizer for index and query, Pagefind for storage, ranking and loading.

Chinese has no spaces and readers type whole terms (熵坍塌), parts of words (坍塌), terms split by
spaces, English in any case and identifiers (ppo_mini_batch_size).  Dictionary segmenters disagree
between index time and query time on exactly these technical words; so instead both sides cut text
the same simple way, here and in `docs/assets/js/search.js` (kept equal by a test):

- text is NFKC-normalised and lower-cased;
- a run of Han characters becomes its character bigrams, plus its last character alone, so that
  every character starts some token (Pagefind matches query words as prefixes, so `熵` finds `熵坍`);
- a run of letters/digits is a word; words joined by `_ - .` (an identifier) are also indexed joined
  together, and so are two words separated by one space (`kv cache` -> `kvcache`).

A query is cut the same way (without the extra last-character token) and every query token must
match.  Pagefind (run with `force_language: en`, so it neither segments nor mangles the tokens;
English stemming applies equally to both sides) stores the tokens in a chunked index, so a reader
downloads only the chunks their words need.  The original text travels as metadata for snippets.
"""
from __future__ import annotations

import asyncio
import html
import tempfile
import re
import unicodedata
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

HAN = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_RUN = re.compile(rf"([{HAN}]+)|([^\W_{HAN}]+(?:[_\-.][^\W_{HAN}]+)*)")
_SPACE_PAIR = re.compile(rf"(?<![^\W_{HAN}])([^\W_{HAN}]+) (?=([^\W_{HAN}]+))")
_PARTS = re.compile(r"[_\-.]")


def normalize(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower()


def _han_tokens(run: str, last_alone: bool) -> list[str]:
    if len(run) == 1:
        return [run]
    tokens = [run[i : i + 2] for i in range(len(run) - 1)]
    return tokens + [run[-1]] if last_alone else tokens


def _word_tokens(word: str) -> list[str]:
    parts = [p for p in _PARTS.split(word) if p]
    return parts + ["".join(parts)] if len(parts) > 1 else parts


def query_tokens(query: str) -> list[str]:
    """Tokens a reader's query must all match (see module docstring); duplicates removed.

    A lone Han character next to other words (`GRPO 的 KL`) is dropped: it is almost always a
    particle, and Pagefind matches only the last query word as a prefix, so a lone character in
    the middle would have to be a whole token of the page.  Alone (`熵`), it is kept.
    """
    tokens: list[str] = []
    for han, word in _RUN.findall(normalize(query)):
        tokens += _han_tokens(han, last_alone=False) if han else _word_tokens(word)
    longer = [t for t in tokens if len(t) > 1 or not _is_han(t)]
    return list(dict.fromkeys(longer if longer else tokens))


def _is_han(token: str) -> bool:
    return bool(re.match(rf"[{HAN}]", token))


def index_tokens(text: str) -> list[str]:
    """Tokens stored for a text: the query tokens of every run, plus joined neighbours."""
    text = normalize(text)
    tokens: list[str] = []
    for han, word in _RUN.findall(text):
        tokens += _han_tokens(han, last_alone=True) if han else _word_tokens(word)
    tokens += [a + b for a, b in _SPACE_PAIR.findall(text)]
    return tokens


# --- page text ----------------------------------------------------------------

SKIP_CLASSES = {"arithmatex", "headerlink", "guide-meta"}
STOP_MARKER = "search:stop"
"""Templates put `<!-- search:stop -->` before generated link lists: they name other pages, not this one."""


class _TextExtractor(HTMLParser):
    BLOCKS = {"p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "td", "th", "pre", "div", "br", "tr", "dt", "dd", "blockquote"}
    VOID = {"br", "img", "hr", "input", "meta", "link", "wbr", "source"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.headings: list[str] = []
        self._skip_depth = 0
        self._stack: list[bool] = []
        self._heading: list[str] | None = None
        self.stopped = False

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            if tag == "br":
                self.parts.append("\n")
            return
        classes = set((dict(attrs).get("class") or "").split())
        skip = bool(classes & SKIP_CLASSES) or tag in {"script", "style"}
        self._stack.append(skip)
        if skip:
            self._skip_depth += 1
        if tag in {"h2", "h3", "h4"}:
            self._heading = []
        if tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in self.VOID or not self._stack:
            return
        if self._stack.pop():
            self._skip_depth -= 1
        if tag in {"h2", "h3", "h4"} and self._heading is not None:
            self.headings.append("".join(self._heading).strip())
            self._heading = None
        if tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data):
        if self._skip_depth or self.stopped:
            return
        self.parts.append(data)
        if self._heading is not None:
            self._heading.append(data)

    def handle_comment(self, data):
        if data.strip() == STOP_MARKER:
            self.stopped = True


def page_text(content_html: str) -> tuple[str, list[str]]:
    """Readable text of a rendered page body (no math source, no permalinks) and its headings."""
    parser = _TextExtractor()
    parser.feed(content_html)
    text = re.sub(r"[ \t\u00a0]+", " ", "".join(parser.parts))
    text = re.sub(r"\s*\n\s*", "\n", text).strip()
    return text, parser.headings


# --- records and the index ----------------------------------------------------


@dataclass(frozen=True)
class Record:
    """One searchable page."""

    url: str
    """Site-root-relative URL, e.g. `concepts/ppo-clip/`."""
    title: str
    kind: str
    """What the page is, shown with each result: 概念, 题目, 面经, 专题, 公司, 页面."""
    context: str
    """Where it belongs, shown with each result: the topic (or company) title."""
    keywords: tuple[str, ...]
    """English name and aliases: ranked like the title."""
    headings: tuple[str, ...]
    text: str


TITLE_WEIGHT = 10
KEYWORD_WEIGHT = 8
HEADING_WEIGHT = 2
SNIPPET_CHARS = 6000
"""Text kept per page for snippets; a match further down falls back to the page's opening."""
SUMMARY_CHARS = 160
TIERS = ("title", "text")
"""Each page is indexed twice: its title and keywords alone (searched first, so a title or alias
match always ranks above a page that merely mentions the term), and its whole text."""


def page_record(url: str, title: str, meta: dict, content_html: str) -> Record:
    """A record for one rendered page; generated pages describe themselves in their front matter."""
    text, headings = page_text(content_html)
    keywords = [meta.get("en") or "", *(meta.get("aliases") or [])]
    return Record(url, title, meta.get("kind") or "页面", meta.get("context") or "",
                  tuple(k for k in keywords if k), tuple(headings), text)


def record_html(record: Record, tier: str) -> str:
    """The HTML Pagefind indexes for one tier of a record: tokens by weight, originals as metadata."""

    def tokens(text: str) -> str:
        return html.escape(" ".join(index_tokens(text)))

    def meta(name: str, value: str) -> str:
        return f'<meta data-pagefind-meta="{name}[content]" content="{html.escape(value, quote=True)}">'

    fields = {"url": record.url, "title": record.title, "kind": record.kind, "context": record.context}
    if tier == "title":
        fields["text"] = record.text[:SUMMARY_CHARS]
    else:
        fields["text"] = record.text[:SNIPPET_CHARS]
    head = "".join(meta(k, v) for k, v in fields.items())
    body = (f'<h1 data-pagefind-weight="{TITLE_WEIGHT}">{tokens(record.title)}</h1>'
            f'<p data-pagefind-weight="{KEYWORD_WEIGHT}">{tokens(" ".join(record.keywords))}</p>')
    if tier == "text":
        body += (f'<p data-pagefind-weight="{HEADING_WEIGHT}">{tokens(" ".join(record.headings))}</p>'
                 f"<div>{tokens(record.text)}</div>")
    return (f'<html lang="en"><head>{head}</head>'
            f'<body data-pagefind-body data-pagefind-filter="tier:{tier}">{body}</body></html>')


async def _write_index(records: list[Record], output: Path) -> None:
    from pagefind.index import IndexConfig, PagefindIndex

    # Pagefind indexes a directory with all cores; feeding it page by page over its service
    # protocol was 100x slower (656 s for 6,300 pages).  The staging files live outside the site.
    with tempfile.TemporaryDirectory(prefix="guide-search-") as staging:
        for record in records:
            for tier in TIERS:
                path = Path(staging, tier, record.url, "index.html")
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(record_html(record, tier), encoding="utf-8")
        config = IndexConfig(force_language="en", output_path=str(output))
        async with PagefindIndex(config) as index:
            await index.add_directory(staging)
            await index.write_files(output_path=str(output))


def write_index(records: list[Record], output: Path) -> None:
    """Write the Pagefind bundle (scripts, wasm, chunked index, fragments) to `output`."""
    asyncio.run(_write_index(records, output))
