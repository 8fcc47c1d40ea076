"""Every id -> source path -> URL conversion, in one place.

Generated pages pretend to live in `docs/` at a `SrcUri`; MkDocs turns that
into the public URL.  Links inside generated Markdown are written as
docs-root-absolute `.md` paths (`/concepts/ppo-clip.md#anchor`) so the same
text is correct on every page it appears on; MkDocs
(`validation.links.absolute_links: relative_to_docs`) makes them relative
and checks them.
"""
from __future__ import annotations

import functools
import posixpath
import re

from pymdownx.slugs import slugify as _slugify_factory

from .model import CodingTask, Concept, Question, Report, SrcUri, Url

ID_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
"""Ids are kebab-case ASCII: they are file names and URL segments."""

SECTIONS: dict[type, str] = {Concept: "concepts", Question: "questions", Report: "reports", CodingTask: "coding"}

_heading_slug = _slugify_factory(case="lower")


def is_valid_id(value: str) -> bool:
    return bool(ID_PATTERN.match(value))


def entity_src(entity: Concept | Question | Report | CodingTask) -> SrcUri:
    return SrcUri(f"{SECTIONS[type(entity)]}/{entity.id}.md")


def topic_src(topic_id: str) -> SrcUri:
    return SrcUri(f"topics/{topic_id}.md")


def company_src(company_id: str) -> SrcUri:
    return SrcUri(f"companies/{company_id}.md")


def cheatsheet_src(topic_id: str) -> SrcUri:
    return SrcUri(f"cheatsheets/{topic_id}.md")


def pdf_url(topic_id: str) -> str:
    """Where the build prints a topic's cheat sheet (printing.py), relative to the site root."""
    return f"pdf/{topic_id}.pdf"


SECTION_INDEXES = frozenset({"concepts", "questions", "reports", "topics", "companies", "cheatsheets", "coding"})


def index_src(section: str) -> SrcUri:
    """The index page of a section (`questions/index.md`) or a single page (`stats.md`, `practice.md`, `mock.md`)."""
    return SrcUri(f"{section}/index.md") if section in SECTION_INDEXES else SrcUri(f"{section}.md")


def url_of(src: SrcUri) -> Url:
    """The public directory URL MkDocs gives a source path (use_directory_urls)."""
    stem = src[: -len(".md")]
    if stem == "index":
        return Url("")
    if stem.endswith("/index"):
        return Url(stem[: -len("index")])
    return Url(stem + "/")


def md_link(src: SrcUri, anchor: str = "") -> str:
    """A link target usable in any generated Markdown page."""
    return "/" + src + (f"#{anchor}" if anchor else "")


def heading_anchor(text: str) -> str:
    """The anchor MkDocs' toc gives a heading (same slugify as mkdocs.yml)."""
    return _heading_slug(text, "-")



_SITE_LINK = re.compile(r"\]\(/([^()\s]+?\.md)(#[^()\s]*)?\)")


@functools.lru_cache(maxsize=65536)
def _relative(target: str, folder: str) -> str:
    return posixpath.relpath(target, folder)  # slow (it makes both absolute), and asked for the same pairs often


def relative_links(markdown: str, src: SrcUri) -> str:
    """Write the `](/x.md#a)` links of the page at `src` relative to it (`](../x.md#a)`), outside
    code and math: every builder resolves a relative link to a Markdown file, while a link from
    the docs root is MkDocs' own option (`validation.links.absolute_links`)."""
    from .text import mask  # text.py imports this module for heading anchors

    masked = mask(markdown)
    folder = posixpath.dirname(src) or "."
    out: list[str] = []
    last = 0
    for match in _SITE_LINK.finditer(masked):
        target, anchor = markdown[match.start(1):match.end(1)], match.group(2) or ""
        out.append(markdown[last:match.start()])
        out.append(f"]({_relative(target, folder)}{anchor})")
        last = match.end()
    out.append(markdown[last:])
    return "".join(out)


SITE_ROOT = "guide-root:"
"""Where a raw-HTML link of a generated page starts (an SVG map's nodes, a download link): builders
disagree on what a relative address in raw HTML is relative to (MkDocs leaves it as written, for
the page's directory URL; Zensical reads it as relative to the source file), so the page says
"from the site root" and finish writes the way there from the page's own address."""


def site_href(path: str) -> str:
    """A raw-HTML link target to `path` below the site root (`pdf/x.pdf`, `concepts/x/`)."""
    return SITE_ROOT + path


def root_hrefs(page_html: str, url: Url) -> str:
    """Replace each `href="guide-root:…"` in the HTML of the page at `url` by a relative address."""
    return page_html.replace(f'href="{SITE_ROOT}', f'href="{"../" * url.count("/")}')
