"""Keyword search: one tokenizer for index and query, Pagefind for storage, ranking and loading.

Chinese has no spaces and readers type whole terms (熵坍塌), parts of words (坍塌), terms split by
spaces, English in any case and identifiers (ppo_mini_batch_size).  Dictionary segmenters disagree
between index time and query time on exactly these technical words; so instead both sides cut text
the same simple way, here and in `docs/assets/js/search.js` (kept equal by a test):

- text is NFKC-normalised and lower-cased;
- a run of Han characters becomes its character bigrams, plus its last character alone, so that
  every character starts some token (Pagefind matches the last query word as a prefix, so `熵`
  finds `熵坍`);
- a run of letters/digits is a word; words joined by `_ - .` (an identifier) are also indexed joined
  together, and so are two words separated by one space (`kv cache` -> `kvcache`).

A query is cut the same way (a lone Han character beside other words is dropped as a particle)
and every query token must match.  Pagefind stores the tokens in a chunked index, so a reader
downloads only the chunks their words need, plus metadata for the results shown.  It sees Han
tokens only as `ǂ` + digits (`pagefind_word`), because its own query parser splits Han text.
Each page opens with a fixed region of title and alias tokens (`HEAD`), whose matched positions
let the browser rank title matches first without downloading anything more.  The original text
travels as metadata, for snippets.
"""
from __future__ import annotations

import functools
import html
import json
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path

HAN = r"\u4e00-\u9fff"
"""CJK Unified Ideographs; NFKC folds compatibility ideographs into them.  The rare extension
blocks are treated as letters."""
_RUN = re.compile(rf"([{HAN}]+)|([^\W_{HAN}]+(?:[_\-.][^\W_{HAN}]+)*)")
_SPACE_PAIR = re.compile(rf"(?<![^\W_{HAN}])([^\W_{HAN}]+) (?=([^\W_{HAN}]+))")
_PARTS = re.compile(r"[_\-.]")


