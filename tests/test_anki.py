"""The Anki export: one note per question, tagged, with stable identity across builds."""
from __future__ import annotations

import html
import json
import re
import sqlite3
import time
import zipfile
from pathlib import Path

import pytest

from guide.anki import DECK_ID, MODEL_ID, write_deck
from guide.pipeline import Built, build

from conftest import ROOT

SITE = "https://example.org/rl-interview-guide/"
ASKED = "ppo-grpo-dpo-differences"
"""A question asked in reports of three companies and in one report without a company."""
ASKED_COMPANIES = {"baidu", "bigtech", "didi"}
FIELD_SEPARATOR = "\x1f"


@pytest.fixture(scope="module")
def built() -> Built:
    return build(ROOT)


def read_apkg(path: Path, workdir: Path) -> tuple[dict[str, dict], dict, list[tuple[int, int, int]]]:
    """Notes by guid ({id, tags, front, back, mid}), the col row's decks/models JSON, and (card id, note id, deck id)."""
    with zipfile.ZipFile(path) as archive:
        archive.extract("collection.anki2", workdir)
    db = sqlite3.connect(workdir / "collection.anki2")
    try:
        notes = {}
        for note_id, guid, mid, tags, flds in db.execute("SELECT id, guid, mid, tags, flds FROM notes"):
            front, back = flds.split(FIELD_SEPARATOR)
            notes[guid] = {"id": note_id, "mid": mid, "tags": tags.split(), "front": front, "back": back}
        decks, models = db.execute("SELECT decks, models FROM col").fetchone()
        cards = db.execute("SELECT id, nid, did FROM cards").fetchall()
    finally:
        db.close()
    return notes, {"decks": decks, "models": models}, cards


@pytest.fixture(scope="module")
def two_builds(built: Built, tmp_path_factory: pytest.TempPathFactory):
    results = []
    for name in ("first", "second"):
        work = tmp_path_factory.mktemp(f"anki-{name}")
        path = work / "guide.apkg"
        count = write_deck(built, SITE, path)
        assert count == len(built.corpus.questions) + len(built.corpus.coding)
        results.append(read_apkg(path, work))
    return results


@pytest.fixture(scope="module")
def notes(two_builds) -> dict[str, dict]:
    """The question notes (the coding tasks' notes are tagged kind::coding)."""
    return {g: n for g, n in two_builds[0][0].items() if "kind::coding" not in n["tags"]}


def by_front(notes: dict[str, dict], built: Built, question_id: str) -> dict:
    text = html.escape(built.corpus.questions[question_id].text)
    [note] = [n for n in notes.values() if n["front"] == text]
    return note


@pytest.mark.heavy
def test_one_note_and_one_card_per_question_and_coding_task(built, two_builds):
    notes, col, cards = two_builds[0]
    assert len(notes) == len(built.corpus.questions) + len(built.corpus.coding)
    assert len({n["id"] for n in notes.values()}) == len(notes)
    assert len(cards) == len(notes) and len({c[0] for c in cards}) == len(cards)
    assert {c[1] for c in cards} == {n["id"] for n in notes.values()}
    assert {c[2] for c in cards} == {DECK_ID}
    assert {n["mid"] for n in notes.values()} == {MODEL_ID}
    assert json.loads(col["decks"])[str(DECK_ID)]["name"] == built.corpus.guide.deck.name == "LLM 后训练与强化学习面试指南"
    assert str(MODEL_ID) in json.loads(col["models"])


def test_coding_tasks_pose_the_task_in_front_and_the_solution_behind(tmp_path):
    from test_coding import coding as coding_task, corpus

    built = build(corpus(tmp_path / "guide", {"clip-task": coding_task()}), templates=ROOT / "templates")
    assert write_deck(built, SITE, tmp_path / "deck.apkg") == len(built.corpus.questions) + 1
    coding = [n for n in read_apkg(tmp_path / "deck.apkg", tmp_path)[0].values() if "kind::coding" in n["tags"]]
    assert len(coding) == 1
    task = built.corpus.coding["clip-task"]
    [note] = [n for n in coding if html.escape(task.signature) in n["front"]]
    assert note["front"].startswith("手撕：") and "<pre" not in note["front"]  # the task, no code
    first_line = task.solution.code.strip().split("\n")[0]
    assert html.escape(first_line.split()[0]) in note["back"] and "<pre" in note["back"]  # the reference solution


