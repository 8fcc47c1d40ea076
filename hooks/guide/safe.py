"""What an author wrote reaches readers as text, never as markup that runs.

Front-matter fields (titles, questions, briefs, summaries, names) are one line of text that may
hold `code` and $math$. They are written into generated Markdown by `md_text`, which is safe by
construction: no `<` that could open a tag, no `&` that could start a character reference, no
Markdown link, emphasis or attribute list survives from the author's text, whatever Markdown
later decides is code or math. Bodies are Markdown and are checked by `validate` instead.

`unsafe_html` is the last look at a rendered page: script, event handlers and script URLs there
can only come from a mistake in this package, and the build stops instead of publishing them.
"""
from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from urllib.parse import quote

from .text import _DISPLAY_MATH, _INLINE_CODE, _INLINE_MATH, guard_tex


class Markdown(str):
    """Markdown the engine wrote or validated (a body, a link it built): templates insert it as is.
    Every other string a template prints is author text and goes through `md_text`."""


_SPANS = re.compile("|".join(f"(?:{p.pattern})" for p in (_INLINE_CODE, _DISPLAY_MATH, _INLINE_MATH)), re.S)

_ENTITIES = {c: f"&#{ord(c)};" for c in "\\`*_[]{}$|"}
_ENTITIES.update({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})
_ACTIVE = re.compile("[" + re.escape("".join(_ENTITIES)) + "]")
"""What Markdown (with this site's extensions) or HTML acts on inside a line: escapes, code, emphasis,
links, attribute lists, math, table cells, tags and character references."""

_LINE_START = re.compile(r"^(?:#|[-+:](?=\s)|[=!?]{3}|\d+[.)](?=\s|$))")
"""What makes a block of a line that starts with it: heading, list, definition, admonition."""

_BLANKS = re.compile(r"\s+")
"""One-line fields stay on one line: a newline inside a table cell or a heading would end it."""


def _entities(text: str, first: bool = False) -> str:
    """Every character Markdown or HTML could act on, as a character reference: it displays as itself.
    `first`: the text may begin a line, where a few characters start a block."""
    text = _ACTIVE.sub(lambda m: _ENTITIES[m.group(0)], text)
    lead = _LINE_START.match(text) if first else None
    if lead:
        text = f"{text[: lead.end() - 1]}&#{ord(text[lead.end() - 1])};{text[lead.end():]}"
    return text


def md_text(text: object) -> Markdown:
    """One line of author text for a generated Markdown page, shown exactly as written.

    `code` becomes a <code> element with its text escaped, $math$ is kept for the typesetter with
    every tag opening written `\\lt`, and everything else is plain text.
    """
    if isinstance(text, Markdown):
        return text
    text = _BLANKS.sub(" ", str(text))
    out: list[str] = []
    last = 0
    for match in _SPANS.finditer(text):
        out.append(_entities(text[last : match.start()], first=not out))
        span = match.group(0)
        if span.startswith("`"):
            ticks = len(span) - len(span.lstrip("`"))
            out.append(f"<code>{_entities(span[ticks:-ticks].strip())}</code>")
        else:
            out.append(guard_tex(span))
        last = match.end()
    out.append(_entities(text[last:], first=not out))
    return Markdown("".join(out))


def md_code(text: object) -> Markdown:
    """Author text shown as inline code (a function signature), escaped like `md_text`'s code."""
    return Markdown(f"<code>{_entities(_BLANKS.sub(' ', str(text)).strip())}</code>")


def md_url(url: str) -> Markdown:
    """An http(s) address for a Markdown link target: whatever could end the target is percent-encoded."""
    return Markdown(quote(url, safe="/:?#@!$&'*+,;=%~-._"))


def html_text(text: object) -> Markdown:
    """Author text inside raw HTML that Markdown leaves alone (an <option>, a table cell)."""
    return Markdown(html.escape(_BLANKS.sub(" ", str(text)), quote=True))


# --- the last look at a rendered page ------------------------------------------------------------

ALLOWED_SCHEMES = frozenset({"http", "https", "mailto"})
_URL_ATTRIBUTES = frozenset({"href", "src", "action", "formaction", "xlink:href", "srcset", "poster", "data", "background"})
_ACTIVE_ELEMENTS = frozenset({"iframe", "frame", "object", "embed", "applet", "base", "meta", "link", "style"})
_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):")
_URL_NOISE = re.compile(r"[\x00-\x20\x7f]")


def url_scheme(url: str) -> str | None:
    """The scheme a browser would read in `url` (a relative URL has none): entities decoded, blanks
    and control characters dropped as the URL parser drops them."""
    match = _SCHEME.match(_URL_NOISE.sub("", html.unescape(url)))
    return match.group(1).lower() if match else None


class _Scan(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            if dict(attrs).get("type") != "application/json":
                self.found.append("a <script> element")
        elif tag in _ACTIVE_ELEMENTS:
            self.found.append(f"a <{tag}> element")
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"an event handler ({name}) on <{tag}>")
            elif name in _URL_ATTRIBUTES and value:
                scheme = url_scheme(value)
                if scheme and scheme not in ALLOWED_SCHEMES:
                    self.found.append(f"a '{scheme}:' address in {name} of <{tag}>")

        if tag in ("set", "animate") and "href" in (dict(attrs).get("attributename") or "").lower():
            self.found.append(f"an SVG <{tag}> that changes a link")

    handle_startendtag = handle_starttag

    # Where this parser and a browser's could disagree, the page is refused rather than trusted:
    # a browser ends `<!-->`, `<!--->` and `--!>` comments early, and reads `<![CDATA[…` and `<?…`
    # as comments that end at the first `>`, so what follows could be live markup.
    def handle_comment(self, data: str) -> None:
        if data.startswith((">", "->")) or "--!" in data or "<" in data:
            self.found.append("an HTML comment that browsers may end early")

    def unknown_decl(self, data: str) -> None:
        self.found.append(f"a markup declaration (<![{data[:12]}…)")

    def handle_decl(self, decl: str) -> None:
        if decl.lower() != "doctype html":
            self.found.append(f"a markup declaration (<!{decl[:12]}…)")

    def handle_pi(self, data: str) -> None:
        self.found.append(f"a processing instruction (<?{data[:12]}…)")


def unsafe_html(content: str) -> list[str]:
    """What in a page's rendered content could run script: elements, handlers, script addresses.

    Only `<script type="application/json">` (data the study pages read) may appear.
    """
    scan = _Scan()
    scan.feed(content)
    scan.close()
    return list(dict.fromkeys(scan.found))


def refusal(src_uri: str, generated: bool, found: list[str]) -> str:
    """Why the build stopped at a page that would run script (validation should have said first)."""
    if not generated:
        where = f"docs/{src_uri}"
    elif src_uri.split("/")[0] in ("concepts", "questions", "reports", "coding"):
        where = f"content/{src_uri}"
    else:
        where = f"the page generated at {src_uri} (from content/taxonomy.yml and the files it lists)"
    return (f"{where}: the page would carry {'; '.join(found)}; the build stopped rather than publish it. "
            "The checks on content should have named the line: please report this with the file")
