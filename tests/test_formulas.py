"""Every formula in content/ typesets with the site's own KaTeX (no red error boxes for readers)."""
from __future__ import annotations

from conftest import ROOT
from guide.formulas import MathCheck, corpus_formulas
from guide.load import load_content
from guide.validate import validate


def test_every_formula_of_the_guide_typesets():
    corpus, problems = validate(load_content(ROOT / "content", ROOT))
    assert problems == []
    formulas = corpus_formulas(corpus)
    assert len(formulas) > 1000
    assert MathCheck(formulas, ROOT / "node_modules" / "katex").problems() == []
