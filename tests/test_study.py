"""Study mode in a real browser: folded answers, spaced review scheduled by ts-fsrs (checked against
the Python fsrs package), progress that survives a reload and migrates from the old 会/不会 marks,
the mock interview that follows up, and the whole guide offline."""
from __future__ import annotations

import datetime as dt
import functools
import http.server
import json
import re
import shutil
import threading
from pathlib import Path

import fsrs
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
    assert briefs.count() >= 300
    assert page.locator("details.brief[open]").count() == 0


# --- FSRS: ts-fsrs in the browser against the Python fsrs package ----------------------------------

DAY = 1440
STEPS = [  # (minutes since the previous review, rating): a question learned, forgotten, relearned, mastered
    (0, 3), (10, 3), (3 * DAY, 3), (9 * DAY, 2), (8 * DAY, 1), (10, 3), (5 * DAY, 3), (15 * DAY, 4), (80 * DAY, 3),
    (280 * DAY, 1), (10, 3), (30 * DAY, 3),
]
LOG = [(sum(m for m, _ in STEPS[: i + 1]) / DAY, rating) for i, (_, rating) in enumerate(STEPS)]
"""(days after the first review, rating). Day-scale reviews fall at whole days after the review
before them: both implementations count elapsed whole days, and so agree exactly."""


START = dt.datetime(2026, 1, 1, 9, tzinfo=dt.timezone.utc).timestamp()


def python_schedule(log):
    scheduler = fsrs.Scheduler(enable_fuzzing=False)
    card = fsrs.Card(due=dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc))
    start = dt.datetime(2026, 1, 1, 9, tzinfo=dt.timezone.utc)
    out = []
    for days, rating in log:
        now = start + dt.timedelta(days=days)
        card, _ = scheduler.review_card(card, fsrs.Rating(rating), now)
        out.append({"due": card.due.timestamp(), "stability": card.stability, "difficulty": card.difficulty})
    return out


def test_the_guides_review_schedule_matches_the_python_fsrs_package(page, site_url):
    """Grades given through practice.js itself (its scheduler settings, its stored cards), read back
    from what it stored, against an independent FSRS implementation."""
    page.goto(site_url + "practice/")
    page.wait_for_selector("#practice[data-ready=true]")
    browser = page.evaluate("""async (log) => {
        const P = window.guideProgress, s = await P.withScheduler();
        const progress = P.empty(), start = Date.UTC(2026, 0, 1, 9);
        return log.map(([days, rating]) => {
            P.grade(s, progress, "card", rating, new Date(start + days * 86400e3));
            const stored = JSON.parse(localStorage.getItem("guide-progress-v2")).cards.card;
            return {due: new Date(stored.due).getTime() / 1000, stability: stored.stability, difficulty: stored.difficulty};
        });
    }""", LOG)
    expected = python_schedule(LOG)
    for step, (got, want) in enumerate(zip(browser, expected)):
        assert got["stability"] == pytest.approx(want["stability"], rel=1e-6), step
        assert got["difficulty"] == pytest.approx(want["difficulty"], rel=1e-6), step
        # Intervals in days agree exactly; short-term learning steps within a minute (ts-fsrs
        # rounds a "困难" learning step to whole minutes, the Python package does not).
        assert abs(got["due"] - want["due"]) <= 60, (step, got, want)
    # The log reaches long intervals (months), where a difference in the model would show.
    assert max(e["due"] - (START + days * 86400) for e, (days, _) in zip(expected, LOG)) > 60 * 86400


def stored(page) -> dict:
    return page.evaluate("() => JSON.parse(localStorage.getItem('guide-progress-v2') || '{}')")


