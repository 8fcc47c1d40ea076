"""Export the question bank as an Anki deck (.apkg), one note per question.

Front: the question.  Back: the one-line answer, the full answer rendered to
HTML (math left as `\\(…\\)` / `\\[…\\]` for Anki's built-in MathJax, links made
absolute to the published site) and a link to the question's page.

Identity is what makes a deck re-importable.  Anki matches an imported note
to one already in the collection by its `guid`, and replaces the existing
note's fields only when the imported note's `mod` time is newer than its own
(rslib `import_export/package/apkg/import/notes.rs`, `maybe_update_note`).  So:

- the model id, the deck id and every note's `guid` are fixed, derived from
  constants and the question id, never from the build;
- the note and card ids are derived from the question id too (genanki numbers
  them from a timestamp counter, so the same question would get a different id
  in every build and a different one whenever a question is added before it);
- `mod` is the build time by default, so a deck built after an edit is newer
  than the copy a reader imported before and its notes are updated in place,
  keeping the reader's review history.  A fixed `mod` would make every later
  import count as "not newer" and silently skip the edits.
"""
from __future__ import annotations

import hashlib
import html
import posixpath
import re
import time
from pathlib import Path
from xml.etree.ElementTree import Element

import genanki
import markdown
import nh3
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

from .config import Deck
from .model import CodingTask, EntityId, Question, SrcUri
from .text import section
from .pipeline import Built
from .urls import entity_src, url_of

MODEL_ID = 1074305996
"""Fixed forever: Anki matches note types by id (then by field and template names, guide.yml's deck)."""
DECK_ID = 1822077853
GUID_NAMESPACE = "llm-rl-interview-guide/question"
"""Part of every guid; changing it makes every note new to readers who imported before."""

_ID_BASE = 1_500_000_000_000
_ID_SPAN = 100_000_000_000
"""Note and card ids look like Anki's own (creation time in ms): 2017-07 to 2020-09, never in the future."""

DECK_PATH = "downloads/rl-interview-guide.apkg"
"""Where the build writes the deck, relative to the site root (linked from /practice/)."""

CSS = """\
.card { font-family: -apple-system, "PingFang SC", "Noto Sans CJK SC", "Microsoft YaHei", sans-serif;
  font-size: 18px; line-height: 1.6; text-align: left; color: #222; background: #fff;
  max-width: 46em; margin: 0 auto; }
.nightMode .card, .card.nightMode { color: #ddd; background: #222; }
.question { font-size: 1.15em; font-weight: 600; }
.brief { padding: .5em .75em; border-left: 4px solid #3f51b5; background: rgba(63, 81, 181, .08); }
.answer { margin-top: 1em; }
.answer table { border-collapse: collapse; }
.answer th, .answer td { border: 1px solid #999; padding: .2em .5em; }
.answer pre { overflow-x: auto; padding: .5em; background: rgba(127, 127, 127, .12); font-size: .85em; }
.answer code { font-family: "SFMono-Regular", Menlo, Consolas, monospace; }
.admonition { margin: 1em 0; padding: .25em .75em; border-left: 4px solid #448aff; background: rgba(68, 138, 255, .08); }
.admonition-title { font-weight: 600; margin: .25em 0; }
.source { margin-top: 1.5em; font-size: .85em; }
"""

def note_type(words: Deck) -> genanki.Model:
    """The deck's one note type: a front field and a back field, named as guide.yml says."""
    return genanki.Model(
        MODEL_ID,
        words.note_type,
        fields=[{"name": words.front}, {"name": words.back}],
        templates=[
            {
                "name": words.card,
                "qfmt": f'<div class="question">{{{{{words.front}}}}}</div>',
                "afmt": f'{{{{FrontSide}}}}<hr id="answer">{{{{{words.back}}}}}',
            }
        ],
        css=CSS,
    )

MARKDOWN_EXTENSIONS = ["tables", "admonition", "attr_list", "pymdownx.superfences", "pymdownx.highlight", "pymdownx.arithmatex"]
MARKDOWN_CONFIG = {
    "pymdownx.arithmatex": {"generic": True},
    # Plain <pre><code class="language-x">: Anki has no Pygments stylesheet, so token spans would only add weight.
    "pymdownx.highlight": {"use_pygments": False},
}

