"""What only a browser can show: formulas typeset by the site's own KaTeX, backlinks on the page."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_concept_page_typesets_formulas_and_shows_backlinks(page, site_url):
    page.goto(site_url + "concepts/ppo-clip/")
    page.wait_for_selector(".katex")
    formulas = page.locator(".arithmatex")
    assert formulas.count() > 10
    untypeset = page.evaluate("""() => [...document.querySelectorAll('.arithmatex')]
        .filter(el => !el.querySelector('.katex')).map(el => el.textContent)""")
    assert untypeset == []
    assert page.locator(".katex-error").count() == 0
    assert page.locator("h2#面试中被问到").count() == 1
    asked = page.locator("h2#面试中被问到 ~ * a[href*='questions/']")
    assert asked.count() >= 2
    assert page.locator("h2#知识关联 + ul").inner_text().count("GRPO") >= 1  # "builds on this" backlink
    assert page.outside_requests == [] and page.js_errors == []


def test_backlink_leads_to_the_question_and_back(page, site_url):
    page.goto(site_url + "concepts/ppo-clip/")
    page.locator("h2#面试中被问到 ~ * a[href*='questions/']", has_text="取 min").first.click()
    page.wait_for_url("**/questions/ppo-why-min/")
    assert "取 min" in page.locator("h1").inner_text()
    page.locator("h2#相关知识点 + ul a", has_text="PPO 裁剪目标").click()
    page.wait_for_url("**/concepts/ppo-clip/")
    page.wait_for_selector(".katex")  # typeset in the page as built
    assert page.js_errors == []