def test_todays_review_grades_with_four_buttons_showing_the_next_interval(page, site_url):
    page.goto(site_url + "practice/")
    page.wait_for_selector("#practice[data-ready=true]")
    assert page.inner_text("[data-count=due]") == "0" and page.inner_text("[data-count=new]") == "10"
    page.fill("input[name=new-per-day]", "3")
    page.dispatch_event("input[name=new-per-day]", "change")
    assert page.inner_text("[data-count=new]") == "3"
    page.click("[data-action=review]")
    assert page.inner_text(".guide-practice__count") == "第 1 / 3 题"
    first = page.get_attribute(".guide-practice__card", "data-question")
    first_page = page.get_attribute(".guide-practice__question a", "href")  # a question's page, or a coding task's
    # New questions come in the guide's learning order: a new reader starts at the first topic's
    # first concept, and the topics follow the order the guide teaches them in.
    cards = json.loads(page.inner_text("#practice-data"))["questions"]
    topics = page.eval_on_selector_all("select[name=topic] option", "os => os.map(o => o.value).filter(Boolean)")
    assert first == cards[0]["id"] and cards[0]["topic"] == topics[0]
    order = [topics.index(c["topic"]) for c in cards if c["topic"]]
    assert order == sorted(order)
    page.click("[data-action=reveal]")
    page.wait_for_selector(".guide-practice__full")  # the full answer, fetched from the question page
    labels = [page.inner_text(f"[data-rating='{r}']").split("\n") for r in (1, 2, 3, 4)]
    assert [label[0] for label in labels] == ["重来", "困难", "良好", "简单"]
    assert labels[0][1] == "1 分钟" and labels[3][1].endswith("天")  # a new card: relearn in a minute, or days away
    page.click("[data-rating='3']")
    page.keyboard.press(" ")
    page.keyboard.press("1")  # keyboard: reveal, then 重来
    progress = stored(page)
    assert progress["last"][first]["rating"] == 3 and progress["cards"][first]["reps"] == 1
    assert sorted(r["rating"] for r in progress["last"].values()) == [1, 3]
    assert sum(progress["newDays"].values()) == 2
    page.reload()
    page.wait_for_selector("#practice[data-ready=true]")
    assert page.inner_text("[data-count=new]") == "1"  # two of today's three new questions used
    page.goto(first_page)
    assert page.inner_text(f".guide-mark[data-question='{first}']") == "✓ 会"
    assert page.outside_requests == [] and page.js_errors == []


def test_a_cards_one_line_answer_typesets_its_formulas(page, site_url):
    def with_formula(route):  # the first new card's brief, given a formula as authors write them
        response = route.fetch()
        html = response.text()
        start = html.index('id="practice-data">') + len('id="practice-data">')
        end = html.index("</script>", start)
        data = json.loads(html[start:end])
        data["questions"][0]["brief"] = "熵 $H=-\\sum_i p_i\\log p_i$ 越低越确定"
        route.fulfill(response=response, body=html[:start] + json.dumps(data, ensure_ascii=False) + html[end:])

    page.route("**/practice/", with_formula)
    page.goto(site_url + "practice/")
    page.wait_for_selector("#practice[data-ready=true]")
    page.click("[data-action=review]")
    page.click("[data-action=reveal]")
    brief = page.locator(".guide-practice__answer > p").first
    brief.locator(".katex").wait_for()
    assert brief.locator(".katex-error").count() == 0
    assert brief.locator(".katex-mathml annotation").text_content() == "H=-\\sum_i p_i\\log p_i"
    assert "$" not in brief.inner_text() and brief.inner_text().startswith("一句话答案：熵")
    assert page.outside_requests == [] and page.js_errors == []


