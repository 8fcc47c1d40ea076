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


def test_the_home_page_links_the_plan_and_the_deck_and_hints_at_slash_only_with_a_keyboard(page, phone, site_url, built_site):
    page.goto(site_url)
    for label, target in (("三周备考计划", "study-plan/"), ("Anki 牌组", "downloads/rl-interview-guide.apkg")):
        href = page.locator(".md-content a", has_text=label).first.get_attribute("href")
        assert (built_site / target).exists() and page.evaluate("h => new URL(h, location.href).pathname", href) == "/" + target
    assert page.locator(".guide-keyhint kbd", has_text="/").is_visible()
    touch = phone(390)
    touch.goto(site_url)
    assert touch.locator(".md-content", has_text="点右上角的搜索框").is_visible()
    assert not touch.locator(".guide-keyhint").is_visible()
