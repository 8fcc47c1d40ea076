"""Stage 2: turn documents into a typed, consistent corpus, or say what is wrong.

Every check runs on every file and adds to one list of problems; nothing
stops at the first mistake.  Checks come in three passes: the shape of each
file (fields, types, allowed values), then references between files (ids
exist, no cycles), then the Markdown bodies (sections, unsafe HTML).
"""
from __future__ import annotations

import datetime
import re
from html.parser import HTMLParser
from dataclasses import dataclass
from typing import Any, Iterable

from .config import Kind, Section
from .errors import Problem, suggest
from .load import Document, Loaded
from .model import (
    REPORT_KINDS,
    Bug,
    Code,
    CodingKind,
    CodingTask,
    Company,
    Concept,
    Corpus,
    Difficulty,
    EntityId,
    Location,
    Question,
    Reference,
    Report,
    Round,
    Taxonomy,
    Topic,
)
from .safe import url_scheme
from .text import guard_math, headings, line_at, mask, mask_fences
from .urls import is_valid_id

SAFE_TAGS = frozenset({"br", "sub", "sup", "kbd", "mark", "small", "abbr", "u", "s", "span"})
SAFE_ATTRIBUTES = frozenset({"title", "class"})
_SAFE_TAG = re.compile(r"</?(?:" + "|".join(sorted(SAFE_TAGS)) + r")(?:\s+(?:" + "|".join(sorted(SAFE_ATTRIBUTES))
                       + r")\s*=\s*(?:\"[^\"<>]*\"|'[^'<>]*'))*\s*/?>", re.I)
"""The only raw HTML a body may hold, written strictly: anything else that starts like a tag is refused."""
_TAG_START = re.compile(r"<(?=[A-Za-z/!?])")
_TAG_NAME = re.compile(r"</?([A-Za-z][A-Za-z0-9-]*)")
_AUTOLINK = re.compile(r"<([A-Za-z][A-Za-z0-9+.-]*:[^\s<>]*)>")
_LINK_TARGETS = re.compile(r"\]\(\s*<?([^)\s>]*)|^[ ]{0,3}\[[^\]\n]+\]:[ \t]*<?([^\s>]+)", re.M)
"""Inline link and image targets `](…)`, and reference definitions `[id]: …`."""
_ATTR_LIST = re.compile(r"\{:?[ \t]*([^{}\n]*)\}")
_ATTR_LIST_KEYS = frozenset({"title", "lang", "width", "height"})
"""What an attribute list `{: …}` may set besides `#id` and `.class`."""
LINK_SCHEMES = ("http", "https", "mailto")


def validate(loaded: Loaded) -> tuple[Corpus, list[Problem]]:
    """Check the loaded documents; return the usable corpus and every problem found."""
    problems = list(loaded.problems)
    guide = loaded.guide
    if guide is None:  # guide.yml's own problems are the ones to fix: it says what the files hold
        return Corpus(Taxonomy((), (), ())), problems
    taxonomy_docs = [d for d in loaded.documents if d.kind == "taxonomy"]
    synonyms = next((read_synonyms(d, problems) for d in loaded.documents if d.kind == "synonyms"), ())
    # Without a readable taxonomy every topic would be "unknown": check those only when it loaded.
    taxonomy = read_taxonomy(taxonomy_docs[0], problems) if taxonomy_docs else None

    concepts: dict[EntityId, Concept] = {}
    questions: dict[EntityId, Question] = {}
    reports: dict[EntityId, Report] = {}
    coding: dict[EntityId, CodingTask] = {}
    owners: dict[str, Document] = {}
    for doc in loaded.documents:
        if doc.kind in ("taxonomy", "synonyms") or not _check_id(doc, owners, problems):
            continue
        if doc.kind == "concepts":
            concepts[EntityId(doc.stem)] = read_concept(doc, taxonomy, problems)
        elif doc.kind == "questions":
            questions[EntityId(doc.stem)] = read_question(doc, taxonomy, problems)
        elif doc.kind == "coding":
            coding[EntityId(doc.stem)] = read_coding(doc, taxonomy, problems, guide.coding)
        else:
            reports[EntityId(doc.stem)] = read_report(doc, taxonomy, problems)

    corpus = Corpus(taxonomy or Taxonomy((), (), ()), concepts, questions, reports, coding, synonyms, guide)
    docs = {d.stem: d for d in loaded.documents if d.kind not in ("taxonomy", "synonyms")}
    check_references(corpus, docs, problems, loaded.unreadable, taxonomy_docs[0] if taxonomy_docs else None)
    check_cycles(corpus, docs, problems)
    for kind, entities in (("concept", concepts), ("question", questions), ("report", reports), ("coding", coding)):
        for entity in entities.values():
            check_body(entity, problems, guide.kinds[kind])
    return corpus, problems


# --- fields -----------------------------------------------------------------


