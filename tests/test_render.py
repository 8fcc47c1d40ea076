"""Rendering: golden pages for a tiny corpus, and content that is never evaluated as a template."""
from __future__ import annotations

import difflib
import json
from pathlib import Path

import pytest

from guide.pipeline import build

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE.parent / "templates"
GOLDEN = HERE / "golden"


def golden_cases() -> list[Path]:
    return sorted(p for p in GOLDEN.iterdir() if (p / "content").is_dir())


@pytest.mark.parametrize("case", golden_cases(), ids=lambda p: p.name)
def test_golden_pages(case: Path, request: pytest.FixtureRequest):
    """Every generated page equals its reviewed copy in expected/ (update: pytest --update-golden)."""
    pages = build(case, templates=TEMPLATES).pages
    expected_dir = case / "expected"
    if request.config.getoption("--update-golden"):
        for old in expected_dir.rglob("*.md"):
            old.unlink()
        for src, text in pages.items():
            target = expected_dir / src
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
    expected = {p.relative_to(expected_dir).as_posix(): p.read_text(encoding="utf-8") for p in expected_dir.rglob("*.md")}
    assert sorted(pages) == sorted(expected), "generated pages differ from expected/ (run pytest --update-golden and review)"
    diffs = []
    for src, text in pages.items():
        if text != expected[src]:
            diffs.append("".join(difflib.unified_diff(expected[src].splitlines(True), text.splitlines(True), f"expected/{src}", f"generated/{src}")))
    assert not diffs, "\n".join(diffs)


def test_template_syntax_in_content_stays_literal():
    page = build(GOLDEN / "tiny", templates=TEMPLATES).pages["concepts/alpha.md"]
    assert "{{ not_a_variable }}" in page
    assert "{% if x %}块{% endif %}" in page
    assert "{# 注释 #}" in page
    assert r"$\frac{a}{b}$" in page and r"$\{x\}$" in page


def test_duplicate_report_counts_once():
    pages = build(GOLDEN / "tiny", templates=TEMPLATES).pages
    assert "被 **1** 篇面经问到" in pages["concepts/alpha.md"]
    assert "共 **2** 篇，去掉重复发布后 **1** 篇" in pages["reports/index.md"]
    assert "统计考频时只计一次" in pages["reports/r-two.md"]


def test_keywords_sorted_by_pinyin():
    page = build(GOLDEN / "tiny", templates=TEMPLATES).pages["keywords.md"]
    # 阿尔法 (a) < Alpha < 贝塔 (bei) < Beta; 甲 (jia) under J
    order = [page.index(f"[{term}]") for term in ("阿尔法", "Alpha", "贝塔", "Beta", "甲")]
    assert order == sorted(order)
    assert "## J {: #j }" in page


def test_json_for_a_script_element_holds_no_markup_characters_and_reads_back_the_same():
    from guide.render import script_json

    data = {"text": "</script><script>alert(1)</script> <!-- <script> & a<b>c", "n": [1, 2]}
    written = script_json(data)
    assert not set("<>&") & set(written)
    assert json.loads(written) == data


def test_a_report_shows_a_source_only_when_a_reader_can_open_it():
    pages = build(GOLDEN / "tiny", templates=TEMPLATES).pages
    assert "来源" not in pages["reports/r-one.md"] and "000_seed" not in pages["reports/r-one.md"]  # a seed file's name
    assert "**来源** [原帖](https://example.com/post/1)" in pages["reports/r-two.md"]