def test_old_marks_migrate_into_the_schedule_without_loss(page, site_url, tmp_path):
    old = {"version": 1, "questions": {"ppo-why-min": {"status": "known", "at": "2026-11-20T10:00:00.000Z"},
                                       "gae-lambda": {"status": "unknown", "at": "2026-11-30T10:00:00.000Z"}}}
    page.goto(site_url)
    page.evaluate("(old) => localStorage.setItem('guide-progress-v1', JSON.stringify(old))", old)
    page.goto(site_url + "questions/gae-lambda/")
    assert page.inner_text(".guide-mark[data-question='gae-lambda']") == "✗ 不会"  # marks read the migrated grades
    page.goto(site_url + "practice/")
    page.wait_for_selector("#practice[data-ready=true]")
    progress = stored(page)
    assert progress["last"]["ppo-why-min"]["rating"] == 3 and progress["last"]["gae-lambda"]["rating"] == 1
    # Each card was replayed from its one review, at the time the mark was given.
    assert progress["cards"]["ppo-why-min"]["last_review"].startswith("2026-11-20T10:00")
    assert progress["cards"]["gae-lambda"]["state"] in (1, 3)  # learning / relearning: due again soon
    assert json.loads(page.evaluate("localStorage.getItem('guide-progress-v1')")) == old  # the old key is kept
    # An exported file from before spaced review imports the same way.
    page.evaluate("() => localStorage.clear()")
    path = tmp_path / "old-progress.json"
    path.write_text(json.dumps(old), encoding="utf-8")
    page.reload()
    page.wait_for_selector("#practice[data-ready=true]")
    page.set_input_files("input[data-action=import]", str(path))
    page.wait_for_function("() => document.querySelector('.guide-practice__status').textContent.includes('已导入 2 条')")
    assert set(stored(page)["last"]) == {"ppo-why-min", "gae-lambda"}


def test_progress_exports_and_imports(page, site_url, tmp_path):
    page.goto(site_url + "practice/")
    page.wait_for_selector("#practice[data-ready=true]")
    page.select_option("select[name=topic]", "rlhf")
    page.click("[data-action=start]")
    qid = page.get_attribute(".guide-practice__card", "data-question")
    page.click("[data-action=reveal]")
    page.click("[data-rating='4']")
    with page.expect_download() as download:
        page.click("[data-action=export]")
    saved = tmp_path / "progress.json"
    download.value.save_as(saved)
    exported = json.loads(saved.read_text())
    assert exported["version"] == 2 and exported["last"][qid]["rating"] == 4 and exported["cards"][qid]["reps"] == 1
    page.evaluate("() => localStorage.clear()")
    page.reload()
    page.wait_for_selector("#practice[data-ready=true]")
    page.set_input_files("input[data-action=import]", str(saved))
    page.wait_for_function("() => document.querySelector('.guide-practice__status').textContent.includes('已导入')")
    assert stored(page)["cards"][qid] == exported["cards"][qid]
    assert page.locator(".guide-practice__progress tr[data-topic=rlhf] td").nth(1).inner_text() == "1"


def tap_plan_day(page, day: str) -> None:
    """Tap a plan day's circle where guide.css draws it: 1em left of the item, 0.75em below its top."""
    x, y = page.evaluate("""(day) => {
        const item = [...document.querySelectorAll('.guide-plan .task-list-item')].find(li => li.textContent.includes(day));
        item.scrollIntoView({block: 'center'});
        const box = item.getBoundingClientRect(), em = parseFloat(getComputedStyle(item).fontSize);
        return [box.left - em, box.top + 0.75 * em]; }""", day)
    page.touchscreen.tap(x, y)


def test_the_plans_days_tick_off_on_a_phone_and_travel_with_the_exported_progress(phone, site_url, tmp_path):
    page = phone(390)
    page.goto(site_url + "study-plan/")
    days = page.locator(".guide-plan .task-list-item")
    assert days.count() == 21 and page.locator(".guide-plan input[type=checkbox]:disabled").count() == 0
    assert page.inner_text(".guide-plan__count") == "已完成 0 / 21 天"
    tap_plan_day(page, "第 2 天")
    tap_plan_day(page, "第 9 天")
    tap_plan_day(page, "第 9 天")  # changed my mind
    page.reload()
    assert page.inner_text(".guide-plan__count") == "已完成 1 / 21 天"
    assert [days.nth(i).locator("input").is_checked() for i in (0, 1, 8)] == [False, True, False]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.goto(site_url + "practice/")
    page.wait_for_selector("#practice[data-ready=true]")
    with page.expect_download() as download:
        page.click("[data-action=export]")
    saved = tmp_path / "progress.json"
    download.value.save_as(saved)
    plan = json.loads(saved.read_text())["plan"]
    assert {day: entry["done"] for day, entry in plan.items()} == {"day-2": True, "day-9": False}
    page.evaluate("() => localStorage.clear()")
    page.reload()
    page.wait_for_selector("#practice[data-ready=true]")
    page.set_input_files("input[data-action=import]", str(saved))
    page.wait_for_function("() => document.querySelector('.guide-practice__status').textContent.includes('已导入 2 条')")
    page.goto(site_url + "study-plan/")
    assert page.inner_text(".guide-plan__count") == "已完成 1 / 21 天"