@dataclass
class Fields:
    """Reads typed fields from one document, recording a problem for each mistake."""

    doc: Document
    problems: list[Problem]
    prefix: tuple[Any, ...] = ()
    data: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        if self.data is None:
            self.data = self.doc.data

    def fail(self, name: str, message: str, *index: Any) -> None:
        path = self.prefix + (name, *index)
        label = ".".join(str(p) for p in path if isinstance(p, str)) or name
        self.problems.append(Problem(self.doc.path, self.doc.line(*path), label, message))

    def check_keys(self, allowed: Iterable[str], hints: dict[str, str] | None = None) -> None:
        allowed = list(allowed)
        for key in self.data:
            if key in allowed:
                continue
            hint = (hints or {}).get(str(key)) or suggest(str(key), allowed).strip()
            self.fail(str(key), f"unknown field{(' ' + hint) if hint else ''}; allowed: {', '.join(allowed)}")

    def raw(self, name: str, required: bool) -> Any:
        value = self.data.get(name)
        if is_placeholder(value):
            self.fail(name, placeholder_message(value))
            return None
        if isinstance(value, list) and any(is_placeholder(item) for item in value):
            for index, item in enumerate(value):
                if is_placeholder(item):
                    self.fail(name, placeholder_message(item), index)
            value = [item for item in value if not is_placeholder(item)]
            if not value:
                return None  # reported as a placeholder, not as missing
        if value is None or value == "" or value == []:
            if required:
                if name in self.data:
                    self.fail(name, "is empty; a value is required")
                else:
                    self.problems.append(
                        Problem(self.doc.path, self.doc.line(*self.prefix) if self.prefix else self.doc.start_line,
                                ".".join([*[p for p in self.prefix if isinstance(p, str)], name]), "required field is missing")
                    )
            return None
        return value

    def text(self, name: str, required: bool = True) -> str:
        value = self.raw(name, required)
        if value is None:
            return ""
        if isinstance(value, (int, float)) and not isinstance(value, bool) and name in {"date", "team", "role"}:
            return self.written(name) or str(value)  # 2025, a team called 2
        if not isinstance(value, str):
            written = self.written(name)
            self.fail(name, f"expected text, got {describe(value, written)}{_quote_it(name, value, written)}")
            return ""
        return guard_math(value.strip())  # one-line fields land in folded answers too (see guard_math)

    def texts(self, name: str, required: bool = False) -> tuple[str, ...]:
        value = self.raw(name, required)
        if value is None:
            return ()
        if isinstance(value, str):
            self.fail(name, f"expected a list, got text; write it as [{value}]")
            return ()
        if not isinstance(value, list):
            written = self.written(name)
            hint = f"; write it as a list: {name}: [\"{written}\"]" if isinstance(value, (bool, int, float)) and written else ""
            self.fail(name, f"expected a list of text, got {describe(value, written)}{hint}")
            return ()
        out = []
        for index, item in enumerate(value):
            if isinstance(item, str) and item.strip():
                out.append(guard_math(item.strip()))
            elif isinstance(item, (int, float)) and not isinstance(item, bool):
                out.append(str(item))
            else:
                written = self.written(name, index)
                hint = f"; to keep it as text, quote it: \"{written}\"" if isinstance(item, bool) and written else ""
                self.fail(name, f"item {index + 1}: expected text, got {describe(item, written)}{hint}", index)
        return tuple(out)

    def ids(self, name: str, required: bool = False) -> tuple[EntityId, ...]:
        values = self.texts(name, required)
        seen: set[str] = set()
        for index, value in enumerate(values):
            if value in seen:
                self.fail(name, f"'{value}' is listed twice", index)
            seen.add(value)
        return tuple(EntityId(v) for v in values)

    def choice(self, name: str, allowed: Iterable[str] | None, what: str, required: bool = True, add: str = "") -> str:
        """A value from a vocabulary; `allowed=None` when the vocabulary itself failed to load.
        `add` tells the author where a new value would be declared."""
        value = self.text(name, required)
        if allowed is None:
            return value
        allowed = list(allowed)
        if value and value not in allowed:
            self.fail(name, f"unknown {what} '{value}'{suggest(value, allowed)}; known: {', '.join(allowed)}{add}")
        return value

    def year(self, name: str) -> int | None:
        value = self.raw(name, False)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not 1900 <= value <= 2100:
            self.fail(name, f"expected a year such as 2017, got {describe(value, self.written(name))}")
            return None
        return value

    def records(self, name: str, required: bool = False) -> list[Fields]:
        """A list of mappings, each read with its own `Fields`."""
        value = self.raw(name, required)
        if value is None:
            return []
        if not isinstance(value, list):
            self.fail(name, f"expected a list of entries, got {describe(value, self.written(name))}")
            return []
        out = []
        for index, item in enumerate(value):
            if not isinstance(item, dict):
                self.fail(name, f"item {index + 1}: expected an entry with fields (key: value), got {describe(item)}", index)
                continue
            out.append(Fields(self.doc, self.problems, self.prefix + (name, index), item))
        return out

    def written(self, *path: Any) -> str | None:
        """The value at `path` (under this record) exactly as the author wrote it, when unquoted."""
        return self.doc.written.get(self.prefix + path)

    def location(self) -> Location:
        return Location(self.doc.path, self.doc.line(*self.prefix))


