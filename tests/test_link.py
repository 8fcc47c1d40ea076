"""The link stage: [[links]] resolve outside code and math; relations invert into backlinks."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import CONCEPT_BODY, ROOT, concept, question, report, valid_files, write_corpus
from guide.link import Target, resolve
from guide.pipeline import build

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
TABLE = {
    "ppo-clip": Target("concepts/ppo-clip.md", "PPO 裁剪目标", frozenset({"直觉", "为什么取-min"})),
    "q-min": Target("questions/q-min.md", "为什么取 min？", frozenset()),
}


@pytest.mark.parametrize(
    "source, expected",
    [
        ("见 [[ppo-clip]]。", "见 [PPO 裁剪目标](/concepts/ppo-clip.md)。"),
        ("见 [[ppo-clip|clip 机制]]。", "见 [clip 机制](/concepts/ppo-clip.md)。"),
        ("见 [[ppo-clip#为什么取-min]]。", "见 [PPO 裁剪目标](/concepts/ppo-clip.md#为什么取-min)。"),
        ("见 [[ ppo-clip#直觉 | 直觉 ]]。", "见 [直觉](/concepts/ppo-clip.md#直觉)。"),
        ("题 [[q-min]]", "题 [为什么取 min？](/questions/q-min.md)"),
        ("代码 `[[ppo-clip]]` 不变", "代码 `[[ppo-clip]]` 不变"),
        ("```python\nx = [[1]]\n```", "```python\nx = [[1]]\n```"),
        ("公式 $[[a]]$ 不变", "公式 $[[a]]$ 不变"),
        ("$$\n[[a, b]]\n$$", "$$\n[[a, b]]\n$$"),
    ],
)
def test_resolve(source, expected):
    text, _, found = resolve(source, "x.md", 1, TABLE)
    assert found == []
    assert text == expected


def test_unknown_ids_and_anchors_name_the_line(tmp_path):
    text, targets, found = resolve("第一行\n[[ppo-clp]] 和 [[ppo-clip#直绝对]]", "notes.md", 10, TABLE)
    assert [str(p) for p in found] == [
        "notes.md:11: link: unknown id 'ppo-clp' in [[ppo-clp]] (nearest: ppo-clip)",
        "notes.md:11: link: unknown anchor '#直绝对' in page 'ppo-clip' (anchors: 为什么取-min, 直觉)",
    ]
    assert targets == []


def test_backlinks_counts_and_duplicates(tmp_path):
    files = valid_files()
    files["concepts/gamma.md"] = concept("伽马", topic="advanced-topic", extra="related: [alpha]\n",
                                         body=CONCEPT_BODY.replace("直觉。", "建立在 [[beta]] 上。"))
    files["questions/q-two.md"] = question("beta", extra="related: [gamma]\n")
    files["reports/r-three.md"] = report(company="initech", rounds="  - name: 一面\n    questions: [q-two]\n    topics: [alpha]\n")
    write_corpus(tmp_path, files)
    links = build(tmp_path, templates=TEMPLATES).links

    assert links.dependents["alpha"] == ["beta"]
    assert links.related["alpha"] == ["gamma"] and links.related["gamma"] == ["alpha"]  # symmetric
    assert links.mentioned_by["beta"] == ["gamma"]
    assert links.questions_of["beta"] == ["q-two"]
    assert links.asked_in["q-one"] == ["r-one", "r-two"]          # the duplicate did ask it
    assert links.reports_of["alpha"] == ["r-one", "r-three"]       # ...but counts once, as r-one
    assert links.reports_of["beta"] == ["r-three"]                 # q-two tests beta
    assert links.reports_of["gamma"] == []                         # ...and only draws on gamma: not counted
    assert links.drawn_on_by["gamma"] == ["q-two"] and links.questions_of["gamma"] == []
    assert links.duplicates == {"r-one": ["r-two"]}
    assert links.learning_order["basics"] == ["alpha", "beta"]


def test_learning_order_puts_prerequisites_first(tmp_path):
    files = {
        "concepts/a-last.md": concept(extra="prerequisites: [z-first]\n"),
        "concepts/m-middle.md": concept(extra="prerequisites: [z-first]\n"),
        "concepts/z-first.md": concept(),
        "questions/q-one.md": question("z-first"),
        "reports/r-one.md": report(),
    }
    write_corpus(tmp_path, files)
    links = build(tmp_path, templates=TEMPLATES).links
    assert links.learning_order["basics"] == ["z-first", "a-last", "m-middle"]


def test_less_than_before_a_letter_in_math_cannot_open_a_tag(tmp_path):
    """Inside the folded answer (raw HTML with markdown), `$x_{<t}$` would start a tag `<t}$…>`."""
    files = valid_files()
    files["questions/q-one.md"] = question(extra="", body="答案 $\\pi(y_t|x,y_{<t})$，且 $0<p<1$。\n").replace(
        "brief: 一句话答案。", "brief: 用 $y_{<t}$ 预测。")
    write_corpus(tmp_path, files)
    page = build(tmp_path, templates=ROOT / "templates").pages["questions/q-one.md"]
    assert "$\\pi(y_t|x,y_{\\lt t})$" in page and "$y_{\\lt t}$" in page
    assert "$0\\lt p<1$" in page  # only '<' before a letter is rewritten
    assert "{<t}" not in page


def test_kaopin_counts_a_report_for_the_concept_a_question_tests_not_for_those_it_draws_on(tmp_path):
    """考频 attribution: two reports ask the same question (primary alpha, related beta); a third
    lists beta under topics. alpha is asked by two reports, beta by one, and the page says why."""
    files = valid_files()
    files["questions/q-one.md"] = question("alpha", extra="related: [beta]\n")
    files["reports/r-two.md"] = report(company="initech")  # not a duplicate now: a second report asking q-one
    files["reports/r-three.md"] = report(rounds="  - name: 一面\n    topics: [beta]\n")
    write_corpus(tmp_path, files)
    built = build(tmp_path, templates=TEMPLATES)
    assert {c: len(r) for c, r in built.links.reports_of.items()} == {"alpha": 2, "beta": 1}
    stats = built.pages["stats.md"]
    assert "| 1 | [阿尔法](/concepts/alpha.md) | [基础](/topics/basics.md) | 2 |" in stats
    assert "| 2 | [贝塔](/concepts/beta.md) | [基础](/topics/basics.md) | 1 |" in stats
    assert "答案里顺带用到的概念（题目的 related）不计入" in stats
    beta = built.pages["concepts/beta.md"]
    assert "答案也用到本概念的题（考的是别的概念，不计入考频）：[问题？](/questions/q-one.md)" in beta
    question_page = built.pages["questions/q-one.md"]
    assert "考查 [阿尔法](/concepts/alpha.md) · 也涉及 [贝塔](/concepts/beta.md)" in question_page


def test_follow_ups_show_what_comes_next_and_link_back(tmp_path):
    files = valid_files()
    files["questions/q-one.md"] = question(extra="follow_ups: [q-two, q-three]\n")
    files["questions/q-two.md"] = question("beta", extra="follow_ups: [q-three]\n").replace("问题？", "接着问？")
    files["questions/q-three.md"] = question("beta").replace("问题？", "再追问？")
    write_corpus(tmp_path, files)
    built = build(tmp_path, templates=TEMPLATES)
    assert built.links.leads_from["q-three"] == ["q-one", "q-two"]
    first = built.pages["questions/q-one.md"]
    assert "## 面试官可能接着问" in first
    assert "1. [接着问？](/questions/q-two.md)\n1. [再追问？](/questions/q-three.md)" in first
    last = built.pages["questions/q-three.md"]
    assert "这道题常是接着这些题问的：[问题？](/questions/q-one.md)、[接着问？](/questions/q-two.md)" in last
    assert "## 面试官可能接着问" not in built.pages["questions/q-one.md"].split("## 面试官可能接着问")[1]  # once


def test_kaopin_counts_a_repost_once_whether_it_asks_a_question_or_lists_a_topic(tmp_path):
    """r-two re-posts r-one: both ask q-one (primary alpha) and both list beta under topics. Each
    concept is asked by one report, through either branch of the count."""
    files = valid_files()
    rounds = "  - name: 一面\n    questions: [q-one]\n    topics: [beta]\n"
    files["reports/r-one.md"] = report(rounds=rounds)
    files["reports/r-two.md"] = report(rounds=rounds, extra="duplicate_of: r-one\n")
    write_corpus(tmp_path, files)
    links = build(tmp_path, templates=TEMPLATES).links
    assert links.reports_of == {"alpha": ["r-one"], "beta": ["r-one"]}
    assert links.asked_in["q-one"] == ["r-one", "r-two"]  # where it was asked: both posts are shown


def test_a_linked_title_stays_text_inside_its_link():
    """A title holding ] or markup cannot end the link early or become markup: the label is text."""
    table = {"odd": Target("concepts/odd.md", "a] (b) [c <d> *e* `f`", frozenset())}
    text, _, found = resolve("见 [[odd]] 与 [[odd|x]y]]。", "x.md", 1, table)
    assert found == []
    assert text == ("见 [a&#93; (b) &#91;c &lt;d&gt; &#42;e&#42; <code>f</code>](/concepts/odd.md) 与 [[odd|x]y]]。")
