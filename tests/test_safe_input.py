"""Nothing an author writes runs as script in a reader's browser.

A tiny guide carries a script payload in every text field of every kind (concept, question,
report and its rounds, coding task, every taxonomy name) and links to every entity from bodies, so
each title also lands in other pages' links. The site is built, then every page, search, the
spaced review and the mock interview are opened in Chromium, and the Anki deck is read: no
payload may run, no injected element may exist, and text written with `<`, `&` and quotes must
read exactly as written.
"""
from __future__ import annotations

import functools
import html
import http.server
import json
import sqlite3
import threading
import zipfile
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

from conftest import CONCEPT_BODY, _QuietHandler, make_tiny_project, mkdocs_build
from test_coding import TASK_BODY

pytestmark = pytest.mark.browser


def payload(field: str) -> str:
    """Every way out of a context a field could land in, each calling __x(field) if it ever runs."""
    call = f"__x('{field}')"
    return (f"payload {field} A<0 <think> & \"q\" 's' </script><script>{call}</script>"
            f"<img src=x onerror=\"{call}\"><b id=\"inj-{field}\">b</b> [j](javascript:{call}) "
            f"a`<img src=x onerror={call}>`b \\`<img src=x onerror={call}>` $<img src=x onerror=alert(1)>$ "
            f"<!--> <img src=x onerror={call}> --> ]]><svg onload={call}> {{: onclick={call} }}")


EXACT = "A<0 与 <think> & \"引号\" 'x' *星* _下_ [方] {花} \\斜 | 竖 #井"
"""A title as an author might write it: every character must reach the reader as typed."""


def front(data: dict) -> str:
    return "---\n" + yaml.safe_dump(data, allow_unicode=True, sort_keys=False) + "---\n"


def payload_guide() -> tuple[dict[str, str], str]:
    taxonomy = {
        "topics": [{"id": "basics", "title": payload("topic.title"), "en": payload("topic.en"),
                    "summary": payload("topic.summary")}],
        "companies": [{"id": "acme", "name": payload("company.name"), "en": payload("company.en"),
                       "teams": [payload("company.team")]}],
        "difficulties": [{"id": "basic", "title": payload("difficulty.title")}],
        "coding_kinds": [{"id": "numerics", "title": payload("coding_kind.title")}],
    }
    links = "见 [[alpha]]、[[exact]]、[[q-one]]、[[r-one]] 和 [[clip]]。\n\n"
    body = CONCEPT_BODY.replace("一句话定义。", "一句话定义。" + links)
    concept = {"title": payload("concept.title"), "en": payload("concept.en"), "aliases": [payload("concept.alias")],
               "topic": "basics", "tags": [payload("concept.tag")], "difficulty": "basic",
               "summary": payload("concept.summary"),
               "references": [{"title": payload("reference.title"), "year": 2024,
                               "url": "https://example.org/a)<img src=x onerror=__x('reference.url')>"}]}
    exact = {"title": EXACT, "en": "Exact", "topic": "basics", "difficulty": "basic", "summary": "原样显示。"}
    question = {"text": payload("question.text"), "brief": payload("question.brief"), "primary": "alpha",
                "difficulty": "basic"}
    report = {"title": payload("report.title"), "company": "acme", "team": payload("company.team"),
              "role": payload("report.role"), "date": "2025-03", "source": payload("report.source"),
              "summary": payload("report.summary"),
              "rounds": [{"name": payload("round.name"), "questions": ["q-one"], "topics": ["exact"], "coding": ["clip"],
                          "other": [payload("round.other")]}]}
    task = {"title": payload("coding.title"), "en": payload("coding.en"), "kind": "numerics",
            "aliases": [payload("coding.alias")], "concepts": ["alpha"], "difficulty": "basic",
            "summary": payload("coding.summary"), "signature": payload("coding.signature")}
    files = {
        "concepts/alpha.md": front(concept) + body,
        "concepts/exact.md": front(exact) + body,
        "questions/q-one.md": front(question) + "答案。" + links,
        "reports/r-one.md": front(report) + links,
        "coding/clip.md": front(task) + TASK_BODY.replace("## 题目\n\n", "## 题目\n\n" + links),
    }
    return files, yaml.safe_dump(taxonomy, allow_unicode=True, sort_keys=False)


@pytest.fixture(scope="module")
def payload_site(tmp_path_factory):
    files, taxonomy = payload_guide()
    project = make_tiny_project(tmp_path_factory.mktemp("payload"), files)
    (project / "content" / "taxonomy.yml").write_text(taxonomy, encoding="utf-8")
    (project / "docs" / "index.md").write_text("# 首页\n\n见 [[alpha]] 和 [[exact]]。\n", encoding="utf-8")
    site = project / "site"
    result = mkdocs_build(project, site)
    assert result.returncode == 0, result.stdout + result.stderr
    return site