PLACEHOLDER = re.compile(r"<<待填写[：:]?\s*(.*?)\s*>>")
"""What the scaffolds (`make new-…`) write where the author must write: never valid content."""


def is_placeholder(value: Any) -> bool:
    return isinstance(value, str) and PLACEHOLDER.search(value) is not None


def placeholder_message(value: str) -> str:
    hint = PLACEHOLDER.search(value).group(1)
    return f"still the scaffold's placeholder{f' ({hint})' if hint else ''}; write the real value"


def describe(value: Any, written: str | None = None) -> str:
    """A value as the author would recognise it, with what YAML made of it."""
    if isinstance(value, bool):
        return f"{written or str(value).lower()}, which YAML reads as {str(value).lower()} (yes/no, on/off, true/false)"
    if isinstance(value, (int, float)):
        return f"a number ({written or value})"
    if isinstance(value, str):
        return f"text ('{value}')"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    if value is None:
        return "nothing (an empty or null value)"
    return type(value).__name__


def _quote_it(name: str, value: Any, written: str | None) -> str:
    """How to keep a value YAML typed as text."""
    if isinstance(value, (bool, int, float)) and written:
        return f"; to keep it as text, quote it: {name}: \"{written}\""
    return ""


def _check_id(doc: Document, owners: dict[str, Document], problems: list[Problem]) -> bool:
    """Ids are file names: kebab-case, unique across kinds and letter case."""
    if not is_valid_id(doc.stem):
        problems.append(Problem(doc.path, 1, "", f"file name '{doc.stem}' is not a valid id: use lower-case a-z, 0-9 and '-' (it becomes the page URL)"))
        return False
    if "id" in doc.data:
        problems.append(Problem(doc.path, doc.line("id"), "id", f"remove this field: the id is the file name ('{doc.stem}')"))
    key = doc.stem.lower()
    if key in owners:
        problems.append(Problem(doc.path, 1, "", f"duplicate id '{doc.stem}': already used by {owners[key].path}"))
        return False
    owners[key] = doc
    return True


# --- taxonomy ---------------------------------------------------------------


def read_taxonomy(doc: Document, problems: list[Problem]) -> Taxonomy:
    root = Fields(doc, problems)
    root.check_keys(["topics", "companies", "difficulties", "coding_kinds"])
    topics, companies, difficulties, coding_kinds = [], [], [], []
    for order, f in enumerate(root.records("topics", required=True)):
        f.check_keys(["id", "title", "en", "summary", "sheet"])
        topics.append(Topic(_taxonomy_id(f), f.text("title"), f.text("en"), f.text("summary", False), order, f.location(),
                            f.ids("sheet")))
    for f in root.records("companies", required=True):
        f.check_keys(["id", "name", "en", "teams"])
        companies.append(Company(_taxonomy_id(f), f.text("name"), f.text("en", False), f.texts("teams"), f.location()))
    for rank, f in enumerate(root.records("difficulties", required=True)):
        f.check_keys(["id", "title"])
        difficulties.append(Difficulty(_taxonomy_id(f), f.text("title"), rank))
    for order, f in enumerate(root.records("coding_kinds")):
        f.check_keys(["id", "title"])
        coding_kinds.append(CodingKind(_taxonomy_id(f), f.text("title"), order))
    for name, items in (("topics", topics), ("companies", companies), ("difficulties", difficulties), ("coding_kinds", coding_kinds)):
        seen: set[str] = set()
        for index, item in enumerate(items):
            if item.id in seen:
                problems.append(Problem(doc.path, doc.line(name, index), f"{name}.id", f"duplicate id '{item.id}'"))
            seen.add(item.id)
    return Taxonomy(tuple(topics), tuple(companies), tuple(difficulties), tuple(coding_kinds))


def read_synonyms(doc: Document, problems: list[Problem]) -> tuple[tuple[str, ...], ...]:
    """content/synonyms.yml: a list of groups, each the words readers use for one thing. A word
    belongs to one group (search could not tell which expansion was meant)."""
    groups: list[tuple[str, ...]] = []
    seen: dict[str, int] = {}
    for index, group in enumerate(doc.data["groups"]):
        line = doc.line(index)
        if not isinstance(group, list) or not all(isinstance(w, str) and w.strip() for w in group):
            problems.append(Problem(doc.path, line, "synonyms", f"each group is a list of words, as [优势函数, advantage]; got {describe(group)}"))
            continue
        words = tuple(dict.fromkeys(" ".join(w.split()) for w in group))
        if len(words) < 2:
            problems.append(Problem(doc.path, line, "synonyms", "a group needs at least two different words"))
            continue
        for word in words:
            key = word.lower()
            if key in seen:
                problems.append(Problem(doc.path, line, "synonyms", f"'{word}' is already in the group on line {seen[key]}; a word belongs to one group"))
            seen.setdefault(key, line)
        groups.append(words)
    return tuple(groups)


