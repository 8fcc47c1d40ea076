"""Every formula must typeset: each is run through the site's own KaTeX at build time.

A formula KaTeX cannot parse would reach readers as a red error box (and a raw-LaTeX line in a
printed cheat sheet), so it is reported like any other content mistake, with its file and line.
One `node` process checks every formula of the guide; it runs while the engine links and renders.
"""
from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .errors import Problem
from .model import Corpus
from .text import _DISPLAY_MATH, _INLINE_MATH, line_at, mask_fences

CHECK = """
const katex = require(process.argv[1]);
const items = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const errors = [];
items.forEach(([tex, display], i) => {
  try { katex.renderToString(tex, {displayMode: display, throwOnError: true, strict: 'ignore'}); }
  catch (e) { errors.push([i, e.message.split('\\n')[0].replace(/^KaTeX parse error: /, '')]); }
});
process.stdout.write(JSON.stringify(errors));
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
            tex = raw[2:-2] if raw.startswith(("$$", "\\[", "\\(")) else raw[1:-1]
            found.append(Formula(path, first_line + line_at(masked, match.start()), tex, display))
        masked = pattern.sub(lambda m: " " * len(m.group(0)), masked)
    return found


def corpus_formulas(corpus: Corpus) -> list[Formula]:
    found: list[Formula] = []
    for entity in (*corpus.concepts.values(), *corpus.questions.values(), *corpus.reports.values()):
        found += formulas_in(entity.body, entity.loc.path, entity.body_line)
    return found


class MathCheck:
    """Started before linking and rendering; `problems()` waits for the verdict."""

    def __init__(self, formulas: list[Formula], katex: Path):
        self.formulas = formulas
        self.process = None
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
        return [Problem(self.formulas[i].path, self.formulas[i].line, "math",
                        f"KaTeX cannot typeset ${_short(self.formulas[i].tex)}$: {message}")
                for i, message in json.loads(out)]


def _short(tex: str) -> str:
    tex = " ".join(tex.split())
    return tex if len(tex) <= 60 else tex[:57] + "…"