def normalize(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower()


HAN_MARK = "\u01c2"  # ǂ, a click letter
WORD_END = "\u01c3"  # ǃ, another: ends every stored word
"""Pagefind matches every search word as a prefix (`deep` finds `deepseek`, `rl` finds `rlhf`), and
a word it does not find at all it replaces with the longest prefix of it that is a stored word
(Pagefind PR #315): 量子, in no page, found the pages that hold 量 alone.  Every stored word ends in
WORD_END, so no proper prefix of a looked-up word is ever a stored word: search.js looks a word up
exactly as `word` + WORD_END, and as a prefix (the word still being typed, a single Han
character) without it."""
CODE_SYMBOLS = "0123456789bcdfghjklmnpqrstvwxz"
"""Digits and consonants only: the English stemmer changes no word without a vowel.  Three
symbols (27,000 codes) cover the 20,992 unified ideographs."""


def _han_code(char: str) -> str:
    value = ord(char) - 0x4E00
    digits = []
    for _ in range(3):
        value, rest = divmod(value, len(CODE_SYMBOLS))
        digits.append(CODE_SYMBOLS[rest])
    return "".join(reversed(digits))


@functools.lru_cache(maxsize=None)
def pagefind_word(token: str) -> str:
    """The word Pagefind stores for a token: Han characters become HAN_MARK + three symbols each;
    every word ends in WORD_END.

    Pagefind's query parser handles Han characters on its own (it split 要性 into 要 and 性 and
    lost pages), whatever the index language.  Fixed width keeps a character's code a prefix of
    the codes of the bigrams it starts, which is how single-character queries still work (looked
    up without WORD_END).  The mark is a letter nobody types, so a reader's one-letter prefix never
    expands to every Han word."""
    if not _is_han(token):
        return token + WORD_END
    return HAN_MARK + "".join(_han_code(c) for c in token) + WORD_END


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

STOP_MARKER = "<!-- search:stop -->"
"""Templates put this before generated link lists: they name other pages, not this one."""

# The rendered HTML comes from Python-Markdown, so its shapes are known: math is a span/div of
# class "arithmatex" holding escaped TeX, permalinks are <a class="headerlink">, the meta line is
# a div without nested divs.  Regular expressions are exact enough here and 20x faster than an
# HTML parser on pages full of highlighted code.
_FURNITURE = re.compile(
    r'<a class="headerlink"[^>]*>.*?</a>'
    r"|<h1\b.*?</h1>"
    r'|<(h[1-6]|strong|span|p) class="guide-furniture"[^>]*>.*?</\1>'
    r'|<div class="guide-meta">.*?</div>'
    r'|<div class="guide-print-bar">.*?</div>'
    r"|<summary\b.*?</summary>"
    r"|<(script|style)\b.*?</\2>",
    re.S,
)
"""What a page shows around its text: permalinks, the title (every result shows it already), the
meta line, the print button, the prompt on a folded answer ("先自己想一想…") and what templates mark
`guide-furniture` (a section heading a template adds, a label). Neither indexed nor shown."""
_MATH = re.compile(r'<(span|div) class="arithmatex">(.*?)</\1>', re.S)
_CODE = re.compile(r"<pre\b.*?</pre>", re.S)
_BLOCK = re.compile(r"</?(?:p|li|h[1-6]|td|th|tr|pre|div|br|dt|dd|blockquote|table|ul|ol)\b[^>]*>", re.I)
_TAG = re.compile(r"<[^>]+>")
_HEADING = re.compile(r"<h([234])\b[^>]*>(.*?)</h\1>", re.S)
_TEX_DELIMITERS = re.compile(r"^\\[(\[]|\\[)\]]$")


def _plain(fragment: str) -> str:
    text = html.unescape(_TAG.sub("", _BLOCK.sub("\n", fragment)))
    text = re.sub(r"[ \t\u00a0]+", " ", text)
    return re.sub(r"\s*\n\s*", "\n", text).strip()


def _tex(match: re.Match[str]) -> str:
    """A formula as a snippet shows it: its TeX between $ signs, never a gap."""
    tex = html.unescape(match.group(2)).strip()
    tex = re.sub(r"^\\[\[(]\s*|\s*\\[\])]$", "", tex)
    return f" ${' '.join(tex.split())}$ "


def page_text(content_html: str) -> tuple[str, list[str], str]:
    """A rendered page body as (indexed text, headings, snippet text).

    The indexed text leaves out formulas (TeX commands are not words readers type); the snippet
    text keeps them as TeX and leaves out code blocks, so a result shows the page's own prose."""
    content_html = _FURNITURE.sub(" ", content_html.split(STOP_MARKER, 1)[0])
    headings = [html.unescape(_TAG.sub("", h)).strip() for _, h in _HEADING.findall(content_html)]
    return _plain(_MATH.sub(" ", content_html)), headings, _plain(_MATH.sub(_tex, _CODE.sub("\n", content_html)))


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
    summary: str = ""
    """The page's one line (a concept's summary, a question's brief): ranked between names and text."""
    snippet: str = ""
    """The text results show a window of (see page_text); the indexed text when empty."""
    listing: bool = False
    """A page that lists others (a report, a topic): found by its names and summary, not its text,
    which is the titles of what it lists."""


TITLE_WEIGHT = 10
HEADING_WEIGHT = 2
SNIPPET_CHARS = 2000
"""Snippet text kept per page (code left out); a match further down falls back to the page's opening."""
TOKEN_CAP = 3
"""Occurrences of one token kept per page: term frequency saturates in the ranking anyway."""
PRIMARY_KINDS = frozenset({"概念", "手撕", "公司"})
TITLE_SPAN, NAMES_END, HEAD, HEADINGS_SPAN = 48, 128, 192, 96
"""Word positions at the start of every page's indexed text, so that the browser knows which field
a match is in from its position alone (Pagefind returns each result's matched positions before
any page data is downloaded; search.js holds the same constants):

- two regions of HEAD positions: [0, HEAD) for concepts, coding tasks and companies (the pages that
  own a name), [HEAD, 2*HEAD) for the rest; in its region a page puts its title's tokens in the
  first TITLE_SPAN positions, its English name's and aliases' up to NAMES_END, its summary's up to
  HEAD;
- then HEADINGS_SPAN positions of headings; then the text.

Unused positions hold FILLER."""
BODY_START = 2 * HEAD + HEADINGS_SPAN
FILLER = "xqzj"


def capped(tokens: list[str], cap: int = TOKEN_CAP) -> list[str]:
    seen: dict[str, int] = {}
    kept = []
    for token in tokens:
        seen[token] = seen.get(token, 0) + 1
        if seen[token] <= cap:
            kept.append(token)
    return kept


def page_record(url: str, title: str, meta: dict, content_html: str) -> Record:
    """A record for one rendered page; generated pages describe themselves in their front matter."""
    text, headings, snippet = page_text(content_html)
    keywords = [meta.get("en") or "", *(meta.get("aliases") or [])]
    listing = (meta.get("search") or {}).get("body") is False
    return Record(url, title, meta.get("kind") or "页面", meta.get("context") or "",
                  tuple(k for k in keywords if k), tuple(headings), text, meta.get("description") or "", snippet, listing)


def _span(tokens: list[str], size: int, taken: set[str]) -> list[str]:
    kept = [t for t in dict.fromkeys(tokens) if t not in taken][:size]
    taken.update(kept)
    return kept + [FILLER] * (size - len(kept))


def head_tokens(record: Record) -> list[str]:
    """The tokens that open a record's indexed text: its two regions and its headings (see HEAD)."""
    taken: set[str] = set()
    region = (_span(index_tokens(record.title), TITLE_SPAN, taken)
              + _span(index_tokens(" ".join(record.keywords)), NAMES_END - TITLE_SPAN, taken)
              + _span(index_tokens(record.summary), HEAD - NAMES_END, taken))
    filler = [FILLER] * HEAD
    regions = region + filler if record.kind in PRIMARY_KINDS else filler + region
    return regions + _span(index_tokens(" ".join(record.headings)), HEADINGS_SPAN, set())


def record_html(record: Record) -> str:
    """The HTML Pagefind indexes for a record: tokens at their positions, originals as metadata."""

    def meta(name: str, value: str) -> str:
        return f'<meta data-pagefind-meta="{name}[content]" content="{html.escape(value, quote=True)}">'

    fields = {"url": record.url, "title": record.title, "kind": record.kind, "context": record.context,
              "names": " | ".join(record.keywords), "text": (record.snippet or record.text)[:SNIPPET_CHARS]}
    head = "".join(meta(k, v) for k, v in fields.items() if v or k in ("url", "title", "text"))

    def words(tokens: list[str]) -> str:
        return html.escape(" ".join(pagefind_word(t) for t in tokens))

    body = "" if record.listing else words(capped(index_tokens(record.text)))
    return (f'<html lang="en"><head>{head}</head><body data-pagefind-body>'
            f'<h1 data-pagefind-weight="{TITLE_WEIGHT}">{words(head_tokens(record))}</h1><div>{body}</div></body></html>')


class IndexJob:
    """The search index, written by a forked process while MkDocs writes the pages."""

    def __init__(self, records: list[Record], output: Path, synonyms: tuple[tuple[str, ...], ...] = ()):
        self.started = time.perf_counter()
        self.process = multiprocessing.get_context("fork").Process(target=_write_index_alone, args=(records, output, synonyms),
                                                                   daemon=True)
        self.process.start()

    def cancel(self) -> bool:
        """Stop an index still being written (with its Pagefind process); True if one was stopped."""
        if not self.process.is_alive():
            self.process.join()
            return False
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.join()
        return True

    def wait(self) -> float:
        """Block until the index is written; return how long the build waited for it."""
        waiting = time.perf_counter()
        self.process.join()
        if self.process.exitcode != 0:
            raise RuntimeError(f"writing the search index failed (exit code {self.process.exitcode}); see the error above")
        return time.perf_counter() - waiting

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.started


def _write_index_alone(records: list[Record], output: Path, synonyms: tuple[tuple[str, ...], ...]) -> None:
    os.setpgrp()  # its own process group, so that cancel() stops Pagefind with it
    write_index(records, output, synonyms)


def write_index(records: list[Record], output: Path, synonyms: tuple[tuple[str, ...], ...] = ()) -> None:
    """Write the Pagefind bundle (scripts, wasm, chunked index, fragments) to `output`, and
    `guide-search.json` beside it: the page count (for each term's rarity) and the synonym groups,
    both read by search.js when the search box opens.

    The records are staged as small HTML files (flat names: the URL travels as metadata) and
    indexed by Pagefind's own command, which uses every core; its Python service API, fed page by
    page, took 100x longer (656 s for 6,300 pages).
    """
    with tempfile.TemporaryDirectory(prefix="guide-search-") as staging:
        for number, record in enumerate(records):
            Path(staging, f"{number}.html").write_text(record_html(record), encoding="utf-8")
        result = subprocess.run(
            [sys.executable, "-m", "pagefind", "--site", staging, "--output-path", str(output),
             "--force-language", "en", "--silent"],
            capture_output=True, text=True,
        )
        if result.returncode != 0:
            raise RuntimeError(f"Pagefind failed to index the site:\n{result.stdout}{result.stderr}")
    stats = {"pages": len(records), "synonyms": [list(group) for group in synonyms]}
    (output / "guide-search.json").write_text(json.dumps(stats, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
