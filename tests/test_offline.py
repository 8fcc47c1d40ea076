"""Every page of the site, opened with every request to another host refused: no outside request,
no JavaScript error, and every formula typeset by the site's own KaTeX. (Reading the guide with the
network cut is tests/test_study.py's saved-offline test.)"""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

UNTYPESET = """() => [...document.querySelectorAll('.arithmatex')]
    .filter(el => !el.querySelector('.katex')).map(el => el.textContent.trim().slice(0, 80))"""


def test_every_page_needs_only_the_sites_own_files_and_typesets_its_formulas(page, site_url, built_site):
    paths = sorted(p.relative_to(built_site).parent.as_posix() for p in built_site.rglob("index.html"))
    assert len(paths) > 300
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
