"""The theme's behaviour without Material's bundle.js (docs/assets/js/theme.js and the palette
script in overrides/partials/javascripts/palette.html), in a real browser."""
from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser

PAGE = "concepts/ppo-clip/"
SCHEME = "() => document.body.getAttribute('data-md-color-scheme')"
VISIBLE_TOGGLES = "form[data-md-component=palette] label:not([hidden])"


def test_pages_load_the_guides_theme_script_not_materials_bundle(built_site):
    pages = {p: p.read_text(encoding="utf-8") for p in sorted(built_site.rglob("index.html"))}
    assert len(pages) > 300
    assert [p for p, html in pages.items() if "javascripts/bundle." in html] == []
    assert [p for p, html in pages.items() if "assets/js/theme.js" not in html] == []
    # Every highlighted code block has its copy button, aimed at its own code.
    blocks = buttons = 0
    for html in pages.values():
        blocks += html.count('<div class="highlight">')
        ids = re.findall(r'<pre id="(__code_\d+)">', html)
        targets = re.findall(r'data-clipboard-target="#(__code_\d+) &gt; code"', html)
        assert ids == targets and len(set(ids)) == len(ids)
        buttons += len(targets)
    assert blocks > 50 and buttons == blocks


def test_palette_follows_the_system_then_the_readers_choice(browser, site_url):
    context = browser.new_context(color_scheme="dark")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(site_url + PAGE)
    assert page.evaluate(SCHEME) == "slate"  # no saved choice: the system's dark setting
    toggles = page.locator(VISIBLE_TOGGLES)
    assert toggles.count() == 1 and toggles.get_attribute("title") == "切换到浅色模式"
    toggles.click()
    assert page.evaluate(SCHEME) == "default"
    assert page.locator(VISIBLE_TOGGLES).get_attribute("title") == "切换到深色模式"
    page.goto(site_url + "questions/")  # the choice is kept across pages and over the system's
    assert page.evaluate(SCHEME) == "default"
    assert page.locator(VISIBLE_TOGGLES).get_attribute("title") == "切换到深色模式"
    assert errors == []
    context.close()


def test_copy_button_copies_the_code_block(browser, site_url):
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(site_url + PAGE)
    block = page.locator(".highlight pre").first
    block.hover()
    block.locator("button.md-code__button").click()
    copied = page.evaluate("() => navigator.clipboard.readText()")
    code = block.locator("code").inner_text()
    assert copied.startswith("import numpy as np") and "def clip_objective_grad" in copied
    assert copied == code.rstrip("\n")
    assert "复制" not in copied  # the button's own text is not part of it
    page.wait_for_selector(".md-dialog--active", state="visible")
    assert page.locator(".md-dialog__inner").inner_text() == "已复制到剪贴板"
    page.emulate_media(media="print")  # on paper the button is not printed, the code is
    assert block.locator(".md-code__nav").is_hidden() and block.locator("code").is_visible()
    context.close()


def test_toc_header_and_back_to_top_follow_the_reader(page, site_url):
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(site_url + PAGE)
    active = ".md-sidebar--secondary .md-nav__link--active"
    title = "[data-md-component=header-title]"
    assert page.locator(active).count() == 0
    assert "md-header__title--active" not in page.locator(title).get_attribute("class")
    assert "md-header--shadow" not in page.locator("[data-md-component=header]").get_attribute("class")

    page.evaluate("document.getElementById('易错点').scrollIntoView()")
    page.wait_for_function("() => document.querySelector('.md-sidebar--secondary .md-nav__link--active')")
    assert page.locator(active).inner_text().strip() == "易错点"
    passed = page.locator(".md-sidebar--secondary .md-nav__link--passed").all_inner_texts()
    assert [t.strip() for t in passed][:2] == ["一句话", "直觉"] and passed[-1].strip() == "易错点"
    page.wait_for_function(f"() => document.querySelector('{title}').classList.contains('md-header__title--active')")
    page.wait_for_function("() => document.querySelector('[data-md-component=header]').classList.contains('md-header--shadow')")
    top = page.locator("[data-md-component=top]")
    assert top.get_attribute("hidden") is not None  # scrolling down: hidden

    page.mouse.wheel(0, -200)  # scrolling up, far from the top: offered
    page.wait_for_function("() => !document.querySelector('[data-md-component=top]').hidden")
    top.click()
    page.wait_for_function("() => window.scrollY === 0")
    page.wait_for_function(f"() => !document.querySelector('{title}').classList.contains('md-header__title--active')")
    page.wait_for_function("() => !document.querySelector('.md-sidebar--secondary .md-nav__link--active')")
    assert page.js_errors == []


CONTRAST_PAGES = ["", "concepts/ppo-clip/", "questions/ppo-why-min/", "practice/", "mock/", "coding/", "coding/lru-cache/",
                  "study-plan/", "reports/", "stats/"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_and_controls_reach_4_5_to_1_contrast_in_both_schemes(browser, site_url, scheme):
    """axe-core's color-contrast rule (npm, pinned) on the pages readers use most, a review card's
    grade buttons shown, in the reader's system scheme."""
    from conftest import ROOT

    axe = (ROOT / "node_modules" / "axe-core" / "axe.min.js").read_text(encoding="utf-8")
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    failures = []
    for path in CONTRAST_PAGES:
        page.goto(site_url + path)
        assert page.evaluate(SCHEME) == ("slate" if scheme == "dark" else "default")
        if path == "practice/":
            page.wait_for_selector("#practice[data-ready=true]")
            page.click("[data-action=review]")
            page.click("[data-action=reveal]")
        page.add_script_tag(content=axe)
        result = page.evaluate("() => axe.run(document, {runOnly: ['color-contrast']})")
        failures += [f"{path}: {node['target']} {node['any'][0]['message'][:90]}"
                     for violation in result["violations"] for node in violation["nodes"]]
    context.close()
    assert failures == []
