"""Coding tasks (手撕): validated section by section, every solution run against its checks at every
build, every planted bug caught by them, and pages that fold the solution until it is opened."""
from __future__ import annotations

import re

import pytest

from conftest import ROOT, concept, report, valid_files, write_corpus
from guide.errors import ContentError
from guide.pipeline import build, corpus_snippets

TEMPLATES = ROOT / "templates"

TASK_BODY = """\
## 题目

实现 `clip(x, lo, hi)`：把数组裁到 `[lo, hi]`。

## 参考解

```python
import numpy as np

def clip(x, lo, hi):
    x = np.asarray(x, dtype=float)
    return np.minimum(np.maximum(x, lo), hi)
```

## 检验

```python
naive = lambda v, lo, hi: [min(max(e, lo), hi) for e in v]
values = [-3.0, -1.0, 0.0, 0.5, 2.0, 9.0]
assert list(clip(values, -1.0, 1.0)) == naive(values, -1.0, 1.0)
assert clip([], 0.0, 1.0).shape == (0,)
```

## 复杂度

- $O(n)$ 时间。

## 边界情况

- 空数组返回空数组。

## 常见 bug

- 先取 min 再取 max 的顺序写反不影响结果，但把 `maximum` 写成 `minimum` 就裁错了。
  ```diff
  -    return np.minimum(np.maximum(x, lo), hi)
  +    return np.minimum(np.minimum(x, lo), hi)
  ```

## 追问

- 原地裁剪怎么写？——`np.clip(x, lo, hi, out=x)`。
"""


def coding(body: str = TASK_BODY, extra: str = "") -> str:
    return ("---\ntitle: 手撕 clip\nen: Clip\nkind: numerics\naliases: [裁剪函数]\nconcepts: [alpha]\ndifficulty: basic\n"
            f"summary: 逐元素裁剪。\nsignature: \"clip(x, lo, hi) -> np.ndarray\"\n{extra}---\n{body}")


def corpus(tmp_path, tasks: dict[str, str], reports: dict[str, str] | None = None):
    from conftest import TAXONOMY
    files = valid_files()
    files.update({f"coding/{k}.md": v for k, v in tasks.items()})
    files.update(reports or {})
    write_corpus(tmp_path, files, taxonomy=TAXONOMY + "coding_kinds:\n  - id: numerics\n    title: 数值\n  - id: algorithms\n    title: 算法题\n")
    return tmp_path


def problems(tmp_path, tasks: dict[str, str]) -> list[str]:
    with pytest.raises(ContentError) as err:
        build(corpus(tmp_path, tasks), templates=TEMPLATES)
    return [str(p) for p in err.value.problems]


def test_a_valid_task_runs_its_solution_and_its_planted_bug(tmp_path):
    built = build(corpus(tmp_path, {"clip-task": coding()}), templates=TEMPLATES)
    task = built.corpus.coding["clip-task"]
    assert task.solution.line == 18 and task.checks.line == 28 and len(task.bugs) == 1  # their first lines of code
    runs = [s for s in corpus_snippets(built.corpus) if s.path.endswith("clip-task.md")]
    assert [(s.label, s.expect_failure) for s in runs] == [("solution", False), ("planted bug 1", True)]
    assert "np.minimum(np.minimum(x, lo), hi)" in runs[1].program()


def test_a_planted_bug_the_checks_do_not_catch_is_refused(tmp_path):
    weak = TASK_BODY.replace("assert list(clip(values, -1.0, 1.0)) == naive(values, -1.0, 1.0)", "assert len(clip(values, -1.0, 1.0)) == 6")
    assert problems(tmp_path, {"clip-task": coding(weak)}) == [
        "content/coding/clip-task.md:46: planted bug 1: the checks pass with this bug planted: add a check that catches it"]


def test_a_solution_that_fails_its_checks_names_the_line_and_the_message(tmp_path):
    wrong = TASK_BODY.replace("assert list(clip(values, -1.0, 1.0)) == naive(values, -1.0, 1.0)",
                              "assert list(clip(values, -1.0, 1.0)) == naive(values, -1.0, 2.0), 'upper bound'")
    assert problems(tmp_path, {"clip-task": coding(wrong)}) == [
        "content/coding/clip-task.md:30: solution: assert failed: upper bound (where values = [-3.0, -1.0, 0.0, 0.5, 2.0, 9.0])"]


@pytest.mark.parametrize("change, expected", [
    (lambda b: b.replace("## 复杂度\n\n- $O(n)$ 时间。\n\n", ""), ["content/coding/clip-task.md:11: sections: missing section '## 复杂度'"]),
    (lambda b: b.replace("## 追问", "## 面试追问"),
     ["content/coding/clip-task.md:11: sections: missing section '## 追问'",
      "content/coding/clip-task.md:50: sections: unknown section '## 面试追问' (did you mean '追问'?); sections are: "
      "题目 · 参考解 · 检验 · 复杂度 · 边界情况 · 常见 bug · 追问 · PyTorch 写法"]),
    (lambda b: b.replace("## 边界情况\n\n- 空数组返回空数组。\n", "## 边界情况\n\n```python\nclip([], 0, 1)\n```\n"),
     ["content/coding/clip-task.md:40: ## 边界情况: no code blocks here: code appears only in 参考解, 检验 and 常见 bug, where it is run"]),
    (lambda b: b.replace("  -    return np.minimum(np.maximum(x, lo), hi)", "  -    return np.minimum(np.maximum(x, lo), hi )"),
     ["content/coding/clip-task.md:46: ## 常见 bug: the '-' lines must appear exactly once in the 参考解 block, as written "
      "(indentation too); found 0"]),
    (lambda b: b.replace("assert clip([], 0.0, 1.0).shape == (0,)", "print(clip([], 0.0, 1.0).shape)").replace(
        "assert list(clip(values, -1.0, 1.0)) == naive(values, -1.0, 1.0)", "print(clip(values, -1.0, 1.0))"),
     ["content/coding/clip-task.md:27: ## 检验: the checks must assert what they check (at least one assert)"]),
])
def test_task_mistakes_are_named_word_for_word(tmp_path, change, expected):
    assert [p for p in problems(tmp_path, {"clip-task": coding(change(TASK_BODY))}) if "planted bug" not in p] == expected