def _valid_date(text: str) -> bool:
    match = re.fullmatch(r"(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?", text)
    if not match:
        return False
    year, month, day = (int(g) if g else None for g in match.groups())
    if not 2000 <= year <= 2100 or (month is not None and not 1 <= month <= 12):
        return False
    if day is not None:
        try:
            datetime.date(year, month, day)
        except ValueError:
            return False
    return True


def _taxonomy_id(f: Fields) -> str:
    value = f.text("id")
    if value and not is_valid_id(value):
        f.fail("id", f"'{value}' is not a valid id: use lower-case a-z, 0-9 and '-'")
    return value


# --- entities ---------------------------------------------------------------


def _vocabulary(taxonomy: Taxonomy | None, name: str) -> list[str] | None:
    """The ids a field may name; an id the taxonomy misspells is not offered (its own line says why)."""
    return None if taxonomy is None else [i for i in getattr(taxonomy, name) if is_valid_id(i)]

CONCEPT_KEYS = ("title", "en", "aliases", "topic", "tags", "prerequisites", "related", "difficulty", "summary", "references")
QUESTION_KEYS = ("text", "brief", "aliases", "primary", "related", "difficulty", "follow_ups")
REPORT_KEYS = ("title", "kind", "company", "team", "role", "date", "source", "duplicate_of", "summary", "rounds")
ROUND_KEYS = ("name", "questions", "topics", "coding", "other")
CODING_KEYS = ("title", "en", "kind", "aliases", "concepts", "difficulty", "summary", "signature", "references")
REFERENCE_KEYS = ("title", "year", "arxiv", "url")
_HINTS = {"id": "(the id is the file name)",
          "concepts": "(write the concept the question tests as primary: <id> and the others it draws on as related: [ids])", "asked_in": "(derived from the reports' rounds; list the question there)", "answer": "(the answer is the Markdown body below the front matter)"}


def read_references(f: Fields) -> tuple[Reference, ...]:
    references = []
    for r in f.records("references"):
        r.check_keys(REFERENCE_KEYS)
        ref = Reference(r.text("title"), r.year("year"), r.text("arxiv", False) or None, r.text("url", False) or None)
        if ref.url and not re.match(r"^https?://", ref.url):
            r.fail("url", f"expected an http(s) URL, got '{ref.url}'")
        if ref.arxiv and not re.match(r"^\d{4}\.\d{4,5}(v\d+)?$", ref.arxiv):
            r.fail("arxiv", f"expected an arXiv id such as '1707.06347' (quote it), got '{ref.arxiv}'")
        references.append(ref)
    return tuple(references)


def read_concept(doc: Document, taxonomy: Taxonomy | None, problems: list[Problem]) -> Concept:
    f = Fields(doc, problems)
    f.check_keys(CONCEPT_KEYS, _HINTS)
    references = read_references(f)
    return Concept(
        id=EntityId(doc.stem),
        title=f.text("title"),
        en=f.text("en"),
        topic=f.choice("topic", _vocabulary(taxonomy, "topic"), "topic"),
        difficulty=f.choice("difficulty", _vocabulary(taxonomy, "difficulty"), "difficulty"),
        summary=f.text("summary"),
        body=doc.body,
        loc=Location(doc.path, doc.start_line),
        body_line=doc.body_line,
        aliases=f.texts("aliases"),
        tags=f.texts("tags"),
        prerequisites=f.ids("prerequisites"),
        related=f.ids("related"),
        references=references,
    )


def read_question(doc: Document, taxonomy: Taxonomy | None, problems: list[Problem]) -> Question:
    f = Fields(doc, problems)
    f.check_keys(QUESTION_KEYS, _HINTS)
    if not doc.body.strip():
        problems.append(Problem(doc.path, doc.body_line, "answer", "the answer is missing: write it below the front matter"))
    return Question(
        id=EntityId(doc.stem),
        text=f.text("text"),
        brief=f.text("brief"),
        primary=EntityId(f.text("primary", required="concepts" not in doc.data)),
        related=f.ids("related"),
        aliases=f.texts("aliases"),
        follow_ups=f.ids("follow_ups"),
        difficulty=f.choice("difficulty", _vocabulary(taxonomy, "difficulty"), "difficulty"),
        body=doc.body,
        loc=Location(doc.path, doc.start_line),
        body_line=doc.body_line,
    )


