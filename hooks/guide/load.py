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

from .errors import Problem

FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?)^---[ \t]*$\n?", re.S | re.M)

KINDS = ("concepts", "questions", "reports", "coding")
"""Sub-folders of `content/` that hold one entity per Markdown file."""

TAXONOMY = "taxonomy.yml"

MAX_BYTES = 1_000_000
"""A content file larger than this is a mistake (a pasted log, a binary): say so instead of slowing
every build and every page that shows it."""

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml when PyYAML was built with it (several times faster); same safe semantics and marks."""

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


def load_content(root: Path, display_root: Path | None = None) -> Loaded:
    """Read every content file under `root` (taxonomy first, then each kind in name order)."""
    display_root = display_root or root.parent
    documents: list[Document] = []
    problems: list[Problem] = []
    unreadable: set[str] = set()

    def show(path: Path) -> str:
        try:
            return path.relative_to(display_root).as_posix()
        except ValueError:
            return path.as_posix()

    taxonomy = root / TAXONOMY
    if not taxonomy.is_file():
        problems.append(Problem(show(taxonomy), 1, "", "missing: the taxonomy file lists topics, companies and difficulties"))
    else:
        _collect(read_taxonomy(taxonomy, show(taxonomy)), documents, problems)

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
    return Loaded(documents, problems, frozenset(unreadable))


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
        if kind == "reports" and _top_level_key(match.group(1), parsed.line - 2) == "rounds":
            return Problem(parsed.path, parsed.line, "rounds", parsed.message.replace("front matter is not valid YAML: ", "")
                           + "; " + ROUNDS_SHAPE)
        return parsed
    data, lines = parsed
    if data is None:
        data = {}
    if not isinstance(data, dict):
        return Problem(display, 2, "", "front matter must be YAML fields (key: value), not a list or a single value")
    body_line = text[: match.end()].count("\n") + 1
    return Document(kind, display, stem, data, lines, 1, text[match.end() :], body_line)


ROUNDS_SHAPE = ("rounds is a list with one entry per round: '  - name: 一面' (two spaces, a dash), then its fields "
                "indented two more spaces: '    questions: [ppo-clip-why]', '    topics: [gae]', '    other: [手撕 LRU]'")
"""The expected shape, told when YAML inside `rounds` does not parse (PyYAML's own words do not say)."""


def _top_level_key(front_matter: str, index: int) -> str | None:
    """The unindented key whose block holds line `index` (0-based) of the front matter."""
    for line in reversed(front_matter.split("\n")[: index + 1]):
        key = re.match(r"^([A-Za-z_][\w-]*)\s*:", line)
        if key:
            return key.group(1)
    return None


def read_taxonomy(path: Path, display: str) -> Document | Problem:
    text = read_text(path.read_bytes(), display)
    if isinstance(text, Problem):
        return text
    parsed = parse_yaml(text, display, first_line=1, what="the taxonomy")
    if isinstance(parsed, Problem):
        return parsed
    data, lines = parsed
    if not isinstance(data, dict):
        return Problem(display, 1, "", "the taxonomy must be a YAML mapping with topics, companies and difficulties")
    return Document("taxonomy", display, path.stem, data, lines, 1)


def parse_yaml(text: str, display: str, first_line: int, what: str = "front matter") -> tuple[Any, dict[FieldPath, int]] | Problem:
    """Parse YAML; return the value and the file line of every key and item."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, {}
        lines: dict[FieldPath, int] = {}
        duplicate = _record_lines(node, (), first_line, lines)
        if duplicate:
            key, line = duplicate
            return Problem(display, line, str(key), "this key appears twice; keep one")
        return loader.construct_document(node), lines
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
        line = first_line + (mark.line if mark else 0)
        reason = getattr(err, "problem", None) or str(err).splitlines()[0]
        return Problem(display, line, "", f"{what} is not valid YAML: {reason}")
    finally:
        loader.dispose()


def _record_lines(node: yaml.Node, path: FieldPath, offset: int, lines: dict[FieldPath, int]) -> tuple[str, int] | None:
    """Fill `lines`; return (key, line) of the first duplicated mapping key, if any."""
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key_node, value_node in node.value:
            key = key_node.value
            line = key_node.start_mark.line + offset
            if key in seen:
                return key, line
            seen.add(key)
            lines[path + (key,)] = line
            found = _record_lines(value_node, path + (key,), offset, lines)
            if found:
                return found
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            lines[path + (index,)] = item.start_mark.line + offset
            found = _record_lines(item, path + (index,), offset, lines)
            if found:
                return found
    return None