def test_a_round_lists_coding_tasks_and_wrong_kinds_are_named(tmp_path):
    bad = report(rounds="  - name: 一面\n    coding: [clip-task, alpha]\n    questions: [clip-task]\n")
    with pytest.raises(ContentError) as err:
        build(corpus(tmp_path, {"clip-task": coding()}, {"reports/r-three.md": bad}), templates=TEMPLATES)
    assert [str(p) for p in err.value.problems] == [
        "content/reports/r-three.md:7: rounds.coding: 'alpha' is a concept: list it under topics",
        "content/reports/r-three.md:8: rounds.questions: 'clip-task' is a coding task: list it under coding",
    ]


def test_pages_fold_the_solution_link_back_and_count_what_was_asked(tmp_path):
    asked = report(rounds="  - name: 一面\n    coding: [clip-task]\n")
    built = build(corpus(tmp_path, {"clip-task": coding()}, {"reports/r-three.md": asked}), templates=TEMPLATES)
    page = built.pages["coding/clip-task.md"]
    statement, rest = page.split("## 参考解", 1)
    assert "实现 `clip(x, lo, hi)`" in statement and "np.maximum" not in statement  # the task first, no solution
    assert "要写的函数：<code>clip(x, lo, hi) -&gt; np.ndarray</code>" in statement
    assert re.search(r"<details class=\"success guide-answer\" markdown>\n<summary>先自己写，再点开看参考解</summary>\n\n```python\nimport numpy", rest)
    assert "**1** 篇面经要求手写" in page and "- [面经](/reports/r-three.md)（[某公司](/companies/acme.md)）" in page
    assert "kind: 手撕" in page
    aliases = re.search(r"aliases:\n((?:- .*\n)+)", page).group(1)
    assert {"- 手撕 Clip", "- clip 实现", "- Clip 代码", "- 裁剪函数"} <= set(aliases.splitlines())
    index = built.pages["coding/index.md"]
    assert "## 数值" in index and ("- [手撕 clip](/coding/clip-task.md)<br><span class=\"guide-tasks__meta\">基础 · 1 篇面经 · 考查 [阿尔法](/concepts/alpha.md)</span>"
                                   in index)
    assert "**手撕练习**：[手撕 clip](/coding/clip-task.md)" in built.pages["concepts/alpha.md"]
    assert "- 手撕：[手撕 clip](/coding/clip-task.md)" in built.pages["reports/r-three.md"]
    assert "| 1 | [手撕 clip](/coding/clip-task.md) | 1 |" in built.pages["stats.md"]


NAMED = {  # the tasks the issue names: the reports' six, and the kernels and losses interviews ask for
    "stock-ii", "edit-distance", "linked-list-intersection", "deep-merge-json", "pizza-cuts", "lru-cache",
    "mha-masks", "gqa-mqa", "rotary-embedding", "rmsnorm-layernorm", "softmax-cross-entropy", "kv-cache-decode",
    "sampling-top-k-top-p", "beam-search", "ppo-loss", "gae-compute", "grpo-loss", "dpo-loss", "bt-reward-loss",
    "lora-linear", "moe-router", "adamw-step", "bpe-train", "infonce", "online-softmax",
}


@pytest.mark.heavy
def test_the_guide_has_forty_tasks_including_every_named_one_each_with_planted_bugs():
    built = build(ROOT, ROOT / "docs")  # runs every solution and every planted bug (cached)
    coding = built.corpus.coding
    assert len(coding) >= 40 and NAMED <= set(coding)
    assert all(len(t.bugs) >= 2 for t in coding.values()), [t.id for t in coding.values() if len(t.bugs) < 2]
    asked = {t for r in built.corpus.reports.values() for round_ in r.rounds for t in round_.coding}
    assert {"stock-ii", "edit-distance", "linked-list-intersection", "deep-merge-json", "pizza-cuts", "lru-cache"} <= asked


@pytest.mark.browser
def test_the_solution_stays_folded_until_the_reader_opens_it(page, site_url):
    page.goto(site_url + "coding/lru-cache/")
    fold = page.locator("details.guide-answer").first
    assert fold.locator("summary").inner_text() == "先自己写，再点开看参考解"
    code = fold.locator("pre").first
    assert not code.is_visible() and page.get_by_text("要写的函数").is_visible()
    fold.locator("summary").click()
    assert code.is_visible() and "class" in code.inner_text()
    assert page.js_errors == [] and page.outside_requests == []
