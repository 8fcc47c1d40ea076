"""Every page of the site needs only the site's own files and shows every formula typeset.

Formulas arrive typeset by the build (hooks/guide/formulas.py), so every page's HTML is read for a
formula left raw or one KaTeX refused. Pages of one kind share their template and scripts, so
Chromium opens every page that is not a concept, question or coding task, and an even spread of
those three (each kind's first and last among them), with every request to another host refused:
no outside request, no JavaScript error, nothing left for math.js to typeset. (Reading the guide
with the network cut is tests/test_study.py's saved-offline test.)"""
from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser

UNTYPESET = """() => [...document.querySelectorAll('.arithmatex')]
    .filter(el => !el.querySelector('.katex')).map(el => el.textContent.trim().slice(0, 80))"""
FORMULA = re.compile(r'<(?:span|div) class="arithmatex"[^>]*>(?!<span class="katex)([^<]{0,80})')
ITEM_KINDS = ("concepts", "questions", "coding")
PER_KIND = 15


def pages(built_site):
    return sorted(p.relative_to(built_site).parent.as_posix() for p in built_site.rglob("index.html"))


def opened_in_the_browser(paths):
    """Every page outside the three item kinds, and PER_KIND of each of those, spread evenly."""
    chosen = [p for p in paths if p.split("/")[0] not in ITEM_KINDS or p in ITEM_KINDS]  # the kinds' own index pages too
    for kind in ITEM_KINDS:
        items = [p for p in paths if p.split("/")[0] == kind and p != kind]
        step = max(1, (len(items) - 1) / (PER_KIND - 1))
        chosen += sorted({items[round(i * step)] for i in range(PER_KIND) if round(i * step) < len(items)} | {items[-1]})
    return chosen


def test_every_pages_formulas_are_typeset_in_its_html(built_site):
    paths = pages(built_site)
    assert len(paths) > 300
    failures = []
    for path in paths:
        html = (built_site / path / "index.html").read_text(encoding="utf-8")
        failures += [f"{path}: formula left untypeset: {raw!r}" for raw in FORMULA.findall(html)]
        if "katex-error" in html:
            failures.append(f"{path}: {html.count('katex-error')} formula(s) KaTeX could not typeset")
    assert failures == []


def test_a_formula_left_raw_would_be_found():
    assert FORMULA.findall('<p><span class="arithmatex">\\(x^2\\)</span> <span class="arithmatex"><span class="katex">')\
        == ["\\(x^2\\)"]


def test_a_page_of_every_kind_needs_only_the_sites_own_files_and_typesets_its_formulas(page, site_url, built_site):
    paths = opened_in_the_browser(pages(built_site))
    for kind in ITEM_KINDS:
        assert sum(p.startswith(kind + "/") for p in paths) >= PER_KIND - 1, kind
    failures = []
    for path in paths:
        url = site_url + ("" if path == "." else path + "/")
        page.goto(url, wait_until="load")
        untypeset = page.evaluate(UNTYPESET)
        if untypeset:
            page.wait_for_timeout(2_000)  # a slow machine may still be running the typesetter
            untypeset = page.evaluate(UNTYPESET)
        if untypeset:
            failures.append(f"{url}: formulas left untypeset: {untypeset}")
        errors = page.locator(".katex-error").count()
        if errors:
            failures.append(f"{url}: {errors} formula(s) KaTeX could not typeset")
    assert page.outside_requests == []
    assert page.js_errors == []
    assert failures == []
