"""Scanning Markdown without being fooled by code and math.

`mask` blanks out fenced code, inline code and math while keeping every
offset and newline, so a regex run over the masked text finds only prose,
and a match's offsets are valid in the original text.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from .urls import heading_anchor

_FENCE_OPEN = re.compile(r"^[ \t]*(`{3,}|~{3,})")
_INLINE_CODE = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
_DISPLAY_MATH = re.compile(r"(?<!\\)\$\$.+?(?<!\\)\$\$|\\\[.+?\\\]", re.S)
_INLINE_MATH = re.compile(r"(?<![\\$])\$(?![\s$])(?:\\.|[^\\$\n])+?(?<![\s\\])\$|\\\(.+?\\\)")
_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$", re.M)
_ATTR_ID = re.compile(r"\s*\{[^}]*#([\w-]+)[^}]*\}\s*$")


def _blank(match: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", match.group(0))


@functools.lru_cache(maxsize=8192)
def mask_fences(text: str) -> str:
    """Blank fenced code blocks (including their fence lines)."""
    out: list[str] = []
    fence: str | None = None
    for line in text.split("\n"):
        opener = _FENCE_OPEN.match(line)
        if fence is None and opener:
            fence = opener.group(1)
            out.append(" " * len(line))
        elif fence is not None:
            stripped = line.strip()
            if stripped.startswith(fence[0] * len(fence)) and set(stripped) == {fence[0]}:
                fence = None
            out.append(" " * len(line))
        else:
            out.append(line)
    return "\n".join(out)


@functools.lru_cache(maxsize=8192)
def mask(text: str) -> str:
    """Blank code (fenced and inline) and math, keeping offsets and newlines."""
    text = mask_fences(text)
    text = _INLINE_CODE.sub(_blank, text)
    text = _DISPLAY_MATH.sub(_blank, text)
    return _INLINE_MATH.sub(_blank, text)


_TAG_START = re.compile(r"<(?=[A-Za-z/!?])")


def guard_math(text: str) -> str:
    """Write `<` before a letter inside math as `\\lt `.

    In a block of raw HTML with `markdown` inside (a folded answer, a cheat-sheet column),
    Python-Markdown's HTML parser reads `$x_{<t}$` as the start of a tag `<t}$…>` and
    breaks the page's structure before arithmatex sees the formula. KaTeX typesets
    `\\lt` exactly as `<`.
    """
    masked = mask_fences(text)
    spans = [m.span() for pattern in (_DISPLAY_MATH, _INLINE_MATH) for m in pattern.finditer(masked)]
    if not spans:
        return text
    out, last = [], 0
    for start, end in sorted(spans):
        if start < last:
            continue  # inline match inside a display formula
        out.append(text[last:start])
        out.append(guard_tex(text[start:end]))
        last = end
    out.append(text[last:])
    return "".join(out)


def guard_tex(tex: str) -> str:
    return _TAG_START.sub(r"\\lt ", tex)


def line_at(text: str, offset: int) -> int:
    """0-based line number of `offset` in `text`."""
    return text.count("\n", 0, offset)


@dataclass(frozen=True)
class Heading:
    level: int
    title: str
    line: int
    """0-based line inside the scanned text."""
    anchor: str


def headings(text: str) -> list[Heading]:
    """Every ATX heading outside code, with the anchor MkDocs' toc will give it."""
    return list(_headings(text))


@functools.lru_cache(maxsize=8192)
def _headings(text: str) -> tuple[Heading, ...]:
    # Bodies are read by several stages and, in `mkdocs serve`, again at every rebuild: once each.
    masked = mask_fences(text)
    found: list[Heading] = []
    seen: set[str] = set()
    for match in _HEADING.finditer(masked):
        title = text[match.start(2) : match.end(2)]
        custom = _ATTR_ID.search(title)
        if custom:
            title = title[: custom.start()]
            anchor = custom.group(1)
        else:
            anchor = _unique(heading_anchor(plain_heading(title)), seen)
        seen.add(anchor)
        found.append(Heading(len(match.group(1)), title.strip(), line_at(masked, match.start()), anchor))
    return tuple(found)


def plain_heading(title: str) -> str:
    """Heading text as the toc extension sees it once inline Markdown is rendered."""
    title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title)
    return re.sub(r"[*`]", "", title)


def _unique(anchor: str, seen: set[str]) -> str:
    if anchor not in seen:
        return anchor
    n = 1
    while f"{anchor}_{n}" in seen:
        n += 1
    return f"{anchor}_{n}"


def section(body: str, title: str) -> str:
    """The text of the `## title` section of a Markdown body (without its heading), or ''."""
    lines = body.split("\n")
    spans = [h for h in headings(body) if h.level == 2]
    for index, heading in enumerate(spans):
        if heading.title == title:
            end = spans[index + 1].line if index + 1 < len(spans) else len(lines)
            return "\n".join(lines[heading.line + 1 : end]).strip("\n")
    return ""


def bullets_and_formulas(text: str) -> tuple[list[str], list[str]]:
    """Top-level `- ` bullets (with their continuation lines) and the `$$` blocks outside them."""
    bullets: list[str] = []
    formulas = [m.group(0).strip() for m in _DISPLAY_MATH.finditer(mask_fences(text)) if m.group(0).startswith("$$")]
    outside = _DISPLAY_MATH.sub("", text)
    current: list[str] | None = None
    for line in outside.split("\n"):
        if re.match(r"^[-*+] ", line):
            if current is not None:
                bullets.append("\n".join(current))
            current = [line[2:]]
        elif current is not None and (line.startswith("  ") or not line.strip()):
            if line.strip():
                current.append(line.strip())
        elif current is not None:
            bullets.append("\n".join(current))
            current = None
    if current is not None:
        bullets.append("\n".join(current))
    return bullets, formulas