def test_retry_serves_only_what_went_badly(page, site_url):
    page.goto(site_url + "practice/")
    page.wait_for_selector("#practice[data-ready=true]")
    page.select_option("select[name=topic]", "policy-optimization")
    page.click("[data-action=start]")
    graded = {}
    for n in range(6):
        qid = page.get_attribute(".guide-practice__card", "data-question")
        page.click("[data-action=reveal]")
        rating = 1 if n % 2 else 4
        page.click(f"[data-rating='{rating}']")
        graded[qid] = rating
    bad = {q for q, r in graded.items() if r == 1}
    page.click("[data-action=retry]")
    served = set()
    while page.locator(".guide-practice__card").is_visible() and len(served) < 10:
        served.add(page.get_attribute(".guide-practice__card", "data-question"))
        page.click("[data-action=reveal]")
        page.click("[data-rating='4']")
    assert served == bad


# --- the mock interview ---------------------------------------------------------------------------

def test_the_mock_interview_follows_a_chain_and_sums_up_what_went_badly(page, site_url, built_site):
    page.goto(site_url + "mock/")
    page.wait_for_selector("#mock[data-ready=true]")
    data = json.loads(page.inner_text("#mock-data"))
    page.select_option("select[name=topic]", "policy-optimization")
    page.select_option("select[name=minutes]", "15")
    page.click("[data-action=begin]")
    assert page.inner_text(".guide-mock__timer").startswith("剩余 1")  # 15:00 counting down
    weak = []
    first = page.get_attribute(".guide-practice__card", "data-question")
    # Openings are drawn at random: find one that starts a chain with a follow-up not asked yet.
    while not [f for f in data["questions"][first]["follow_ups"] if f not in (*weak, first)]:
        page.click("[data-action=reveal]")
        page.click("[data-rating='1']")
        weak.append(first)
        first = page.get_attribute(".guide-practice__card", "data-question")
        assert len(weak) < 40
    page.click("[data-action=reveal]")
    page.click("[data-rating='3']")  # a good answer: the interviewer follows up
    second = page.get_attribute(".guide-practice__card", "data-question")
    assert second == [f for f in data["questions"][first]["follow_ups"] if f not in (*weak, first)][0]
    assert page.inner_text(".guide-practice__tag") == "追问"
    page.click("[data-action=reveal]")
    page.click("[data-rating='1']")  # a weak one: on to a new opening question
    third = page.get_attribute(".guide-practice__card", "data-question")
    # A new opening, not a follow-up (an opening may happen to be one of second's follow-ups too)
    assert page.query_selector(".guide-practice__tag") is None and "换个问题" in page.inner_text(".guide-practice__count")
    assert third not in (first, second, *weak)
    page.click("[data-action=finish]")
    summary = page.inner_text(".guide-mock__summary")
    concept = data["concepts"][data["questions"][second]["concept"]]
    assert "没答好的知识点" in summary and concept["title"] in summary and "其中追问 1 题" in summary
    links = page.eval_on_selector_all(".guide-mock__weak a", "as => as.map(a => new URL(a.href).pathname)")
    assert "/" + concept["url"] in links and "/" + concept["sheet"] in links
    ratings = stored(page)["last"]
    assert (ratings[first]["rating"], ratings[second]["rating"]) == (3, 1)  # the grades feed the schedule
    assert page.outside_requests == [] and page.js_errors == []