def read_report(doc: Document, taxonomy: Taxonomy | None, problems: list[Problem]) -> Report:
    f = Fields(doc, problems)
    f.check_keys(REPORT_KEYS, _HINTS)
    kind = f.choice("kind", REPORT_KINDS, "kind", required=False) or "interview"
    rounds = []
    for r in f.records("rounds", required=not doc.data.get("duplicate_of")):
        r.check_keys(ROUND_KEYS)
        rounds.append(Round(r.text("name"), r.location(), r.ids("questions"), r.ids("topics"), r.texts("other"), r.ids("coding")))
    company = f.choice("company", _vocabulary(taxonomy, "company"), "company", required=kind == "interview",
                       add="; to add one, add an entry under companies: in content/taxonomy.yml with its id, name (中文), en and teams") or None
    team = f.text("team", False)
    if team and company and taxonomy is not None and company in taxonomy.company:
        teams = list(taxonomy.company[company].teams)
        if team not in teams:
            f.fail("team", f"unknown team '{team}' for {company}{suggest(team, teams)}; known: {', '.join(teams) or 'none yet'}; "
                           f"to add one, list it under teams: of {company} in content/taxonomy.yml")
    date = f.text("date", False)
    if date and not _valid_date(date):
        f.fail("date", f"expected the interview's date as YYYY, YYYY-MM or YYYY-MM-DD (e.g. 2025-03), got '{date}'")
    duplicate_of = f.text("duplicate_of", False) or None
    return Report(
        id=EntityId(doc.stem),
        title=f.text("title"),
        kind=kind,
        summary=f.text("summary"),
        body=doc.body,
        loc=Location(doc.path, doc.start_line),
        body_line=doc.body_line,
        company=company,
        team=team,
        role=f.text("role", False),
        date=date,
        source=f.text("source", False),
        duplicate_of=EntityId(duplicate_of) if duplicate_of else None,
        rounds=tuple(rounds),
    )


_ANY_FENCE = re.compile(r"^([ \t]*)```([\w+-]*)[^\n]*\n(.*?)^\1```[ \t]*$", re.S | re.M)


def read_coding(doc: Document, taxonomy: Taxonomy | None, problems: list[Problem], kind_: Kind) -> CodingTask:
    """A coding task: its fields, and its solution, checks and planted bugs read from the body."""
    f = Fields(doc, problems)
    f.check_keys(CODING_KEYS, _HINTS)
    kinds = None if taxonomy is None else [k.id for k in taxonomy.coding_kinds]
    kind = f.choice("kind", kinds, "coding kind", add="; coding kinds are listed under coding_kinds: in content/taxonomy.yml")
    solution, checks, bugs = read_coding_body(doc.body, doc.path, doc.body_line, problems, kind_)
    return CodingTask(
        id=EntityId(doc.stem),
        title=f.text("title"),
        en=f.text("en"),
        kind=kind,
        difficulty=f.choice("difficulty", _vocabulary(taxonomy, "difficulty"), "difficulty"),
        summary=f.text("summary"),
        signature=f.text("signature"),
        body=doc.body,
        loc=Location(doc.path, doc.start_line),
        body_line=doc.body_line,
        solution=solution,
        checks=checks,
        bugs=bugs,
        aliases=f.texts("aliases"),
        concepts=f.ids("concepts"),
        references=read_references(f),
    )


def read_coding_body(body: str, path: str, first: int, problems: list[Problem], kind: Kind) -> tuple[Code, Code, tuple[Bug, ...]]:
    """Sections in order; code only where it is run (solution, checks) or planted (bugs)."""
    problems.extend(sections_in_order(body, path, first, kind.sections))
    solution_name, checks_name = kind.ran("solution").name, kind.ran("checks").name
    bugs_name = kind.ran("bugs").name if kind.ran("bugs") else None
    ran = [s.name for s in kind.sections if s.run]
    sections = [h for h in headings(body) if h.level == 2]
    lines = body.split("\n")
    blocks: dict[str, list[tuple[int, str, str]]] = {}
    for index, h in enumerate(sections):
        end = sections[index + 1].line if index + 1 < len(sections) else len(lines)
        start_offset = sum(len(x) + 1 for x in lines[: h.line + 1])
        end_offset = sum(len(x) + 1 for x in lines[:end])
        chunk = body[start_offset:end_offset]
        found = []
        for m in _ANY_FENCE.finditer(chunk):
            line = first + h.line + 1 + chunk.count("\n", 0, m.start(3))
            code = "\n".join(x[len(m.group(1)):] if x.startswith(m.group(1)) else x.lstrip() for x in m.group(3).split("\n"))
            found.append((line, m.group(2), code))
        blocks[h.title] = found
    solution = checks = Code(first, "")
    for name in (solution_name, checks_name):
        found = blocks.get(name)
        if found is None:
            continue
        if [lang for _, lang, _ in found] != ["python"]:
            line = found[0][0] - 1 if found else first + next(h.line for h in sections if h.title == name)
            problems.append(Problem(path, line, f"## {name}", f"needs exactly one ```python block, found {len(found)} code block(s)"
                                    + (f" ({', '.join(lang or 'no language' for _, lang, _ in found)})" if found else "")))
            continue
        code = Code(found[0][0], found[0][2])
        if name == solution_name:
            solution = code
        else:
            checks = code
            if not _has_assert(code.code):
                problems.append(Problem(path, code.line - 1, f"## {checks_name}", "the checks must assert what they check (at least one assert)"))
    bugs = []
    bug_field = f"## {bugs_name}"
    for line, lang, code in blocks.get(bugs_name, []) if bugs_name else []:
        if lang != "diff":
            problems.append(Problem(path, line - 1, bug_field, f"holds only ```diff blocks (one planted bug each), found ```{lang or ''}"))
            continue
        removed = tuple(x[1:] for x in code.rstrip("\n").split("\n") if x.startswith("-"))
        added = tuple(x[1:] for x in code.rstrip("\n").split("\n") if x.startswith("+"))
        if not removed:
            problems.append(Problem(path, line, bug_field, "a bug's diff needs '-' lines: the solution lines it replaces"))
            continue
        if PLACEHOLDER.search(code) or PLACEHOLDER.search(solution.code):
            continue  # reported as the scaffold's placeholder
        found_at = _occurrences(solution.code, removed) if solution.code else 1
        if found_at != 1:
            problems.append(Problem(path, line, bug_field,
                                    f"the '-' lines must appear exactly once in the {solution_name} block, as written (indentation too); found {found_at}"))
            continue
        bugs.append(Bug(line, removed, added))
    if bugs_name in blocks and not blocks[bugs_name]:
        problems.append(Problem(path, first + next(h.line for h in sections if h.title == bugs_name), bug_field,
                                "plant each bug interviewers watch for as a ```diff block under its bullet (at least one)"))
    for name, found in blocks.items():
        if name not in ran and found:
            problems.append(Problem(path, found[0][0] - 1, f"## {name}",
                                    f"no code blocks here: code appears only in {_in_words(ran)}, where it is run"))
    return solution, checks, tuple(bugs)


