"""Every formula is typeset by the site's own KaTeX at build time.

A formula KaTeX cannot parse would reach readers as a red error box (and a raw-LaTeX line in a
printed cheat sheet), so it is reported like any other content mistake, with its file and line.
One `node` process typesets every formula of the guide while the engine links and renders; the
MkDocs adapter then puts the HTML into the pages (`typeset_page`), so readers download no
typesetter and see no raw LaTeX while one runs. A formula the build did not see (none, normally)
is still typeset in the browser by docs/assets/js/math.js.
"""
from __future__ import annotations

import functools
import html
import json
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .errors import Problem
from .model import Corpus
from .text import _DISPLAY_MATH, _INLINE_MATH, guard_tex, line_at, mask_fences

CHECK = """
const katex = require(process.argv[1]);
const items = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const errors = [], html = [];
items.forEach(([tex, display], i) => {
  try { html.push(katex.renderToString(tex, {displayMode: display, throwOnError: true, strict: 'ignore'})); }
  catch (e) { html.push(null); errors.push([i, e.message.split('\\n')[0].replace(/^KaTeX parse error: /, '')]); }
});
process.stdout.write(JSON.stringify({errors, html}));
"""


@dataclass(frozen=True)
class Formula:
    path: str
    line: int
    tex: str
    display: bool


def formulas_in(text: str, path: str, first_line: int) -> list[Formula]:
    """`$$…$$`, `\\[…\\]`, `$…$` and `\\(…\\)` outside code, with the line each starts on."""
    return list(_formulas_in(text, path, first_line))


@functools.lru_cache(maxsize=8192)
def _formulas_in(text: str, path: str, first_line: int) -> tuple[Formula, ...]:
    masked = mask_fences(text)
    found: list[Formula] = []
    for pattern, display in ((_DISPLAY_MATH, True), (_INLINE_MATH, False)):
        for match in pattern.finditer(masked):
            raw = match.group(0)
            tex = guard_tex(raw[2:-2] if raw.startswith(("$$", "\\[", "\\(")) else raw[1:-1])
            found.append(Formula(path, first_line + line_at(masked, match.start()), tex, display))
        masked = pattern.sub(lambda m: " " * len(m.group(0)), masked)
    return tuple(found)


def corpus_formulas(corpus: Corpus) -> list[Formula]:
    found: list[Formula] = []
    for entity in (*corpus.concepts.values(), *corpus.questions.values(), *corpus.reports.values(), *corpus.coding.values()):
        found += formulas_in(entity.body, entity.loc.path, entity.body_line)
        # One-line fields are shown on other pages too (a concept's summary under a question).
        for field in ("title", "text", "summary", "brief"):
            value = getattr(entity, field, None)
            if isinstance(value, str) and "$" in value:
                found += formulas_in(value, entity.loc.path, entity.loc.line)
    return found


Typeset = dict[tuple[str, bool], str]
"""KaTeX's HTML by (`key(tex)`, display)."""

_MEMORY: dict[str, Typeset] = {}
"""Typeset formulas by cache file, kept across the rebuilds of one `mkdocs serve`."""


