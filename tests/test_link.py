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
    files["questions/q-two.md"] = question(concepts="[beta, gamma]")
    files["reports/r-three.md"] = report(company="initech", rounds="  - name: 一面\n    questions: [q-two]\n    topics: [alpha]\n")
    write_corpus(tmp_path, files)
    links = build(tmp_path, templates=TEMPLATES).links

    assert links.dependents["alpha"] == ["beta"]
    assert links.related["alpha"] == ["gamma"] and links.related["gamma"] == ["alpha"]  # symmetric
    assert links.mentioned_by["beta"] == ["gamma"]
    assert links.questions_of["beta"] == ["q-two"]
    assert links.asked_in["q-one"] == ["r-one", "r-two"]          # the duplicate did ask it
    assert links.reports_of["alpha"] == ["r-one", "r-three"]       # ...but counts once, as r-one
    assert links.reports_of["gamma"] == ["r-three"]
    assert links.duplicates == {"r-one": ["r-two"]}
    assert links.learning_order["basics"] == ["alpha", "beta"]


def test_learning_order_puts_prerequisites_first(tmp_path):
    files = {
        "concepts/a-last.md": concept(extra="prerequisites: [z-first]\n"),
        "concepts/m-middle.md": concept(extra="prerequisites: [z-first]\n"),
        "concepts/z-first.md": concept(),
        "questions/q-one.md": question(concepts="[z-first]"),
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