def test_two_mock_sessions_with_the_same_filter_open_differently(page, site_url):
    page.goto(site_url + "mock/")
    page.wait_for_selector("#mock[data-ready=true]")
    firsts = []
    for _ in range(4):
        page.select_option("select[name=topic]", "policy-optimization")
        page.click("[data-action=begin]")
        firsts.append(page.get_attribute(".guide-practice__card", "data-question"))
        page.click("[data-action=finish]")
    assert len(set(firsts)) >= 3, firsts
    recent = page.evaluate("() => JSON.parse(localStorage.getItem('guide-mock-recent'))")
    assert len(recent) == 3 and recent[0] == [firsts[-1]]  # the last sessions' questions, to open elsewhere next time
    assert page.js_errors == []


def test_a_mock_session_survives_a_reload_and_its_links_keep_it(page, site_url):
    page.goto(site_url + "mock/")
    page.wait_for_selector("#mock[data-ready=true]")
    page.click("[data-action=begin]")
    page.click("[data-action=reveal]")
    page.click("[data-rating='1']")
    current = page.get_attribute(".guide-practice__card", "data-question")
    clock = page.inner_text(".guide-mock__timer")
    assert page.get_attribute(".guide-practice__question a", "target") == "_blank"  # reading the page keeps the session
    page.reload()
    page.wait_for_selector("#mock[data-ready=true]")
    assert page.get_attribute(".guide-practice__card", "data-question") == current
    assert page.inner_text(".guide-practice__count").startswith("第 2 题")
    assert page.inner_text(".guide-mock__timer") <= clock  # the same clock, still running
    page.click("[data-action=reveal]")
    page.click("[data-rating='3']")
    page.click("[data-action=finish]")
    assert "共问了 2 题" in page.inner_text(".guide-mock__summary")  # one graded before the reload, one after
    page.reload()
    page.wait_for_selector("#mock[data-ready=true]")
    assert page.locator(".guide-practice__card").is_hidden()  # a finished session is not resumed
    assert page.js_errors == []


@pytest.mark.browser
@pytest.mark.parametrize("width", [360, 390, 414])
def test_on_a_phone_the_grades_sit_in_reach_after_a_reveal(phone, site_url, width):
    page = phone(width, 780)
    page.goto(site_url + "practice/")
    page.wait_for_selector("#practice[data-ready=true]")
    page.click("[data-action=review]")
    reveal = page.locator("[data-action=reveal]").bounding_box()  # the card starts in sight, its button in reach
    assert reveal["y"] >= 0 and reveal["y"] + reveal["height"] <= 780 and reveal["width"] >= width * 0.7, reveal
    page.locator("[data-action=reveal]").tap()
    page.wait_for_selector(".guide-practice__full")  # the full answer, which pushes the grades down
    box = page.locator(".guide-practice__marks").bounding_box()
    assert box["y"] + box["height"] <= 780 + 1 and box["y"] >= 0, box
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_a_company_mock_draws_on_what_that_companys_reports_asked(page, site_url):
    page.goto(site_url + "mock/")
    page.wait_for_selector("#mock[data-ready=true]")
    data = json.loads(page.inner_text("#mock-data"))
    page.select_option("select[name=company]", "tencent")
    page.click("[data-action=begin]")
    first = page.get_attribute(".guide-practice__card", "data-question")
    assert first in data["companies"]["tencent"]


# --- the whole guide offline ----------------------------------------------------------------------

class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def served_copy(built_site, tmp_path):
    """A copy of the built site on its own server: the offline test may change it (a new build)."""
    site = tmp_path / "site"
    shutil.copytree(built_site, site)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield site, f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