@pytest.fixture(scope="module")
def payload_url(payload_site):
    handler = functools.partial(_QuietHandler, directory=str(payload_site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


@pytest.fixture
def reader(browser):
    """A page that records every payload that runs, every dialog and every script error."""
    context = browser.new_context()
    context.add_init_script("window.__ran = []; window.__x = function (f) { window.__ran.push(f); };")
    pg = context.new_page()
    pg.dialogs = []
    pg.errors = []

    def dialog(d):
        pg.dialogs.append(d.message)
        d.dismiss()

    pg.on("dialog", dialog)
    pg.on("pageerror", lambda err: pg.errors.append(str(err)))
    yield pg
    context.close()


INJECTED = """() => {
  const found = [];
  for (const el of document.querySelectorAll('*')) {
    if (el.id && el.id.startsWith('inj-')) found.push('element #' + el.id);
    if (el.tagName === 'IMG' && el.getAttribute('src') === 'x') found.push('img src=x');
    for (const a of el.attributes) if (a.name.startsWith('on')) found.push(a.name + ' on ' + el.tagName);
    for (const name of ['href', 'src', 'action', 'xlink:href']) {
      const value = el.getAttribute(name);
      if (value && /^\\s*javascript:/i.test(value.replace(/[\\u0000-\\u0020]/g, ''))) found.push(name + '=' + value + ' on ' + el.tagName);
    }
  }
  return {found, ran: window.__ran};
}"""


def assert_clean(pg, where: str) -> None:
    state = pg.evaluate(INJECTED)
    assert state == {"found": [], "ran": []} and pg.dialogs == [], f"{where}: {state}, dialogs {pg.dialogs}"


def test_no_payload_runs_or_injects_markup_on_any_page(reader, payload_site, payload_url):
    pages = sorted(p.relative_to(payload_site).parent.as_posix() for p in payload_site.rglob("index.html")
                   if "pagefind" not in p.parts)
    assert len(pages) >= 20, pages
    for path in pages:
        url = payload_url + ("" if path == "." else path + "/")
        reader.goto(url)
        reader.wait_for_load_state("load")
        assert_clean(reader, path)
    assert reader.errors == []


def test_text_with_markup_characters_reads_exactly_as_written(reader, payload_url):
    reader.goto(payload_url + "concepts/exact/")
    assert reader.inner_text("article h1").rstrip("¶").strip() == EXACT
    assert reader.title() == EXACT + " - LLM 后训练与强化学习面试指南"
    assert reader.inner_text(".md-header__topic[data-md-component=header-topic]").strip() == EXACT
    reader.goto(payload_url)
    assert reader.locator("article a", has_text="与").first.inner_text() == EXACT  # a [[link]] by its title
    reader.goto(payload_url + "concepts/alpha/")
    assert reader.inner_text("article h1").startswith("payload concept.title A<0 <think> & \"q\" 's' </script><script>")


def test_search_results_show_the_text_and_run_nothing(reader, payload_url):
    reader.goto(payload_url)
    reader.keyboard.press("/")
    box = reader.locator(".guide-search input[name=q]")
    box.fill("think")
    reader.wait_for_selector(".md-search-result__item")
    titles = reader.locator(".md-search-result__item h1").all_inner_texts()
    assert EXACT in titles, titles
    assert any(t.startswith("payload concept.title A<0 <think>") for t in titles), titles
    assert_clean(reader, "search for 'think'")
    box.fill("payload")
    reader.wait_for_function("() => document.querySelectorAll('.md-search-result__item').length >= 5")
    assert_clean(reader, "search for 'payload'")


def test_review_and_mock_interview_show_the_text_and_run_nothing(reader, payload_url):
    reader.goto(payload_url + "practice/")
    reader.wait_for_selector("#practice[data-ready=true]")
    data = json.loads(reader.inner_text("#practice-data"))
    assert {q["id"] for q in data["questions"]} == {"q-one", "clip"}
    reader.click("[data-action=review]")
    for _ in range(2):
        reader.click("[data-action=reveal]")
        reader.wait_for_selector(".guide-practice__answer:not([hidden])")
        assert "payload" in reader.inner_text(".guide-practice__card")
        assert_clean(reader, "practice card")
        reader.click("[data-rating='1']")
    reader.goto(payload_url + "mock/")
    reader.wait_for_selector("#mock[data-ready=true]")
    reader.click("[data-action=begin]")
    assert reader.inner_text(".guide-practice__question").startswith("payload question.text A<0 <think>")
    reader.click("[data-action=reveal]")
    reader.click("[data-rating='1']")  # the only question: the mock sums up
    reader.wait_for_selector(".guide-mock__summary:not([hidden])")
    assert "payload concept.title" in reader.inner_text(".guide-mock__summary")
    assert_clean(reader, "mock interview")
    assert reader.errors == []


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        names = dict(attrs)
        if tag in ("script", "img", "svg", "iframe") or (names.get("id") or "").startswith("inj-") \
                or any(a.startswith("on") for a in names) or (names.get("href") or "").startswith("javascript"):
            self.found.append(f"<{tag} {attrs}>")


def test_the_anki_deck_holds_no_live_markup(payload_site, tmp_path):
    with zipfile.ZipFile(payload_site / "downloads" / "rl-interview-guide.apkg") as deck:
        (tmp_path / "c.anki2").write_bytes(deck.read("collection.anki2"))
    fields = [f for (flds,) in sqlite3.connect(tmp_path / "c.anki2").execute("select flds from notes") for f in flds.split("\x1f")]
    assert len(fields) >= 4
    for field in fields:
        scan = _Elements()
        scan.feed(field)
        assert scan.found == [], field
    assert any("payload question.text A<0 <think>" in html.unescape(f) for f in fields)