def _in_words(names: list[str]) -> str:
    """`a, b and c`."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _has_assert(code: str) -> bool:
    import ast

    try:
        return any(isinstance(node, ast.Assert) for node in ast.walk(ast.parse(code)))
    except SyntaxError:
        return True  # running it reports the syntax error at its line


def _occurrences(code: str, removed: tuple[str, ...]) -> int:
    lines = code.rstrip("\n").split("\n")
    return sum(1 for i in range(len(lines) - len(removed) + 1) if tuple(lines[i : i + len(removed)]) == removed)


# --- references between files ------------------------------------------------


def check_references(corpus: Corpus, docs: dict[str, Document], problems: list[Problem], unreadable: frozenset[str] = frozenset(),
                     taxonomy_doc: Document | None = None) -> None:
    """Every referenced id exists (files that failed to load are not blamed twice)."""

    kinds = {"concept": corpus.concepts, "question": corpus.questions, "report": corpus.reports, "coding task": corpus.coding}
    homes = {"concept": "topics", "question": "questions", "coding task": "coding"}  # where a round lists each kind of id

    def expect(doc: Document, path: tuple[Any, ...], label: str, ids: Iterable[str], pool: dict, what: str, owner: str = "") -> None:
        for index, target in enumerate(ids):
            if target == owner:
                problems.append(Problem(doc.path, doc.line(*path, index), label, f"'{target}' refers to itself"))
            elif target not in pool and target not in unreadable:
                other = next((kind for kind, ids_ in kinds.items() if target in ids_), None)
                if other and label.startswith("rounds.") and other in homes:
                    message = f"'{target}' is a {other}: list it under {homes[other]}"
                elif other:
                    message = f"'{target}' is a {other}, not a {what}"
                else:
                    message = f"unknown {what} '{target}'{suggest(target, pool)}"
                problems.append(Problem(doc.path, doc.line(*path, index), label, message))

    for index, topic in enumerate(corpus.taxonomy.topics):
        for n, concept_id in enumerate(topic.sheet):
            concept = corpus.concepts.get(EntityId(concept_id))
            line = topic.loc.line if taxonomy_doc is None else taxonomy_doc.line("topics", index, "sheet", n)
            if concept is None and concept_id not in unreadable:
                problems.append(Problem(topic.loc.path, line, "topics.sheet", f"unknown concept '{concept_id}'{suggest(concept_id, corpus.concepts)}"))
            elif concept is not None and concept.topic != topic.id:
                problems.append(Problem(topic.loc.path, line, "topics.sheet",
                                        f"'{concept_id}' belongs to topic '{concept.topic}'; a sheet carries only its own topic's concepts"))
    for concept in corpus.concepts.values():
        doc = docs[concept.id]
        expect(doc, ("prerequisites",), "prerequisites", concept.prerequisites, corpus.concepts, "concept", concept.id)
        expect(doc, ("related",), "related", concept.related, corpus.concepts, "concept", concept.id)
    for question in corpus.questions.values():
        doc = docs[question.id]
        if question.primary:
            expect(doc, ("primary",), "primary", [question.primary], corpus.concepts, "concept")
        if question.primary in question.related:
            problems.append(Problem(doc.path, doc.line("related", question.related.index(question.primary)), "related",
                                    f"'{question.primary}' is the primary concept; list only the others under related"))
        expect(doc, ("related",), "related", question.related, corpus.concepts, "concept")
        expect(doc, ("follow_ups",), "follow_ups", question.follow_ups, corpus.questions, "question", question.id)
    for report in corpus.reports.values():
        doc = docs[report.id]
        if report.duplicate_of:
            target = corpus.reports.get(report.duplicate_of)
            if report.duplicate_of == report.id:
                problems.append(Problem(doc.path, doc.line("duplicate_of"), "duplicate_of", "a report cannot duplicate itself"))
            elif target is None:
                if report.duplicate_of not in unreadable:
                    problems.append(Problem(doc.path, doc.line("duplicate_of"), "duplicate_of",
                                            f"unknown report '{report.duplicate_of}'{suggest(report.duplicate_of, corpus.reports)}"))
            elif target.duplicate_of:
                problems.append(Problem(doc.path, doc.line("duplicate_of"), "duplicate_of", f"'{target.id}' is itself a duplicate; point to its original '{target.duplicate_of}'"))
        for index, round_ in enumerate(report.rounds):
            expect(doc, ("rounds", index, "questions"), "rounds.questions", round_.questions, corpus.questions, "question")
            expect(doc, ("rounds", index, "topics"), "rounds.topics", round_.topics, corpus.concepts, "concept")
            expect(doc, ("rounds", index, "coding"), "rounds.coding", round_.coding, corpus.coding, "coding task")
    for task in corpus.coding.values():
        expect(docs[task.id], ("concepts",), "concepts", task.concepts, corpus.concepts, "concept")


def check_cycles(corpus: Corpus, docs: dict[str, Document], problems: list[Problem]) -> None:
    """Report each prerequisite cycle once, at the concept where it is first entered."""
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    reported: set[frozenset[str]] = set()

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        path.append(node)
        for nxt in corpus.concepts[node].prerequisites:  # type: ignore[index]
            if nxt not in corpus.concepts or nxt == node:
                continue
            if state.get(nxt) == 1:
                cycle = path[path.index(nxt) :] + [nxt]
                key = frozenset(cycle)
                if key not in reported:
                    reported.add(key)
                    doc = docs[node]
                    index = corpus.concepts[node].prerequisites.index(nxt)  # type: ignore[index]
                    problems.append(Problem(doc.path, doc.line("prerequisites", index), "prerequisites", "cycle: " + " → ".join(cycle)))
            elif state.get(nxt) is None:
                visit(nxt, path)
        path.pop()
        state[node] = 2

    for concept_id in corpus.concepts:
        if concept_id not in state:
            visit(concept_id, [])


# --- bodies -----------------------------------------------------------------


def check_body(entity: Concept | Question | Report | CodingTask, problems: list[Problem], kind: Kind) -> None:
    path, first = entity.loc.path, entity.body_line
    problems.extend(body_placeholders(entity.body, path, first))
    problems.extend(unsafe_html(entity.body, path, first))
    problems.extend(pipes_in_table_math(entity.body, path, first))
    problems.extend(adjacent_display_math(entity.body, path, first))
    if kind.sections and not isinstance(entity, CodingTask):  # a task's sections are read with its code
        problems.extend(kind_sections(entity.body, path, first, kind))


def body_placeholders(body: str, path: str, first: int) -> list[Problem]:
    """A scaffold's placeholder left in the text, named by the section it is in."""
    found = []
    section = "body"
    for number, line in enumerate(body.split("\n")):
        heading = re.match(r"^##[ \t]+(.+?)[ \t]*$", line)
        if heading:
            section = f"## {heading.group(1)}"
        match = PLACEHOLDER.search(line)
        if match:
            hint = f" ({match.group(1)})" if match.group(1) else ""
            found.append(Problem(path, first + number, section, f"still the scaffold's placeholder{hint}; write this part"))
    return found


