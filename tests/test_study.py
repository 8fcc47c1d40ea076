"""Study mode in a real browser: folded answers, the drill, progress that survives a reload."""
from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.browser


def test_answers_are_folded_on_question_pages_and_in_the_bank(page, site_url):
    page.goto(site_url + "questions/ppo-why-min/")
    answer = page.locator("details.guide-answer")
    assert answer.get_attribute("open") is None
    assert page.locator("details.guide-answer p").first.is_hidden()
    answer.locator("summary").click()
    assert page.locator("details.guide-answer p").first.is_visible()
    page.goto(site_url + "questions/")
    briefs = page.locator("details.brief")
    assert briefs.count() >= 150
    assert page.locator("details.brief[open]").count() == 0


def start(page, topic: str) -> None:
    page.select_option("select[name=topic]", topic)
    page.click("[data-action=start]")


def current(page) -> str:
    return page.get_attribute(".guide-practice__card", "data-question")


def stored(page) -> dict:
    return page.evaluate("() => JSON.parse(localStorage.getItem('guide-progress-v1') || '{}')").get("questions", {})


def test_drill_reveal_mark_and_reload(page, site_url):
    page.goto(site_url + "practice/")
    total = page.evaluate("""() => JSON.parse(document.getElementById('practice-data').textContent)
        .questions.filter(q => q.topic === 'rl-foundations').length""")
    start(page, "rl-foundations")
    assert page.inner_text(".guide-practice__count") == f"第 1 / {total} 题"
    first = current(page)
    assert page.locator(".guide-practice__answer").is_hidden()
    page.click("[data-action=reveal]")
    page.wait_for_selector(".guide-practice__full")  # the full answer, fetched from the question page
    assert page.locator(".guide-practice__answer").is_visible()
    assert page.locator(".guide-practice__full .katex, .guide-practice__full p").count() > 0
    page.click("[data-action=known]")
    assert page.inner_text(".guide-practice__count") == f"第 2 / {total} 题" and current(page) != first
    second = current(page)
    page.keyboard.press(" ")
    page.keyboard.press("2")  # keyboard: reveal, then mark unknown
    assert stored(page) == {first: {"status": "known", "at": stored(page)[first]["at"]},
                            second: {"status": "unknown", "at": stored(page)[second]["at"]}}

    page.reload()
    row = page.locator(".guide-practice__progress tr[data-topic=rl-foundations] td")
    assert row.all_inner_texts() == ["强化学习基础", "1", "1", str(total - 2)]
    page.goto(site_url + "questions/" + first + "/")
    assert page.inner_text(f".guide-mark[data-question='{first}']") == "✓ 会"
    page.goto(site_url + "topics/rl-foundations/")
    assert page.inner_text(".guide-progress") == f"练习进度：会 1 / 不会 1 / 共 {total}"
    assert page.outside_requests == [] and page.js_errors == []


def test_retry_serves_only_unknown_questions(page, site_url):
    page.goto(site_url + "practice/")
    start(page, "policy-optimization")
    marked = {}
    for n in range(6):
        qid = current(page)
        page.click("[data-action=reveal]")
        verdict = "unknown" if n % 2 else "known"
        page.click(f"[data-action={verdict}]")
        marked[qid] = verdict
    unknown = {q for q, v in marked.items() if v == "unknown"}
    page.click("[data-action=retry]")
    served = set()
    while page.locator(".guide-practice__card").is_visible():
        served.add(current(page))
        page.click("[data-action=reveal]")
        page.click("[data-action=unknown]")
    assert served == unknown
    assert "这一轮完成" in page.inner_text(".guide-practice__status")


def test_progress_exports_and_imports(page, site_url, tmp_path):
    page.goto(site_url + "practice/")
    start(page, "rlhf")
    qid = current(page)
    page.click("[data-action=reveal]")
    page.click("[data-action=known]")
    with page.expect_download() as download:
        page.click("[data-action=export]")
    saved = tmp_path / "progress.json"
    download.value.save_as(saved)
    assert json.loads(saved.read_text())["questions"][qid]["status"] == "known"

    page.evaluate("() => localStorage.clear()")
    page.reload()
    assert stored(page) == {}
    page.set_input_files("input[data-action=import]", str(saved))
    page.wait_for_function("() => document.querySelector('.guide-practice__status').textContent.includes('已导入')")
    assert stored(page)[qid]["status"] == "known"
    assert page.locator(".guide-practice__progress tr[data-topic=rlhf] td").nth(1).inner_text() == "1"


def test_map_shows_every_concept_and_nodes_navigate(page, site_url):
    page.goto(site_url + "map/")
    ids = page.eval_on_selector_all(".concept-map a.map-node:not(.map-node--external)", "ns => ns.map(n => n.dataset.id)")
    assert len(ids) == len(set(ids)) >= 45  # every concept once, across the topic maps
    page.locator(".concept-map a.map-node[data-id=ppo-clip]:not(.map-node--external)").click()
    page.wait_for_url("**/concepts/ppo-clip/")
    assert page.inner_text("h1").startswith("PPO 裁剪目标")
    page.goto(site_url + "topics/policy-optimization/")
    page.locator(".concept-map a.map-node[data-id=grpo]").click()
    page.wait_for_url("**/concepts/grpo/")
    assert page.outside_requests == [] and page.js_errors == []
