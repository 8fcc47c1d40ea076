"""Stage 1: read `content/` into documents that remember every line.

Nothing here judges the content beyond "can it be read at all": a file that
is not UTF-8, is empty, has no front matter or has broken YAML becomes a
`Problem`; everything else becomes a `Document` for `validate`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .config import FILE as GUIDE_FILE, Guide, load_guide
from .errors import Problem

FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?)^---[ \t]*$\n?", re.S | re.M)

KINDS = ("concepts", "questions", "reports", "coding")
"""Sub-folders of `content/` that hold one entity per Markdown file."""

SYNONYMS = "synonyms.yml"

MAX_BYTES = 1_000_000
"""A content file larger than this is a mistake (a pasted log, a binary): say so instead of slowing
every build and every page that shows it."""

_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml when PyYAML was built with it (several times faster); same safe semantics and marks."""


class _Loader(_BaseLoader):  # type: ignore[misc, valid-type]
    """PyYAML's safe loader, except that dates stay text (`date: 2025-03` and `date: 2025-13-40`
    alike reach validation, which names the field) and a value its tag cannot hold (`!!int x`)
    is a YAML error at its own line instead of a Python exception."""

    yaml_implicit_resolvers = {first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
                               for first, resolvers in _BaseLoader.yaml_implicit_resolvers.items()}

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep)
        except yaml.YAMLError:
            raise
        except (ValueError, TypeError, OverflowError, AttributeError) as err:
            kind = node.tag.rsplit(":", 1)[-1]
            raise yaml.constructor.ConstructorError(None, None, f"'{node.value}' is tagged !!{kind} but is not one; "
                                                    "remove the tag", node.start_mark) from None


FieldPath = tuple[Any, ...]
"""Path into front matter: ('rounds', 0, 'questions', 2)."""


@dataclass(frozen=True)
class Document:
    """One content file, read but not yet understood."""

    kind: str
    """'concepts', 'questions', 'reports' or 'taxonomy'."""
    path: str
    """Path shown to authors (relative to the project root)."""
    stem: str
    """File name without `.md`: the entity id."""
    data: dict[str, Any]
    lines: dict[FieldPath, int] = field(default_factory=dict)
    """1-based file line of every key and list item in the front matter."""
    start_line: int = 1
    """Line of the opening `---` (or 1 for YAML files)."""
    body: str = ""
    body_line: int = 1
    written: dict[FieldPath, str] = field(default_factory=dict)
    """Each plain value exactly as written (`yes`, `2025`), to quote it back when YAML typed it."""

    def line(self, *path: Any) -> int:
        """The line of the deepest known prefix of `path`, or the start of the front matter."""
        for end in range(len(path), 0, -1):
            if path[:end] in self.lines:
                return self.lines[path[:end]]
        return self.start_line


@dataclass(frozen=True)
class Loaded:
    documents: list[Document]
    problems: list[Problem]
    unreadable: frozenset[str] = frozenset()
    """Ids (file stems) of files that could not be read: references to them are not reported again."""
    guide: Guide | None = None
    """The guide's configuration (guide.yml); None when it could not be read, and then nothing else was."""


def load_content(root: Path, display_root: Path | None = None, guide: Path | None = None) -> Loaded:
    """Read the guide's configuration (`guide`, default guide.yml next to `root`), then every
    content file under `root` (taxonomy first, then each kind in name order). Without a readable
    configuration nothing else is read: it says what the files must hold."""
    display_root = display_root or root.parent
    guide = guide or root.parent / GUIDE_FILE
    documents: list[Document] = []
    problems: list[Problem] = []
    unreadable: set[str] = set()

    def show(path: Path) -> str:
        try:
            return path.relative_to(display_root).as_posix()
        except ValueError:
            return path.as_posix()

    config = load_guide(guide, show(guide))
    if not isinstance(config, Guide):
        return Loaded([], config, guide=None)
    taxonomy = guide.parent / config.taxonomy
    if not taxonomy.is_file():
        problems.append(Problem(show(taxonomy), 1, "", "missing: the taxonomy file lists topics, companies and difficulties"))
    else:
        _collect(read_taxonomy(taxonomy, show(taxonomy)), documents, problems)
    synonyms = root / SYNONYMS
    if synonyms.is_file():
        _collect(read_taxonomy(synonyms, show(synonyms), kind="synonyms", what="the synonyms file",
                               shape="the synonyms file must be a YAML list of groups: - [优势函数, advantage]"), documents, problems)

    for kind in KINDS:
        folder = root / kind
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            if path.is_dir():
                problems.append(Problem(show(path), 1, "", f"folders inside {kind}/ are not read; move its files up into {kind}/"))
                continue
            if path.name.startswith("."):
                if path.suffix == ".md":
                    problems.append(Problem(show(path), 1, "", "hidden file: names starting with '.' are not read; rename it"))
                continue  # editor swap and lock files
            if path.suffix != ".md":
                problems.append(Problem(show(path), 1, "", f"not a Markdown file: {kind}/ holds only .md files"))
                continue
            if path.stat().st_size > MAX_BYTES:
                size = path.stat().st_size / 1_000_000
                problems.append(Problem(show(path), 1, "", f"the file is {size:.1f} MB; content files are limited to {MAX_BYTES // 1_000_000} MB"))
                unreadable.add(path.stem)
                continue
            result = read_document(path, kind, show(path))
            if isinstance(result, Problem):
                unreadable.add(path.stem)
            _collect(result, documents, problems)
    return Loaded(documents, problems, frozenset(unreadable), config)