_MD_TARGET = re.compile(r"^(?P<path>[^#?:]+\.md)(?P<fragment>#.*)?$")
"""A link to a page of the guide: `/concepts/x.md#a` (what `[[links]]` become) or relative `x.md`."""


def _stable_id(*parts: str) -> int:
    digest = hashlib.sha256("\x1f".join((GUID_NAMESPACE, *parts)).encode("utf-8")).digest()
    return _ID_BASE + int.from_bytes(digest[:8], "big") % _ID_SPAN


def note_id(question_id: str) -> int:
    return _stable_id("note", question_id)


def card_id(question_id: str, ord_: int) -> int:
    return _stable_id("card", question_id, str(ord_))


def note_guid(question_id: str) -> str:
    return genanki.guid_for(GUID_NAMESPACE, question_id)


class QuestionNote(genanki.Note):
    """A note whose id and card ids come from the question id, not from genanki's timestamp counter.

    Re-importing an updated deck must update the reader's notes, never duplicate them: the guid
    (from the question id) is what Anki matches on, and fixed note/card ids keep two builds of the
    same content identical, whatever was added or removed around a question.
    """

    def __init__(self, question_id: str, **kwargs: object) -> None:
        super().__init__(guid=note_guid(question_id), **kwargs)
        self.question_id = question_id

    @property
    def note_id(self) -> int:
        return note_id(self.question_id)

    def card_ids(self) -> list[int]:
        return [card_id(self.question_id, card.ord) for card in self.cards]

    def write_to_db(self, cursor, timestamp: float, deck_id, id_gen) -> None:
        # genanki takes the note id, then one id per card, from `id_gen`; hand it ours instead.
        super().write_to_db(cursor, timestamp, deck_id, iter([self.note_id, *self.card_ids()]))


class _SiteLinks(Treeprocessor):
    """Point `/X.md#a` links at the published page, `site_url + url_of(X.md) + #a`."""

    def __init__(self, md: markdown.Markdown, site_url: str) -> None:
        super().__init__(md)
        self.site_url = site_url
        self.page: SrcUri = SrcUri("index.md")

    def run(self, root: Element) -> None:
        for element in root.iter("a"):
            href = element.get("href", "")
            match = _MD_TARGET.match(href)
            if match is None:
                continue
            path = match["path"]
            src = path[1:] if path.startswith("/") else posixpath.normpath(posixpath.join(posixpath.dirname(self.page), path))
            element.set("href", self.site_url + url_of(SrcUri(src)) + (match["fragment"] or ""))


class _SiteLinksExtension(Extension):
    def __init__(self, site_url: str) -> None:
        super().__init__()
        self.site_url = site_url
        self.processor: _SiteLinks | None = None

    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        self.processor = _SiteLinks(md, self.site_url)
        md.treeprocessors.register(self.processor, "guide_site_links", 1)


class _Renderer:
    def __init__(self, site_url: str) -> None:
        self.links = _SiteLinksExtension(site_url)
        self.md = markdown.Markdown(extensions=[*MARKDOWN_EXTENSIONS, self.links], extension_configs=MARKDOWN_CONFIG)

    def __call__(self, text: str, page: SrcUri) -> str:
        assert self.links.processor is not None
        self.links.processor.page = page
        self.md.reset()
        return sanitise(self.md.convert(text))


DECK_TAGS = frozenset(nh3.ALLOWED_TAGS - {"img", "area", "map"})
"""What an answer's HTML may hold in a card: text markup, lists, tables, code, links. Anki runs
a card's scripts (desktop and AnkiDroid alike), so its HTML goes through a maintained sanitiser."""


def sanitise(fragment: str) -> str:
    """The answer's HTML with nothing that could run or load: ammonia (nh3) keeps the text markup,
    classes (for code highlighting) and http(s) links, and drops everything else."""
    return nh3.clean(fragment, tags=set(DECK_TAGS), attributes={"*": {"class", "title"}, "a": {"href"}, "td": {"align"}, "th": {"align"}},
                     url_schemes={"http", "https", "mailto"}, link_rel=None, strip_comments=True)