def sections_in_order(body: str, path: str, first: int, known: tuple[Section, ...]) -> list[Problem]:
    """The `##` sections must be the known ones, in order, with the required ones present."""
    found: list[Problem] = []
    names = [s.name for s in known]
    seen: list[str] = []
    sections = [h for h in headings(body) if h.level == 2]
    for h in sections:
        line = first + h.line
        if h.title not in names:
            found.append(Problem(path, line, "sections", f"unknown section '## {h.title}'{suggest(h.title, names)}; sections are: {' · '.join(names)}"))
        elif h.title in seen:
            found.append(Problem(path, line, "sections", f"section '## {h.title}' appears twice"))
        elif seen and names.index(h.title) < names.index(seen[-1]):
            found.append(Problem(path, line, "sections", f"section '## {h.title}' must come before '## {seen[-1]}'"))
        else:
            seen.append(h.title)
    for section in known:
        if section.required and section.name not in seen:
            found.append(Problem(path, first, "sections", f"missing section '## {section.name}'"))
    return found


def kind_sections(body: str, path: str, first: int, kind: Kind) -> list[Problem]:
    """The kind's sections in order, and a cheat-sheet section short enough for a two-page sheet."""
    found = sections_in_order(body, path, first, kind.sections)
    sections = [h for h in headings(body) if h.level == 2]
    sheet = kind.cheat_sheet
    cheat = [h for h in sections if sheet and h.title == sheet.name]
    if cheat:
        start = cheat[0].line
        lines = body.split("\n")
        end = next((h.line for h in sections if h.line > start), len(lines))
        bullets = sum(1 for line in lines[start + 1 : end] if re.match(r"^[-*+] ", line))
        low, high = sheet.cheat_sheet
        if not low <= bullets <= high:
            found.append(Problem(path, first + start, "sections", f"'## {sheet.name}' needs {low} to {high} top-level bullets (it feeds the cheat sheet), found {bullets}"))
    return found


