"""Every formula in content/ typesets with the site's own KaTeX (no red error boxes for readers)."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

from conftest import ROOT
from guide.text import _DISPLAY_MATH, _INLINE_MATH, line_at, mask_fences

CHECK = """
const katex = require(process.argv[1]);
const items = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const errors = [];
for (const [where, tex, display] of items) {
  try { katex.renderToString(tex, {displayMode: display, throwOnError: true, strict: 'ignore'}); }
  catch (e) { errors.push(where + ': ' + e.message.split('\\n')[0]); }
}
console.log(JSON.stringify(errors));
"""


def formulas() -> list[tuple[str, str, bool]]:
    found = []
    for path in sorted((ROOT / "content").rglob("*.md")):
        text = mask_fences(path.read_text(encoding="utf-8"))
        for pattern, display in ((_DISPLAY_MATH, True), (_INLINE_MATH, False)):
            for match in pattern.finditer(text):
                raw = match.group(0)
                tex = raw[2:-2] if display else raw[1:-1]
                if raw.startswith("\\\\(") or raw.startswith("\\\\["):
                    tex = raw[2:-2]
                where = f"{path.relative_to(ROOT)}:{line_at(text, match.start()) + 1}"
                found.append((where, tex, display))
            text = pattern.sub(lambda m: " " * len(m.group(0)), text)
    return found


def test_every_formula_typesets():
    items = formulas()
    assert len(items) > 1000
    result = subprocess.run(["node", "-e", CHECK, str(ROOT / "node_modules/katex")], input=json.dumps(items),
                            capture_output=True, text=True, check=True)
    assert json.loads(result.stdout) == []