def _collect(result: Document | Problem, documents: list[Document], problems: list[Problem]) -> None:
    (documents if isinstance(result, Document) else problems).append(result)  # type: ignore[arg-type]


def read_text(raw: bytes, display: str) -> str | Problem:
    """Decode UTF-8 (a BOM is allowed) and normalise line endings to `\\n`."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        return Problem(display, line, "", f"not valid UTF-8 (byte 0x{raw[err.start]:02x}); save the file as UTF-8")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_document(path: Path, kind: str, display: str) -> Document | Problem:
    """Split a Markdown file into front matter (parsed, with lines) and body."""
    raw = path.read_bytes()
    key = (kind, display, path.stem, raw)
    if key not in _READ:
        if len(_READ) > 20000:
            _READ.clear()
        _READ[key] = _read_document(raw, kind, display, path.stem)
    return _READ[key]


_READ: dict[tuple[str, str, str, bytes], Document | Problem] = {}
"""Files read before, by their bytes: `mkdocs serve` reads every file at every rebuild, and only the
edited one has changed. Documents are never modified after reading."""


def _read_document(raw: bytes, kind: str, display: str, stem: str) -> Document | Problem:
    text = read_text(raw, display)
    if isinstance(text, Problem):
        return text
    if not text.strip():
        return Problem(display, 1, "", "the file is empty; start it with front matter between '---' lines")
    match = FRONT_MATTER.match(text)
    if not match:
        return Problem(display, 1, "", "no front matter: the file must start with a '---' line, YAML fields, and a closing '---' line")
    parsed = parse_yaml(match.group(1), display, first_line=2)
    if isinstance(parsed, Problem):
        indentation = any(words in parsed.message for words in INDENTATION_ERRORS)
        if kind == "reports" and indentation and _top_level_key(match.group(1), parsed.line - 2) == "rounds":
            return Problem(parsed.path, parsed.line, "rounds", parsed.message.replace("front matter is not valid YAML: ", "")
                           + "; " + ROUNDS_SHAPE)
        return parsed
    data, lines, written = parsed
    if data is None:
        data = {}
    if not isinstance(data, dict):
        return Problem(display, 2, "", "front matter must be YAML fields (key: value), not a list or a single value")
    body_line = text[: match.end()].count("\n") + 1
    return Document(kind, display, stem, data, lines, 1, text[match.end() :], body_line, written)


ROUNDS_SHAPE = ("rounds is a list with one entry per round: '  - name: 一面' (two spaces, a dash), then its fields "
                "indented two more spaces: '    questions: [ppo-clip-why]', '    topics: [gae]', '    other: [手撕 LRU]'")
"""The expected shape, told when the indentation inside `rounds` does not parse (PyYAML's own words do not say)."""

INDENTATION_ERRORS = ("expected '-' indicator", "expected <block end>", "expected key", "mapping values are not allowed")
"""PyYAML's words for a block whose indentation is off."""


def _top_level_key(front_matter: str, index: int) -> str | None:
    """The unindented key whose block holds line `index` (0-based) of the front matter."""
    for line in reversed(front_matter.split("\n")[: index + 1]):
        key = re.match(r"^([A-Za-z_][\w-]*)\s*:", line)
        if key:
            return key.group(1)
    return None


def read_taxonomy(path: Path, display: str, kind: str = "taxonomy", what: str = "the taxonomy",
                  shape: str = "the taxonomy must be a YAML mapping with topics, companies and difficulties") -> Document | Problem:
    """A YAML file of shared vocabulary (the taxonomy, the synonyms), kept with its lines."""
    text = read_text(path.read_bytes(), display)
    if isinstance(text, Problem):
        return text
    parsed = parse_yaml(text, display, first_line=1, what=what)
    if isinstance(parsed, Problem):
        return parsed
    data, lines, written = parsed
    if not isinstance(data, dict if kind == "taxonomy" else list):
        return Problem(display, 1, "", shape)
    return Document(kind, display, path.stem, {"groups": data} if kind == "synonyms" else data, lines, 1, written=written)


def parse_yaml(text: str, display: str, first_line: int, what: str = "front matter") -> tuple[Any, dict[FieldPath, int], dict[FieldPath, str]] | Problem:
    """Parse YAML; return the value, the file line of every key and item, and every plain
    (unquoted) value as written."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, {}, {}
        lines: dict[FieldPath, int] = {}
        written: dict[FieldPath, str] = {}
        shape = _record_lines(node, (), first_line, lines, written, set())
        if shape:
            line, name, message = shape
            return Problem(display, line, name, message)
        return loader.construct_document(node), lines, written
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
        line = first_line + (mark.line if mark else 0)
        opened = unclosed_opening(text, line - first_line)
        if opened is not None:
            at, char = opened
            closer = {"[": "]", "{": "}"}.get(char, char)
            return Problem(display, first_line + at, "", f"{what} is not valid YAML: the {'quote' if char in QUOTES else 'bracket'} "
                                                         f"{char} opened on this line is never closed on it; add the closing {closer}")
        reason = getattr(err, "problem", None) or str(err).splitlines()[0]
        return Problem(display, line, "", f"{what} is not valid YAML: {reason}")
    finally:
        loader.dispose()


QUOTES = "\"'"


def unclosed_opening(text: str, error_line: int) -> tuple[int, str] | None:
    """The first line, up to the one YAML stopped at (0-based), whose value opens a quote or a
    bracket that the line does not close: YAML reads on into the following lines and reports the
    mistake where it gives up, often lines later. Front matter keeps each value on its line."""
    for index, line in enumerate(text.split("\n")[: error_line + 1]):
        value = re.match(r"^\s*(?:-\s+)?(?:[^\s:#'\"\[\]{}][^:#]*?:\s+|-\s+)?(.*)$", line)
        rest = value.group(1) if value else ""
        if rest and rest[0] in QUOTES:  # a blank line's rest is "", which `in` would find in any string
            quote = rest[0]
            body = rest[1:].replace("''", "") if quote == "'" else re.sub(r"\\.", "", rest[1:])
            if quote not in body:
                return index, quote
        elif rest[:1] in "[{":
            depth, quote = 0, ""
            for char in rest:
                if quote:
                    quote = "" if char == quote else quote
                elif char in QUOTES:
                    quote = char
                elif char in "[{":
                    depth += 1
                elif char in "]}":
                    depth -= 1
                elif char == "#" and depth <= 0:
                    break
            if depth > 0:
                return index, rest[0]
    return None


def _record_lines(node: yaml.Node, path: FieldPath, offset: int, lines: dict[FieldPath, int],
                  written: dict[FieldPath, str], seen: set[int]) -> tuple[int, str, str] | None:
    """Fill `lines` and `written`; return (line, field, message) for the first thing front matter
    must not hold: a key written twice, a key that is not a plain name, or an alias (`*name`)."""
    if id(node) in seen:
        return (lines.get(path, node.start_mark.line + offset), ".".join(str(p) for p in path if isinstance(p, str)),
                "YAML anchors and aliases (&name, *name) are not read; write the value out")
    seen.add(id(node))
    if isinstance(node, yaml.ScalarNode) and not node.style:  # plain: None in PyYAML, "" in libyaml
        written[path] = node.value
    if isinstance(node, yaml.MappingNode):
        first: dict[str, int] = {}
        for key_node, value_node in node.value:
            line = key_node.start_mark.line + offset
            if not isinstance(key_node, yaml.ScalarNode):
                return line, "", "a key must be a plain name (a word before ':'), not a list or a mapping"
            key = key_node.value
            if key in first:
                return line, key, f"this key appears twice (first on line {first[key]}); keep one"
            first[key] = line
            lines[path + (key,)] = line
            found = _record_lines(value_node, path + (key,), offset, lines, written, seen)
            if found:
                return found
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            lines[path + (index,)] = item.start_mark.line + offset
            found = _record_lines(item, path + (index,), offset, lines, written, seen)
            if found:
                return found
    return None