def _tags(built: Built, question: Question) -> list[str]:
    corpus = built.corpus
    tags: list[str] = []
    first = corpus.concepts.get(question.concepts[0]) if question.concepts else None
    if first is not None:
        tags.append(f"topic::{first.topic}")
    tags.append(f"difficulty::{question.difficulty}")
    companies = {corpus.reports[r].company for r in built.links.asked_in.get(question.id, ())}
    tags.extend(f"company::{c}" for c in sorted(c for c in companies if c))
    return [re.sub(r"\s+", "-", t) for t in tags]


def _back(render: _Renderer, built: Built, question: Question, site_url: str) -> str:
    src = entity_src(question)
    body = render(built.links.bodies.get(question.id, question.body), src)
    page = html.escape(site_url + url_of(src))
    return (
        f'<div class="brief">{html.escape(question.brief)}</div>\n'
        f'<div class="answer">\n{body}\n</div>\n'
        f'<p class="source"><a href="{page}">{html.escape(built.corpus.guide.deck.question_link)}</a></p>'
    )


def _coding_fields(render: _Renderer, built: Built, task: CodingTask, site_url: str) -> tuple[str, str]:
    """Front: the task as posed, with its signature; back: its summary and the sections guide.yml
    puts on the back (the reference solution and its complexity, in this guide)."""
    src = entity_src(task)
    body = built.links.bodies.get(task.id, task.body)
    guide = built.corpus.guide

    def shown(side: str) -> str:
        return "\n".join(render(section(body, s.name), src) for s in guide.coding.sections if s.deck == side)

    front = (f"手撕：{html.escape(task.title.removeprefix('手撕').strip())}"
             f'<div class="answer">{shown("front")}</div>'
             f"<p><code>{html.escape(task.signature)}</code></p>")
    page = html.escape(site_url + url_of(src))
    back = (f'<div class="brief">{html.escape(task.summary)}</div>\n'
            f'<div class="answer">\n{shown("back")}\n</div>\n'
            f'<p class="source"><a href="{page}">{html.escape(guide.deck.coding_link)}</a></p>')
    return front, back


def build_deck(built: Built, site_url: str) -> genanki.Deck:
    if not site_url.endswith("/"):
        site_url += "/"
    render = _Renderer(site_url)
    words = built.corpus.guide.deck
    model = note_type(words)
    deck = genanki.Deck(DECK_ID, words.name, description=words.description)
    seen_notes: dict[int, EntityId] = {}
    seen_cards: dict[int, EntityId] = {}
    for question in sorted(built.corpus.questions.values(), key=lambda q: q.id):
        note = QuestionNote(
            question.id,
            model=model,
            fields=[html.escape(question.text), _back(render, built, question, site_url)],
            tags=_tags(built, question),
        )
        # Ids are hashes: a clash is astronomically unlikely, but it would merge two questions, so refuse it.
        for seen, new_id in ((seen_notes, note.note_id), *((seen_cards, c) for c in note.card_ids())):
            if new_id in seen:
                raise ValueError(f"anki id clash between questions '{seen[new_id]}' and '{question.id}'; change GUID_NAMESPACE")
            seen[new_id] = question.id
        deck.add_note(note)
    for task in sorted(built.corpus.coding.values(), key=lambda t: t.id):
        front, back = _coding_fields(render, built, task, site_url)
        topic = built.corpus.concepts[task.concepts[0]].topic if task.concepts else None
        tags = ["kind::coding", f"difficulty::{task.difficulty}", *([f"topic::{topic}"] if topic else [])]
        note = QuestionNote(task.id, model=model, fields=[front, back], tags=tags)
        for seen, new_id in ((seen_notes, note.note_id), *((seen_cards, c) for c in note.card_ids())):
            if new_id in seen:
                raise ValueError(f"anki id clash between '{seen[new_id]}' and '{task.id}'; change GUID_NAMESPACE")
            seen[new_id] = task.id
        deck.add_note(note)
    return deck


def write_deck(built: Built, site_url: str, path: Path, *, timestamp: float | None = None) -> int:
    """Write the question bank as an .apkg at `path`; return the number of notes.

    `timestamp` (seconds) becomes every note's modification time; it defaults to now, so a deck
    rebuilt after an edit updates the notes a reader imported before.  Ids and guids never depend on it.
    """
    deck = build_deck(built, site_url)
    path.parent.mkdir(parents=True, exist_ok=True)
    genanki.Package(deck).write_to_file(str(path), timestamp=time.time() if timestamp is None else timestamp)
    return len(deck.notes)