def test_the_whole_guide_saved_offline_pages_search_and_sheets_work_without_the_network(browser, served_copy):
    site, url = served_copy
    summary = json.loads((site / "offline.json").read_text())
    assert summary["count"] > 1000 and summary["size"] > 10e6
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    control = page.locator("[data-offline-save]")
    page.wait_for_function("() => document.querySelector('[data-offline-save]').textContent.includes('MB')")
    assert "离线保存整个指南（约 " in control.inner_text()
    assert page.evaluate("() => navigator.serviceWorker.getRegistration().then(r => !!r)") is False  # nothing before the press
    control.click()
    # a real progress bar, on screen and moving, while the copy downloads
    page.wait_for_function("""() => { const bar = document.querySelector('progress.guide-offline__progress');
        return document.documentElement.dataset.offline === 'saved' || (!bar.hidden && bar.value > 0 && bar.getBoundingClientRect().width > 100); }""")
    assert page.evaluate("document.documentElement.dataset.offline") == "saved" or page.locator("progress.guide-offline__progress").is_visible()
    page.wait_for_function("document.documentElement.dataset.offline === 'saved'", timeout=240_000)
    assert control.inner_text().startswith("已离线保存")
    cached = page.evaluate("""() => caches.keys().then(n => caches.open(n.find(x => x.includes('precache'))))
        .then(c => c.keys()).then(k => k.length)""")
    assert cached == summary["count"]

    context.set_offline(True)
    # Every page, font, PDF and the deck, fetched with the network cut: all from the saved copy.
    wanted = sorted(p.relative_to(site).as_posix().removesuffix("index.html") for pattern in ("**/index.html", "**/*.woff2",
                                                                                              "pdf/*.pdf", "downloads/*")
                    for p in site.glob(pattern))
    failed = page.evaluate("""async (paths) => {
        const bad = [];
        for (const path of paths) {
            try { const r = await fetch(path); if (!r.ok) bad.push(path + ": " + r.status); } catch (e) { bad.push(path + ": " + e); }
        }
        return bad;
    }""", wanted)
    assert len(wanted) > 600 and failed == []
    page.reload()  # the home page offline still knows the copy's size
    page.wait_for_function("document.documentElement.dataset.offline === 'saved'")
    assert page.inner_text("[data-offline-save]").startswith(f"已离线保存（{summary['size'] / 1e6:.0f} MB）")
    page.goto(url + "concepts/cispo/")  # never visited
    assert page.title().startswith("CISPO")
    page.goto(url + "cheatsheets/rlhf/")
    assert "速查表" in page.inner_text("h1")
    page.goto(url + "coding/lru-cache/?h=LRU")  # a search result's link, with its highlight parameter
    assert page.title().startswith("手撕 LRU")
    page.goto(url)
    page.locator(".guide-search input[name=q]").click()
    page.keyboard.insert_text("熵坍塌")
    page.wait_for_function("(q) => document.querySelector('.md-search-result__list').dataset.query === q", arg="熵坍塌")
    found = page.eval_on_selector_all(".md-search-result__link", "links => links.map(a => new URL(a.href).pathname)")
    assert found[0] == "/concepts/entropy-collapse/"
    page.goto(url + "concepts/no-such-note/")  # an address the saved copy does not hold: the guide's own page
    assert page.inner_text("h1") == "没有这个页面" and page.locator("[data-when=offline]").is_visible()
    page.wait_for_function("() => document.documentElement.dataset.root === '/'")
    with page.expect_navigation():
        page.click("button[type=submit]")  # its search box, with the address's words, works offline too
    page.wait_for_function("() => document.querySelector('.md-search-result__list').dataset.query === 'no such note'")
    assert errors == []

    # A new build: the worker is versioned by the files' revisions; the reader is told an update is ready.
    context.set_offline(False)
    index = site / "concepts" / "cispo" / "index.html"
    index.write_text(index.read_text(encoding="utf-8").replace("</h1>", "（新版）</h1>", 1), encoding="utf-8")
    sw = site / "sw.js"
    text = sw.read_text(encoding="utf-8")
    assert "concepts/cispo/index.html" in text
    sw.write_text(text.replace('"concepts/cispo/index.html",revision:"', '"concepts/cispo/index.html",revision:"new-', 1), encoding="utf-8")
    page.goto(url + "about/")
    page.evaluate("() => navigator.serviceWorker.getRegistration().then(r => r.update())")
    page.wait_for_selector(".guide-update", timeout=120_000)
    with page.expect_navigation():  # the new worker takes over, then the page reloads itself
        page.click(".guide-update button")
    page.goto(url + "concepts/cispo/")
    context.set_offline(True)
    page.reload()
    assert "（新版）" in page.inner_text("h1")
    context.close()


