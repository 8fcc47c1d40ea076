"""Every formula in content/ typesets with the site's own KaTeX (no red error boxes for readers)."""
from __future__ import annotations

import json
import re

import pytest

import guide.formulas as formulas_module
from conftest import ROOT
from guide.formulas import MathCheck, corpus_formulas, formulas_in, typeset_page
from guide.load import load_content
from guide.validate import validate


@pytest.mark.heavy
def test_every_formula_of_the_guide_typesets():
    corpus, problems = validate(load_content(ROOT / "content", ROOT))
    assert problems == []
    formulas = corpus_formulas(corpus)
    assert len(formulas) > 1000
    assert MathCheck(formulas, ROOT / "node_modules" / "katex").problems() == []


def test_formulas_are_typeset_into_the_page_at_build_time():
    formulas = formulas_in("正文 $x_{<t}$ 与 $a\\&b$。\n\n$$\n\\frac{1}{2}\n$$\n", "content/x.md", 5)
    assert [(f.tex, f.display, f.line) for f in formulas] == [
        ("\n\\frac{1}{2}\n", True, 7), ("x_{\\lt t}", False, 5), ("a\\&b", False, 5)]
    check = MathCheck(formulas, ROOT / "node_modules" / "katex")
    assert check.problems() == []
    # As pymdownx.arithmatex writes them (HTML-escaped), with whitespace that differs from the source.
    page = ('<p><span class="arithmatex">\\(x_{\\lt t}\\)</span> <span class="arithmatex">\\(a\\&amp;b\\)</span></p>\n'
            '<div class="arithmatex">\\[ \\frac{1}{2} \\]</div>\n<span class="arithmatex">\\(y\\)</span>')
    typeset = typeset_page(page, check.html)
    assert typeset.count('<span class="katex">') == 3 and typeset.count('class="katex-display"') == 1
    assert "\\frac" not in typeset.split("<annotation")[0]  # raw TeX survives only in MathML's annotation
    assert '<span class="arithmatex">\\(y\\)</span>' in typeset  # unknown to the build: left to the browser
    # A $$…$$ continuing a list item's line: collected as display, rendered by arithmatex inline.
    listed = MathCheck(formulas_in("1. 定义：\n    $$z^2$$\n", "content/z.md", 1), ROOT / "node_modules" / "katex")
    assert [f.display for f in listed.formulas] == [True] and listed.problems() == []
    shown = typeset_page('<li>定义：<span class="arithmatex">\\(z^2\\)</span></li>', listed.html)
    assert 'class="katex-display"' in shown and "\\(z^2\\)" not in shown
    # KaTeX's MathML for L_{\max} is made valid: a script element with exactly two children.
    lmax = MathCheck(formulas_in("$L_{\\max}$", "content/y.md", 1), ROOT / "node_modules" / "katex")
    assert lmax.problems() == []
    mathml = next(iter(lmax.html.values()))
    assert re.search(r"<msub><mi>L</mi><mi>max</mi></msub>", mathml), mathml
    # ... and so is \bmod's operator, which KaTeX fills with a row of single letters.
    mod = MathCheck(formulas_in("$h \\bmod G$", "content/y.md", 1), ROOT / "node_modules" / "katex")
    assert mod.problems() == []
    mathml = next(iter(mod.html.values()))
    assert '<mo lspace="0.22em" rspace="0.22em">mod</mo>' in mathml and "<mrow><mi" not in mathml.split("<mo")[-1], mathml


def test_typeset_formulas_are_cached_between_builds(tmp_path):
    katex = ROOT / "node_modules" / "katex"
    cache = tmp_path / ".cache" / "katex.json"
    formulas = formulas_in("$a^2$ 和 $a^2$ 与 $$b_1$$", "content/x.md", 1)
    first = MathCheck(formulas, katex, cache=cache)
    assert len(first.todo) == 2  # the same formula twice is typeset once
    assert first.problems() == [] and cache.is_file()
    formulas_module._MEMORY.clear()  # a new build process: only the file remains
    second = MathCheck(formulas + formulas_in("$c$", "content/y.md", 3), katex, cache=cache)
    assert second.todo == [("c", False)]  # only the new formula goes to KaTeX
    assert second.problems() == []
    assert {k: v for k, v in second.html.items() if k != ("c", False)} == first.html
    # HTML typeset by another KaTeX version is not reused.
    stored = json.loads(cache.read_text(encoding="utf-8"))
    cache.write_text(json.dumps({**stored, "katex": "0.0.1"}), encoding="utf-8")
    formulas_module._MEMORY.clear()
    assert len(MathCheck(formulas, katex, cache=cache).todo) == 2
    # A bad formula is reported at each place it appears, and never cached.
    bad = formulas_in("$\\frac{1}{$", "content/z.md", 4) + formulas_in("$\\frac{1}{$", "content/w.md", 9)
    problems = MathCheck(bad, katex, cache=cache).problems()
    assert [(p.path, p.line) for p in problems] == [("content/z.md", 4), ("content/w.md", 9)]
    assert ("\\frac{1}{", False) not in formulas_module._load_cache(cache, stored["katex"])
