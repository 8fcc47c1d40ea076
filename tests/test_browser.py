"""What only a browser can show: formulas typeset by the site's own KaTeX, backlinks on the page."""
from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path

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


def test_review_and_mock_name_their_shortcut_keys_only_with_a_keyboard(page, phone, site_url):
    touch = phone(390)
    for path in ("practice/", "mock/"):
        page.goto(site_url + path)
        assert page.locator(".guide-practice__status .guide-keyhint", has_text="空格显示答案").is_visible()
        touch.goto(site_url + path)
        status = touch.locator(".guide-practice__status")
        assert status.is_visible() and "快捷键" not in status.inner_text()


class _Host(http.server.SimpleHTTPRequestHandler):
    """A static host such as GitHub Pages: the site under `mount`, its 404.html for any address it lacks."""
    mount = "/"

    def log_message(self, *args: object) -> None:
        pass

    def translate_path(self, path: str) -> str:
        if not path.startswith(self.mount):
            return str(Path(self.directory) / "no such file")
        return super().translate_path("/" + path[len(self.mount):])

    def send_error(self, code, message=None, explain=None):
        if code != 404:
            return super().send_error(code, message, explain)
        body = (Path(self.directory) / "404.html").read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.mark.parametrize("mount", ["/", "/some/base/"])
def test_the_404_page_speaks_chinese_looks_right_and_leads_home_to_search_and_topics_under_any_base(browser, built_site, mount):
    handler = functools.partial(type("Host", (_Host,), {"mount": mount}), directory=str(built_site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    elsewhere, errors = [], []
    page.on("request", lambda r: None if r.url.startswith(origin) else elsewhere.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    response = page.goto(origin + mount + "concepts/grpo-clip-nowhere/")
    assert response.status == 404 and page.inner_text("h1") == "没有这个页面"
    assert page.evaluate("getComputedStyle(document.querySelector('header')).backgroundColor") == "rgb(63, 81, 181)"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.wait_for_function("(m) => document.documentElement.dataset.root === m", arg=mount)
    links = page.eval_on_selector_all("main li a", "as => as.map(a => [a.textContent, new URL(a.href).pathname])")
    assert links == [["首页", mount], ["专题", mount + "topics/"], ["题库", mount + "questions/"], ["关键词索引", mount + "keywords/"]]
    assert all(page.request.get(origin + path).status == 200 for _, path in links)
    assert page.input_value("input[name=q]") == "grpo clip nowhere"  # the missing address's words
    page.fill("input[name=q]", "熵坍塌")
    with page.expect_navigation():
        page.click("button[type=submit]")  # the site's own search, opened with the words typed
    page.wait_for_function("() => document.querySelector('.md-search-result__list').dataset.query === '熵坍塌'")
    assert new_path(page.url) == mount
    first = page.eval_on_selector_all(".md-search-result__link", "links => links.map(a => new URL(a.href).pathname)")[0]
    assert first == mount + "concepts/entropy-collapse/"
    assert elsewhere == [] and errors == []
    context.close()
    server.shutdown()


def new_path(url: str) -> str:
    from urllib.parse import urlsplit
    return urlsplit(url).path


@pytest.mark.parametrize("width", [360, 414])
def test_coding_on_a_phone_reads_without_swiping_the_index_and_the_copy_button_covers_no_code(phone, site_url, built_site, width):
    page = phone(width)
    page.goto(site_url + "coding/")
    tasks = len(list((built_site / "coding").glob("*/index.html")))
    assert page.locator(".guide-tasks li").count() == tasks and page.locator(".md-content table").count() == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.goto(site_url + "coding/lru-cache/")
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    size, button, text = page.evaluate("""() => {
        const block = document.querySelector('details .highlight'), code = block.querySelector('code');
        const range = document.createRange(); range.selectNodeContents(code);
        const first = [...range.getClientRects()].find(r => r.width > 0);
        return [parseFloat(getComputedStyle(code).fontSize), block.querySelector('.md-code__button').getBoundingClientRect().bottom, first.top]; }""")
    assert size >= 12  # Material's nested em sizes gave 10.9 px
    assert button <= text + 1  # the button sits in a strip above the first line, not over it
    assert page.evaluate("document.documentElement.scrollWidth") <= width


PHONE_SCREENS = ["", "concepts/ppo-clip/", "questions/ppo-why-min/", "practice/", "mock/", "coding/", "coding/lru-cache/",
                 "study-plan/", "map/", "reports/", "stats/"]


@pytest.mark.parametrize("width", [360, 390, 414])
def test_no_screen_widens_the_page_on_a_phone_in_either_scheme(browser, site_url, width):
    """Each screen a reader uses, in use (search typed, a card revealed, a mock begun), light and dark."""
    wide = []
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport={"width": width, "height": 800}, is_mobile=True, has_touch=True, color_scheme=scheme)
        page = context.new_page()
        for path in PHONE_SCREENS:
            page.goto(site_url + path)
            if path == "practice/":
                page.wait_for_selector("#practice[data-ready=true]")
                page.click("[data-action=review]")
                page.click("[data-action=reveal]")
            elif path == "mock/":
                page.wait_for_selector("#mock[data-ready=true]")
                page.click("[data-action=begin]")
                page.click("[data-action=reveal]")
            elif path == "":
                page.click("label.md-header__button[for=__search]")
                page.locator(".guide-search input[name=q]").fill("reward hacking")
                page.wait_for_function("() => document.querySelector('.md-search-result__list').dataset.query === 'reward hacking'")
            page.wait_for_timeout(200)
            if page.evaluate("document.documentElement.scrollWidth") > width:
                wide.append(f"{scheme} /{path}: {page.evaluate('document.documentElement.scrollWidth')} px")
        context.close()
    assert wide == []