def test_the_app_manifest_makes_the_guide_installable(page, site_url, built_site):
    manifest = json.loads((built_site / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["display"] == "standalone" and {i["sizes"] for i in manifest["icons"]} == {"192x192", "512x512"}
    for icon in manifest["icons"]:
        assert (built_site / icon["src"]).is_file()
    page.goto(site_url)
    assert page.get_attribute("link[rel=manifest]", "href").endswith("manifest.webmanifest")


def test_map_shows_every_concept_and_nodes_navigate(page, site_url):
    page.goto(site_url + "map/")
    ids = page.eval_on_selector_all(".concept-map a.map-node:not(.map-node--external)", "ns => ns.map(n => n.dataset.id)")
    assert len(ids) == len(set(ids)) >= 100  # every concept once, across the topic maps
    page.locator(".concept-map a.map-node[data-id=ppo-clip]:not(.map-node--external)").click()
    page.wait_for_url("**/concepts/ppo-clip/")
    assert page.inner_text("h1").startswith("PPO 裁剪目标")
    page.goto(site_url + "topics/policy-optimization/")
    page.locator(".concept-map a.map-node[data-id=grpo]").click()
    page.wait_for_url("**/concepts/grpo/")
    assert page.outside_requests == [] and page.js_errors == []


def test_the_map_reads_on_a_phone_drawn_at_its_size_panned_in_its_frame_with_a_list_beside_it(phone, site_url):
    page = phone(390)
    page.goto(site_url + "map/")
    label = page.locator(".concept-map a.map-node[data-id=ppo-clip]:not(.map-node--external) text").first
    label.scroll_into_view_if_needed()
    assert label.bounding_box()["height"] >= 12  # 13 px labels, not shrunk to the screen's width
    frame = page.locator(".concept-map-wrap").nth(1)
    assert frame.evaluate("f => f.scrollWidth > f.clientWidth")  # the frame pans; the page does not widen
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    lists = page.eval_on_selector_all(".concept-map-list a", "as => as.map(a => new URL(a.href).pathname + decodeURIComponent(new URL(a.href).hash))")
    assert len(lists) == page.locator(".concept-map-wrap").count() and "/topics/policy-optimization/#学习顺序" in lists
    page.locator(".concept-map-list a", has_text="策略优化算法").click()
    page.wait_for_url("**/topics/policy-optimization/#*")
    assert page.locator("h2#学习顺序 ~ table a", has_text="PPO 裁剪目标").count() >= 1


def precached(site: Path) -> set[str]:
    """The URLs (site-relative) in the worker's precache manifest."""
    return set(re.findall(r'\{url:"([^"]+)",revision:', (site / "sw.js").read_text(encoding="utf-8")))


def test_the_offline_copy_holds_every_page_font_and_download(built_site):
    held = precached(built_site)
    wanted = {p.relative_to(built_site).as_posix() for pattern in ("**/*.html", "**/*.woff2", "pdf/*.pdf", "downloads/*")
              for p in built_site.glob(pattern)}
    assert len([w for w in wanted if w.endswith(".woff2")]) >= 20 and len([w for w in wanted if w.endswith(".pdf")]) >= 10
    assert sorted(wanted - held) == []
    summary = json.loads((built_site / "offline.json").read_text(encoding="utf-8"))
    assert summary["count"] == len(held)
