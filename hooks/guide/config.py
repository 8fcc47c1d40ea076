"""The guide's configuration, `guide.yml`: the kinds' sections and the words pages show.

The engine knows four kinds of content file and what their front matter holds. What their bodies
hold (the `##` sections, their order, which are required, which are run as code, which feeds the
cheat sheet) and the words readers and authors see (the headings a page adds, the deck's names,
the scaffolds) are the guide's own, read from here. `load` reads the file once; the result travels
on `Loaded` and then on `Corpus`, so every stage reads the same configuration.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import Problem, suggest

FILE = "guide.yml"
"""Where the engine looks for the configuration: next to `content/`, at the project root."""

KINDS = ("concept", "question", "report", "coding")
"""The kinds of content the engine knows (their front matter is the engine's)."""

RUN_ROLES = ("solution", "checks", "bugs")
"""How a coding task's section is run: the solution, the checks run after it, the planted bugs."""

DECK_SIDES = ("front", "back")

_KEY = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class Section:
    """One `##` section of a kind's files."""

    name: str
    """The heading authors write and readers see."""
    line: int
    """Where guide.yml declares it."""
    required: bool = True
    key: str = ""
    """How templates and the deck pick the section, whatever its name (empty: they do not)."""
    run: str = ""
    """One of RUN_ROLES for a coding task section whose code is run, else empty."""
    cheat_sheet: tuple[int, int] | None = None
    """(fewest, most) top-level bullets, when the section feeds the topic's cheat sheet."""
    one_line: bool = False
    """The kind's one-line answer."""
    deck: str = ""
    """'front' or 'back': the side of a coding task's Anki card that shows the section."""
    scaffold: str = ""
    """What `make new-…` writes under the heading."""


@dataclass(frozen=True)
class Kind:
    """A kind of content file: its sections in order and the words its pages show."""

    name: str
    sections: tuple[Section, ...] = ()
    headings: dict[str, str] = field(default_factory=dict)
    """The headings its page adds after the file's own text, by the key templates use."""
    scaffold: str = ""
    """The scaffold's front matter, with {topics}, {companies}, {difficulties}, {coding_kinds}."""
    scaffold_body: str = ""
    """The scaffold's body for a kind without sections."""

    def ran(self, role: str) -> Section | None:
        """The section whose code is run as `role` (solution, checks, bugs)."""
        return next((s for s in self.sections if s.run == role), None)

    @property
    def cheat_sheet(self) -> Section | None:
        return next((s for s in self.sections if s.cheat_sheet), None)

    @property
    def one_line(self) -> Section | None:
        return next((s for s in self.sections if s.one_line), None)

    @property
    def names(self) -> dict[str, str]:
        """Each keyed section's name, by key: how a template writes a section's heading."""
        return {s.key: s.name for s in self.sections if s.key}


@dataclass(frozen=True)
class Deck:
    """The words of the Anki deck."""

    name: str
    description: str
    question_link: str
    """The back's link to a question's page."""
    coding_link: str
    """The back's link to a coding task's page."""
    note_type: str
    card: str
    front: str
    back: str


@dataclass(frozen=True)
class Guide:
    path: str
    """guide.yml as problems name it."""
    language: str
    taxonomy: str
    """The taxonomy file, relative to the folder of guide.yml."""
    kinds: dict[str, Kind]
    deck: Deck

    @property
    def concept(self) -> Kind:
        return self.kinds["concept"]

    @property
    def coding(self) -> Kind:
        return self.kinds["coding"]


def load_guide(path: Path, display: str) -> Guide | list[Problem]:
    """Read and check guide.yml; return the configuration, or every problem in it (file:line)."""
    from .load import parse_yaml, read_text  # load reads the configuration first: import here

    if not path.is_file():
        return [Problem(display, 1, "", "missing: the guide's configuration declares each kind's sections and the words pages "
                                        "show (README: The guide's shape)")]
    text = read_text(path.read_bytes(), display)
    if isinstance(text, Problem):
        return [text]
    parsed = parse_yaml(text, display, first_line=1, what="the guide's configuration")
    if isinstance(parsed, Problem):
        return [parsed]
    data, lines, _ = parsed
    reader = _Reader(display, lines, [])
    if not isinstance(data, dict):
        return [Problem(display, 1, "", "the guide's configuration must be a YAML mapping with language, kinds and deck")]
    guide = reader.guide(data)
    return reader.problems or guide


@dataclass
class _Reader:
    """Reads guide.yml's values, recording a problem, at its line, for each mistake."""

    path: str
    lines: dict[tuple[Any, ...], int]
    problems: list[Problem]

    def fail(self, at: tuple[Any, ...], message: str) -> None:
        line = next((self.lines[at[:end]] for end in range(len(at), 0, -1) if at[:end] in self.lines), 1)
        self.problems.append(Problem(self.path, line, ".".join(str(p) for p in at if isinstance(p, str)), message))

    def mapping(self, value: Any, at: tuple[Any, ...], allowed: tuple[str, ...], required: tuple[str, ...] = ()) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.fail(at, f"expected a mapping (key: value) with {', '.join(allowed)}")
            return {}
        for key in value:
            if key not in allowed:
                self.fail((*at, key), f"unknown key{suggest(str(key), allowed)}; allowed: {', '.join(allowed)}")
        for key in required:
            if value.get(key) is None:
                self.fail(at, f"'{key}' is missing")
        return value

    def text(self, value: Any, at: tuple[Any, ...], required: bool = True) -> str:
        if value is None and not required:
            return ""
        if not isinstance(value, str) or not value.strip():
            if value is not None:
                self.fail(at, f"expected text, got {value!r}")
            return ""
        return value

    def flag(self, value: Any, at: tuple[Any, ...], default: bool) -> bool:
        if value is None:
            return default
        if not isinstance(value, bool):
            self.fail(at, f"expected true or false, got {value!r}")
            return default
        return value

    def choice(self, value: Any, at: tuple[Any, ...], allowed: tuple[str, ...], where: str, kind: str) -> str:
        if value is None:
            return ""
        if kind != where:
            self.fail(at, f"only the {where} kind's sections may set this")
            return ""
        if value not in allowed:
            self.fail(at, f"expected one of {', '.join(allowed)}, got {value!r}")
            return ""
        return value

    def guide(self, data: dict[str, Any]) -> Guide:
        self.mapping(data, (), ("language", "taxonomy", "kinds", "deck"), ("language", "kinds", "deck"))
        language = self.text(data.get("language"), ("language",))
        taxonomy = self.text(data.get("taxonomy"), ("taxonomy",), required=False) or "content/taxonomy.yml"
        kinds_data = data.get("kinds")
        kinds: dict[str, Kind] = {}
        if kinds_data is not None:
            self.mapping(kinds_data, ("kinds",), KINDS)
            if isinstance(kinds_data, dict):
                for name in KINDS:
                    if name not in kinds_data:
                        self.fail(("kinds",), f"kind '{name}' is missing; the kinds are {', '.join(KINDS)}")
                    else:
                        kinds[name] = self.kind(name, kinds_data[name] or {}, ("kinds", name))
        deck_data = self.mapping(data.get("deck") or {}, ("deck",), tuple(Deck.__dataclass_fields__),
                                 tuple(Deck.__dataclass_fields__)) if "deck" in data else {}
        deck = Deck(**{name: self.text(deck_data.get(name), ("deck", name)) for name in Deck.__dataclass_fields__})
        return Guide(self.path, language, taxonomy, kinds, deck)

    def kind(self, name: str, data: Any, at: tuple[Any, ...]) -> Kind:
        data = self.mapping(data, at, ("sections", "headings", "scaffold", "scaffold_body"), ("scaffold",))
        sections: list[Section] = []
        raw = data.get("sections") or []
        if not isinstance(raw, list):
            self.fail((*at, "sections"), "expected a list of sections, each with a name")
            raw = []
        for index, item in enumerate(raw):
            section = self.section(name, item, (*at, "sections", index))
            if section is not None:
                sections.append(section)
        self.unique(sections, at, "name", "a section name")
        self.unique([s for s in sections if s.key], at, "key", "a key")
        roles = [s.run for s in sections if s.run]
        for role in set(roles):
            if roles.count(role) > 1:
                self.fail((*at, "sections"), f"more than one section is run as {role}")
        misread = any(isinstance(item, dict) and item.get("run") is not None and item.get("run") not in RUN_ROLES for item in raw)
        if name == "coding" and not misread and not {"solution", "checks"} <= set(roles):
            self.fail((*at, "sections"), "a coding task needs a section run as solution and one run as checks")
        for attribute, what in (("cheat_sheet", "feeds the cheat sheet"), ("one_line", "is the one-line answer")):
            marked = [s for s in sections if getattr(s, attribute)]
            if len(marked) > 1:
                self.fail((*at, "sections", sections.index(marked[1])), f"only one section {what}; '{marked[0].name}' does already")
        headings = data.get("headings") or {}
        if not isinstance(headings, dict) or not all(isinstance(v, str) and v.strip() for v in headings.values()):
            self.fail((*at, "headings"), "expected a mapping of keys to headings (key: heading text)")
            headings = {}
        scaffold = self.text(data.get("scaffold"), (*at, "scaffold"))
        body = self.text(data.get("scaffold_body"), (*at, "scaffold_body"), required=False)
        if sections and body:
            self.fail((*at, "scaffold_body"), "a kind with sections scaffolds its body from them; remove scaffold_body")
        return Kind(name, tuple(sections), {str(k): v for k, v in headings.items()}, scaffold, body)

    def section(self, kind: str, item: Any, at: tuple[Any, ...]) -> Section | None:
        if isinstance(item, str):
            item = {"name": item}
        data = self.mapping(item, at, ("name", "required", "key", "run", "cheat_sheet", "one_line", "deck", "scaffold"), ("name",))
        name = self.text(data.get("name"), (*at, "name"))
        if not name:
            return None
        if name != name.strip() or "\n" in name:
            self.fail((*at, "name"), f"a section name is one line without surrounding spaces, got {name!r}")
        key = self.text(data.get("key"), (*at, "key"), required=False)
        if key and not _KEY.match(key):
            self.fail((*at, "key"), f"a key is lower-case a-z, 0-9 and '_', starting with a letter; got {key!r}")
        cheat = data.get("cheat_sheet")
        bullets: tuple[int, int] | None = None
        if cheat is not None:
            if kind != "concept":
                self.fail((*at, "cheat_sheet"), "only the concept kind's sections feed the cheat sheet")
            else:
                limits = self.mapping(cheat, (*at, "cheat_sheet"), ("min_bullets", "max_bullets"), ("min_bullets", "max_bullets"))
                low, high = limits.get("min_bullets"), limits.get("max_bullets")
                if all(isinstance(n, int) and not isinstance(n, bool) for n in (low, high)) and 0 <= low <= high:
                    bullets = (low, high)
                elif limits:
                    self.fail((*at, "cheat_sheet"), f"expected whole numbers with 0 <= min_bullets <= max_bullets, got {low!r} and {high!r}")
        return Section(
            name=name,
            line=next((self.lines[p] for p in ((*at, "name"), at) if p in self.lines), 1),
            required=self.flag(data.get("required"), (*at, "required"), True),
            key=key,
            run=self.choice(data.get("run"), (*at, "run"), RUN_ROLES, "coding", kind),
            cheat_sheet=bullets,
            one_line=self.flag(data.get("one_line"), (*at, "one_line"), False),
            deck=self.choice(data.get("deck"), (*at, "deck"), DECK_SIDES, "coding", kind),
            scaffold=self.text(data.get("scaffold"), (*at, "scaffold"), required=False),
        )

    def unique(self, sections: list[Section], at: tuple[Any, ...], attribute: str, what: str) -> None:
        first: dict[str, Section] = {}
        for section in sections:
            value = getattr(section, attribute)
            if value in first:
                self.problems.append(Problem(self.path, section.line, ".".join(str(p) for p in (*at, "sections") if isinstance(p, str)),
                                             f"{what} '{value}' is used twice (first on line {first[value].line})"))
            first.setdefault(value, section)


def scaffold(kind: Kind, vocabulary: dict[str, str]) -> str:
    """The file `make new-<kind>` writes: the front matter, then each section with its placeholder
    (or the kind's body). `vocabulary` fills {topics}, {companies}, {difficulties}, {coding_kinds}."""
    if kind.sections:
        body = "\n".join(f"## {s.name}\n\n" + (s.scaffold.rstrip("\n") + "\n" if s.scaffold else "") for s in kind.sections)
    else:
        body = kind.scaffold_body
    text = "---\n" + kind.scaffold.rstrip("\n") + "\n---\n\n" + body
    for name, value in vocabulary.items():
        text = text.replace("{" + name + "}", value)
    return text
