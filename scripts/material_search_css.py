"""Write docs/assets/css/material-search.css: the rules of Material for MkDocs' search component
(every rule, @media ones included, whose selector or body names `md-search`), taken from the
installed Material's main and palette stylesheets. The guide's search (docs/assets/js/search.js) uses
Material's search markup; with its styles in a file of the guide's own, it keeps its look under a
builder whose theme ships no such rules (Zensical's classic variant). Run it again after upgrading
Material: `.venv/bin/python scripts/material_search_css.py`.
"""
import re
import sys
from pathlib import Path

import material

ROOT = Path(__file__).resolve().parent.parent
HEADER = ("/* The search component's rules from Material for MkDocs {version} (MIT licence, (c) Martin Donath),\n"
          "   extracted by scripts/material_search_css.py; do not edit by hand. */\n")
STYLES = Path(material.__file__).parent / "templates" / "assets" / "stylesheets"
sheets = [*sorted(STYLES.glob("main.*.min.css")), *sorted(STYLES.glob("palette.*.min.css"))]  # palette: dark-mode colours
css = "".join(sheet.read_text(encoding="utf-8") for sheet in sheets)
css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
def blocks(s):
    i, n = 0, len(s)
    while i < n:
        j = s.find("{", i)
        if j == -1: return
        sel = s[i:j].strip()
        depth, k = 1, j + 1
        while depth:
            if s[k] == "{": depth += 1
            elif s[k] == "}": depth -= 1
            k += 1
        yield sel, s[j+1:k-1]
        i = k
out = []
def walk(s, wrap=None):
    for sel, body in blocks(s):
        if sel.startswith("@media") or sel.startswith("@supports"):
            inner = []
            for sel2, body2 in blocks(body):
                if "md-search" in sel2 or "md-search" in body2:
                    inner.append(f"{sel2}{{{body2}}}")
            if inner: out.append(f"{sel}{{{''.join(inner)}}}")
        elif sel.startswith("@"):
            continue
        elif "md-search" in sel or "md-search" in body:
            out.append(f"{sel}{{{body}}}")
walk(css)
from importlib.metadata import version

target = ROOT / "docs" / "assets" / "css" / "material-search.css"
target.write_text(HEADER.format(version=version("mkdocs-material")) + "\n".join(out) + "\n", encoding="utf-8")
print(f"wrote {target.relative_to(ROOT)}: {len(out)} rules from {' and '.join(sheet.name for sheet in sheets)}", file=sys.stderr)
