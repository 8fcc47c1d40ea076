"""Every formula is typeset by the site's own KaTeX at build time.

A formula KaTeX cannot parse would reach readers as a red error box (and a raw-LaTeX line in a
printed cheat sheet), so it is reported like any other content mistake, with its file and line.
One `node` process typesets every formula of the guide while the engine links and renders; the
MkDocs adapter then puts the HTML into the pages (`typeset_page`), so readers download no
typesetter and see no raw LaTeX while one runs. A formula the build did not see (none, normally)
is still typeset in the browser by docs/assets/js/math.js.
"""
from __future__ import annotations

import html
import json
import re
import subprocess
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
    masked = mask_fences(text)
    found: list[Formula] = []
    for pattern, display in ((_DISPLAY_MATH, True), (_INLINE_MATH, False)):
        for match in pattern.finditer(masked):
            raw = match.group(0)
            tex = guard_tex(raw[2:-2] if raw.startswith(("$$", "\\[", "\\(")) else raw[1:-1])
            found.append(Formula(path, first_line + line_at(masked, match.start()), tex, display))
        masked = pattern.sub(lambda m: " " * len(m.group(0)), masked)
    return found


def corpus_formulas(corpus: Corpus) -> list[Formula]:
    found: list[Formula] = []
    for entity in (*corpus.concepts.values(), *corpus.questions.values(), *corpus.reports.values()):
        found += formulas_in(entity.body, entity.loc.path, entity.body_line)
        # One-line fields are shown on other pages too (a concept's summary under a question).
        for field in ("title", "text", "summary", "brief"):
            value = getattr(entity, field, None)
            if isinstance(value, str) and "$" in value:
                found += formulas_in(value, entity.loc.path, entity.loc.line)
    return found


class MathCheck:
    """Started before linking and rendering; `problems()` waits for the verdict."""

    def __init__(self, formulas: list[Formula], katex: Path):
        self.formulas = formulas
        self.process = None
        self.html: dict[tuple[str, bool], str] = {}
        """KaTeX's HTML for each formula, by (`key(tex)`, display)."""
        if formulas and (katex / "package.json").is_file():
            self.process = subprocess.Popen(["node", "-e", CHECK, str(katex)], stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            self.payload = json.dumps([[f.tex, f.display] for f in formulas])

    def problems(self) -> list[Problem]:
        if self.process is None:
            return []
        out, err = self.process.communicate(self.payload)
        if self.process.returncode != 0:
            return [Problem("node_modules/katex", 1, "math", f"could not check formulas with KaTeX: {err.strip()[:200]}")]
        result = json.loads(out)
        for formula, typeset in zip(self.formulas, result["html"]):
            if typeset is not None:
                self.html[key(formula.tex), formula.display] = valid_katex(typeset)
        return [Problem(self.formulas[i].path, self.formulas[i].line, "math",
                        f"KaTeX cannot typeset ${_short(self.formulas[i].tex)}$: {message}")
                for i, message in result["errors"]]


_SCRIPT_FUNCTION_APPLICATION = re.compile(r"<mo>\u2061</mo>(?=</(?:msub|msup|msubsup|munder|mover)>)")
_NEGATIVE_HEIGHT = re.compile(r"height:-[0-9.]+em;")


def valid_katex(typeset: str) -> str:
    """Two spots where KaTeX's output (0.19.1) is not valid HTML, fixed without changing what shows:
    - `L_{\\max}` gives `<msub><mi>L</mi><mi>max</mi><mo>&#x2061;</mo></msub>`, a script with three
      children; the invisible function-application operator has nothing to apply to and goes.
    - Its layout writes `height:-0.2em` in a few inline styles; browsers drop a negative height
      as invalid, so removing it renders the same."""
    return _NEGATIVE_HEIGHT.sub("", _SCRIPT_FUNCTION_APPLICATION.sub("", typeset))


def key(tex: str) -> str:
    """Formulas are looked up with their whitespace runs collapsed (not meaningful in TeX math)."""
    return " ".join(tex.split())


_ARITHMATEX = re.compile(r'<(span|div) class="arithmatex">\\([(\[])(.*?)\\[)\]]</\1>', re.S)


def typeset_page(page_html: str, typeset: dict[tuple[str, bool], str]) -> str:
    """Fill each of pymdownx.arithmatex's `<span|div class="arithmatex">\\(…\\)</…>` with the
    formula's KaTeX HTML; one the build did not typeset is left for the browser."""
    def fill(match: re.Match[str]) -> str:
        tag, opener, tex = match.groups()
        found = typeset.get((key(html.unescape(tex)), opener == "["))
        return match.group(0) if found is None else f'<{tag} class="arithmatex">{found}</{tag}>'
    return _ARITHMATEX.sub(fill, page_html)


def _short(tex: str) -> str:
    tex = " ".join(tex.split())
    return tex if len(tex) <= 60 else tex[:57] + "…"