_TABLE_MATH = re.compile(r"(?<![\\$])\$(?!\s)((?:\\.|[^\\$\n])+?)\$")


def pipes_in_table_math(body: str, path: str, first: int) -> list[Problem]:
    """A `|` inside `$…$` in a table row ends the cell and breaks the formula."""
    found: list[Problem] = []
    for number, line in enumerate(mask_fences(body).split("\n")):
        if line.lstrip().startswith("|"):
            for math in _TABLE_MATH.findall(line):
                if "|" in math.replace("\\|", ""):
                    found.append(Problem(path, first + number, "table",
                                         f"'|' inside ${math}$ splits the table cell; write \\lvert … \\rvert or \\mid"))
    return found


_ADJACENT_DISPLAY = re.compile(r"^[ \t]*\$\$[ \t]*\n([ \t]*\$\$)[ \t]*$", re.M)


def adjacent_display_math(body: str, path: str, first: int) -> list[Problem]:
    """`$$` closing one formula and `$$` opening the next on the following line make one block,
    which arithmatex hands to KaTeX whole, inner `$$` included."""
    masked = mask_fences(body)
    return [Problem(path, first + line_at(masked, m.start(1)), "math",
                    "a display formula starts right after another one ends; put a blank line between them "
                    "(otherwise both are read as one formula and cannot be typeset)")
            for m in _ADJACENT_DISPLAY.finditer(masked)]


def unsafe_html(body: str, path: str, first: int) -> list[Problem]:
    """Raw HTML is limited to a few inline tags (class and title only); links go to http(s) pages,
    mail or the site; attribute lists set ids, classes and a few harmless attributes. Anything
    that starts like a tag and is not one of those is refused, so nothing a browser could read as
    markup slips past a pattern that reads it differently."""
    found: list[Problem] = []
    masked = mask(body)

    def problem(offset: int, field: str, message: str) -> None:
        found.append(Problem(path, first + line_at(masked, offset), field, message))

    for match in _TAG_START.finditer(masked):
        at = match.start()
        if _SAFE_TAG.match(masked, at):
            continue
        autolink = _AUTOLINK.match(masked, at)
        if autolink:
            _check_link(autolink.group(1), lambda m: problem(at, "link", m))
            continue
        if masked.startswith("<!--", at):
            problem(at, "html", "HTML comments are not allowed in content; delete it or say it in the text")
            continue
        if masked[at + 1] in "!?":
            problem(at, "html", f"'{masked[at:at + 2]}' starts markup that is not allowed in content; write Markdown")
            continue
        name = _TAG_NAME.match(masked, at).group(1).lower()
        line_end = masked.find("\n", at) % (len(masked) + 1)
        if ">" not in masked[at:line_end]:
            problem(at, "html", f"'{masked[at:at + 2]}' reads as the start of an HTML tag; write &lt; for a literal '<', or put it in `code`")
            continue
        if name not in SAFE_TAGS:
            problem(at, "html", f"raw HTML <{name}> is not allowed in content; write Markdown (allowed tags: {', '.join(sorted(SAFE_TAGS))})")
            continue
        tag = masked[at : masked.find(">", at) + 1]
        bad = [a for a in _attribute_names(tag) if a not in SAFE_ATTRIBUTES]
        if bad:
            problem(at, "html", f"attribute '{bad[0]}' on <{name}> is not allowed (allowed: {', '.join(sorted(SAFE_ATTRIBUTES))})")
        else:
            problem(at, "html", f"write the attributes of <{name}> as name=\"value\" (allowed: {', '.join(sorted(SAFE_ATTRIBUTES))})")
    for match in _LINK_TARGETS.finditer(masked):
        target = match.group(1) if match.group(1) is not None else match.group(2)
        _check_link(target, lambda m, at=match.start(): problem(at, "link", m))
    for match in _ATTR_LIST.finditer(masked):
        for token in match.group(1).split():
            key = token.split("=", 1)[0].lower()
            if "=" in token and re.fullmatch(r"[a-z_:][-\w:.]*", key) and key not in _ATTR_LIST_KEYS:
                problem(match.start(), "attributes", f"an attribute list may not set '{key}' (it may set #id, .class, "
                                                     f"{', '.join(sorted(_ATTR_LIST_KEYS))}); write \\{{ for a literal brace")
    return found


def _check_link(target: str, fail) -> None:
    scheme = url_scheme(target)
    if scheme and scheme not in LINK_SCHEMES:
        fail(f"'{scheme}:' links are not allowed; link to http(s) pages or to [[ids]]")


def _attribute_names(tag: str) -> list[str]:
    """The attribute names a browser would read in one start tag."""
    names: list[str] = []

    class Reader(HTMLParser):
        def handle_starttag(self, name: str, attrs: list[tuple[str, str | None]]) -> None:
            names.extend(a for a, _ in attrs)

        handle_startendtag = handle_starttag

    reader = Reader()
    reader.feed(tag)
    reader.close()
    return names