@pytest.mark.heavy
def test_fronts_are_the_questions(built, notes):
    fronts = {n["front"] for n in notes.values()}
    assert fronts == {html.escape(q.text) for q in built.corpus.questions.values()}


@pytest.mark.heavy
def test_every_note_has_topic_and_difficulty_tags(built, notes):
    topics = {t.id for t in built.corpus.taxonomy.topics}
    difficulties = {d.id for d in built.corpus.taxonomy.difficulties}
    for note in notes.values():
        topic = [t for t in note["tags"] if t.startswith("topic::")]
        difficulty = [t for t in note["tags"] if t.startswith("difficulty::")]
        assert len(topic) == 1 and topic[0].removeprefix("topic::") in topics, note["tags"]
        assert len(difficulty) == 1 and difficulty[0].removeprefix("difficulty::") in difficulties, note["tags"]


@pytest.mark.heavy
def test_company_tags_follow_the_reports(built, notes):
    question = built.corpus.questions[ASKED]
    note = by_front(notes, built, ASKED)
    assert {t.removeprefix("company::") for t in note["tags"] if t.startswith("company::")} == ASKED_COMPANIES
    first = built.corpus.concepts[question.concepts[0]]
    assert f"topic::{first.topic}" in note["tags"]
    assert f"difficulty::{question.difficulty}" in note["tags"]
    # and every other note: exactly the companies of the reports that asked it
    for qid in built.corpus.questions:
        expected = {built.corpus.reports[r].company for r in built.links.asked_in[qid]} - {None}
        tags = by_front(notes, built, qid)["tags"]
        assert {t.removeprefix("company::") for t in tags if t.startswith("company::")} == expected, qid


@pytest.mark.heavy
def test_identity_is_stable_across_builds(two_builds):
    (first, _, first_cards), (second, _, second_cards) = two_builds
    assert first.keys() == second.keys()  # guids
    assert {g: n["id"] for g, n in first.items()} == {g: n["id"] for g, n in second.items()}
    assert sorted(first_cards) == sorted(second_cards)
    assert {g: (n["front"], n["back"], n["tags"]) for g, n in first.items()} == {
        g: (n["front"], n["back"], n["tags"]) for g, n in second.items()
    }


@pytest.mark.heavy
def test_back_has_brief_math_and_absolute_links(built, notes):
    question = built.corpus.questions[ASKED]
    assert "$" in question.body  # the test's premise: the answer has inline math
    back = by_front(notes, built, ASKED)["back"]
    assert html.escape(question.brief) in back
    assert r'<span class="arithmatex">\(' in back
    assert f'href="{SITE}concepts/' in back
    assert f'href="{SITE}questions/{ASKED}/"' in back


@pytest.mark.heavy
def test_no_md_links_remain(notes):
    for note in notes.values():
        assert not re.search(r'href="[^"]*\.md\b', note["back"]), note["front"]
        for href in re.findall(r'href="([^"]*)"', note["back"]):
            assert href.startswith(("https://", "http://")), href


@pytest.mark.heavy
def test_mod_time_is_the_build_time_unless_pinned(built, tmp_path):
    """Anki replaces an imported note only if the new copy's `mod` is newer: ids stay, `mod` moves."""

    def mods(path: Path) -> set[int]:
        with zipfile.ZipFile(path) as archive:
            archive.extract("collection.anki2", path.parent)
        db = sqlite3.connect(path.parent / "collection.anki2")
        try:
            return {mod for (mod,) in db.execute("SELECT mod FROM notes")}
        finally:
            db.close()

    (tmp_path / "pinned").mkdir()
    write_deck(built, SITE, tmp_path / "pinned" / "guide.apkg", timestamp=1_700_000_000)
    assert mods(tmp_path / "pinned" / "guide.apkg") == {1_700_000_000}
    (tmp_path / "now").mkdir()
    before = int(time.time())
    write_deck(built, SITE, tmp_path / "now" / "guide.apkg")
    [mod] = mods(tmp_path / "now" / "guide.apkg")
    assert before <= mod <= time.time()