class MathCheck:
    """Started before linking and rendering; `problems()` waits for the verdict.

    Each distinct formula is typeset once. With a `cache` file, formulas typeset by an earlier
    build (same KaTeX version) are taken from it and only new ones go to KaTeX.
    """

    def __init__(self, formulas: list[Formula], katex: Path, cache: Path | None = None):
        self.formulas = formulas
        self.keys = [(key(f.tex), f.display) for f in formulas]
        self.cache = cache
        self.version = _katex_version(katex)
        self.html: Typeset = dict(_load_cache(cache, self.version)) if cache else {}
        self.known = len(self.html)
        self.todo = list(dict.fromkeys(k for k in self.keys if k not in self.html))
        # KaTeX takes about 0.7 ms a formula: the work is split between node processes, one per
        # core, which run while this process links and renders.
        workers = max(1, min(os.cpu_count() or 1, len(self.todo) // 200, 4))
        self.chunks = [self.todo[i::workers] for i in range(workers)] if self.todo and self.version else []
        self.processes = []
        for chunk in self.chunks:
            with tempfile.TemporaryFile("w+", encoding="utf-8") as payload:  # no pipe to block on
                json.dump(chunk, payload)
                payload.seek(0)
                self.processes.append(subprocess.Popen(["node", "-e", CHECK, str(katex)], stdin=payload,
                                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))

    def problems(self) -> list[Problem]:
        if not self.processes:
            return []
        failed: dict[tuple[str, bool], str] = {}
        for chunk, process in zip(self.chunks, self.processes):
            out, err = process.communicate()
            if process.returncode != 0:
                return [Problem("node_modules/katex", 1, "math", f"could not check formulas with KaTeX: {err.strip()[:200]}")]
            result = json.loads(out)
            for formula, typeset in zip(chunk, result["html"]):
                if typeset is not None:
                    self.html[formula] = valid_katex(typeset)
            failed.update({chunk[i]: message for i, message in result["errors"]})
        if self.cache and len(self.html) > self.known:
            used = set(self.keys)  # formulas no longer in the guide are dropped
            _save_cache(self.cache, self.version, {k: v for k, v in self.html.items() if k in used})
        return [Problem(f.path, f.line, "math", f"KaTeX cannot typeset ${_short(k[0])}$: {failed[k]}")
                for f, k in zip(self.formulas, self.keys) if k in failed]


def _katex_version(katex: Path) -> str | None:
    try:
        return json.loads((katex / "package.json").read_text(encoding="utf-8"))["version"]
    except (OSError, ValueError, KeyError):
        return None


def _load_cache(cache: Path, version: str | None) -> Typeset:
    memory = _MEMORY.get(str(cache))
    if memory is None:
        memory = {}
        try:
            stored = json.loads(cache.read_text(encoding="utf-8"))
            if stored.get("katex") == version and stored.get("format") == CACHE_FORMAT:
                memory = {(tex, display == "display"): html for display, tex, html in stored["formulas"]}
        except (OSError, ValueError, KeyError, TypeError):
            pass  # no cache yet, or an unreadable one: typeset everything again
        _MEMORY[str(cache)] = memory
    return memory


def _save_cache(cache: Path, version: str | None, typeset: Typeset) -> None:
    _MEMORY[str(cache)] = dict(typeset)
    stored = {"katex": version, "format": CACHE_FORMAT,
              "formulas": [["display" if display else "inline", tex, html] for (tex, display), html in typeset.items()]}
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        temporary = cache.with_suffix(".tmp")
        temporary.write_text(json.dumps(stored, ensure_ascii=False), encoding="utf-8")
        temporary.replace(cache)
    except OSError:
        pass  # a read-only checkout builds without a cache


CACHE_FORMAT = 2
"""Bumped when `valid_katex` or the KaTeX options change, so older cached HTML is not reused."""


_SCRIPT_FUNCTION_APPLICATION = re.compile(r"<mo>\u2061</mo>(?=</(?:msub|msup|msubsup|munder|mover)>)")
_NEGATIVE_HEIGHT = re.compile(r"height:-[0-9.]+em;")
_OPERATOR_OF_LETTERS = re.compile(r'(<mo[^>]*>)<mrow>((?:<mi mathvariant="normal">[^<]</mi>)+)</mrow></mo>')
_LETTER = re.compile(r"<mi[^>]*>([^<])</mi>")


def valid_katex(typeset: str) -> str:
    """Three spots where KaTeX's output (0.19.1) is not valid HTML, fixed without changing what shows:
    - `L_{\\max}` gives `<msub><mi>L</mi><mi>max</mi><mo>&#x2061;</mo></msub>`, a script with three
      children; the invisible function-application operator has nothing to apply to and goes.
    - `a \\bmod b` gives an operator holding a row of letters (`<mo><mrow><mi>m</mi>…</mrow></mo>`),
      which MathML does not allow; the operator holds the word itself (`<mo>mod</mo>`).
    - Its layout writes `height:-0.2em` in a few inline styles; browsers drop a negative height
      as invalid, so removing it renders the same."""
    typeset = _OPERATOR_OF_LETTERS.sub(lambda m: m[1] + "".join(_LETTER.findall(m[2])) + "</mo>", typeset)
    return _NEGATIVE_HEIGHT.sub("", _SCRIPT_FUNCTION_APPLICATION.sub("", typeset))


def key(tex: str) -> str:
    """Formulas are looked up with their whitespace runs collapsed (not meaningful in TeX math)."""
    return " ".join(tex.split())


_ARITHMATEX = re.compile(r'<(span|div) class="arithmatex">\\([(\[])(.*?)\\[)\]]</\1>', re.S)


def typeset_page(page_html: str, typeset: Typeset) -> str:
    """Fill each of pymdownx.arithmatex's `<span|div class="arithmatex">\\(…\\)</…>` with the
    formula's KaTeX HTML; one the build did not typeset is left for the browser.

    A formula is looked up as arithmatex wrote it (inline or display), else as the source wrote
    it: a `$$…$$` that continues a list item's line is collected as display but rendered inline,
    and is shown as the display formula its author wrote."""
    def fill(match: re.Match[str]) -> str:
        tag, opener, tex = match.groups()
        formula, display = key(html.unescape(tex)), opener == "["
        found = typeset.get((formula, display))
        if found is None:
            found = typeset.get((formula, not display))
        return match.group(0) if found is None else f'<{tag} class="arithmatex">{found}</{tag}>'
    return _ARITHMATEX.sub(fill, page_html)


def _short(tex: str) -> str:
    tex = key(tex)
    return tex if len(tex) <= 60 else tex[:57] + "…"