@pytest.mark.heavy
def test_the_build_writes_the_deck_the_practice_page_links_to(built_site):
    html = (built_site / "practice" / "index.html").read_text(encoding="utf-8")
    href = re.search(r'href="([^"]+\.apkg)"', html).group(1)
    target = (built_site / "practice" / href).resolve()
    assert target == (built_site / "downloads" / "rl-interview-guide.apkg").resolve() and target.stat().st_size > 10_000
    with zipfile.ZipFile(target) as deck:
        assert "collection.anki2" in deck.namelist()


def test_answer_html_in_the_deck_goes_through_the_sanitiser():
    """Anki runs a card's scripts: even HTML the content checks would have refused loses everything live."""
    from guide.anki import sanitise

    dirty = ('<p onclick="x()">答案 <img src=x onerror=alert(1)><script>alert(2)</script>'
             '<a href="javascript:alert(3)">链接</a> <a href="https://a.example/p">原文</a> <code class="py">f(x)</code></p>')
    assert sanitise(dirty) == ('<p>答案 <a>链接</a> <a href="https://a.example/p">原文</a> <code class="py">f(x)</code></p>')


def test_a_tiny_guides_deck_holds_each_questions_fields_tags_and_links_exactly(tmp_path):
    """One question whose answer links to a concept (by [[link]], by path, by relative path with a
    fragment) and holds markup and an outside link; asked in one report of a company."""
    from conftest import question, report, valid_files, write_corpus

    files = valid_files()
    files["concepts/beta.md"] = files["concepts/beta.md"].replace("topic: basics", "topic: basics\naliases: [B 概念]")
    files["questions/q-one.md"] = question(extra="related: [beta]\n", body=(
        "见 [[beta]]、[别处](/concepts/alpha.md) 与 [本节](../concepts/beta.md#直觉)。\n\n"
        "<span class=\"x\">点</span> & [外链](https://example.com/a)\n"))
    files["questions/q-two.md"] = question("beta").replace("问题？", "第二个 <问题>？").replace("difficulty: basic", "difficulty: advanced")
    files["reports/r-one.md"] = report(rounds="  - name: 一面\n    questions: [q-one, q-two]\n")
    files["reports/r-three.md"] = report("initech", rounds="  - name: 一面\n    questions: [q-two]\n")
    built = build(write_corpus(tmp_path / "guide", files), templates=ROOT / "templates")
    assert write_deck(built, "https://example.org/g", tmp_path / "deck.apkg", timestamp=1_000) == 2
    notes, _, cards = read_apkg(tmp_path / "deck.apkg", tmp_path)
    by_id = {n["front"]: n for n in notes.values()}
    one, two = by_id["问题？"], by_id["第二个 &lt;问题&gt;？"]
    assert one["tags"] == ["topic::basics", "difficulty::basic", "company::acme"]
    assert two["tags"] == ["topic::basics", "difficulty::advanced", "company::acme", "company::initech"]
    site = "https://example.org/g/"
    assert one["back"] == (
        '<div class="brief">一句话答案。</div>\n<div class="answer">\n'
        f'<p>见 <a href="{site}concepts/beta/">贝塔</a>、<a href="{site}concepts/alpha/">别处</a> 与 '
        f'<a href="{site}concepts/beta/#直觉">本节</a>。</p>\n'
        '<p><span class="x">点</span> &amp; <a href="https://example.com/a">外链</a></p>\n</div>\n'
        f'<p class="source"><a href="{site}questions/q-one/">在指南中查看本题 →</a></p>')
    assert len(cards) == 2 and len({c[1] for c in cards}) == 2
