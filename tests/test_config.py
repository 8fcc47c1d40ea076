"""guide.yml: the guide's shape is data. A second guide, with other section names, validates,
feeds its cheat sheet and scaffolds from its own configuration; a bad entry is named at its line."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import GUIDE, ROOT, concept, valid_files, write_corpus
from guide.config import Guide, load_guide
from guide.errors import ContentError
from guide.pipeline import build

TEMPLATES = ROOT / "templates"

ENGLISH_CONCEPT = {
    "sections": [
        {"name": "Summary", "one_line": True, "scaffold": "<<待填写：one sentence>>"},
        {"name": "Intuition", "scaffold": "<<待填写：why it is needed, without formulas>>"},
        {"name": "Derivation", "required": False},
        {"name": "Trade-offs", "scaffold": "- <<待填写：what it costs>>"},
        {"name": "Cheat sheet", "cheat_sheet": {"min_bullets": 2, "max_bullets": 4},
         "scaffold": "- <<待填写：first point>>\n- <<待填写：second point>>\n"},
    ],
    "headings": {"links": "Connections", "asked": "Asked in interviews", "references": "References"},
    "scaffold": "title: <<待填写：title>>\nen: <<待填写：English name>>\ntopic: <<待填写：one of {topics}>>\n"
                "difficulty: <<待填写：{difficulties}>>\nsummary: <<待填写：one line>>\n",
}

ENGLISH_CODING_SECTIONS = [
    {"name": "Task", "key": "task", "deck": "front"},
    {"name": "Solution", "key": "solution", "run": "solution", "deck": "back"},
    {"name": "Checks", "key": "checks", "run": "checks"},
    {"name": "Cost", "key": "complexity", "deck": "back"},
    {"name": "Edge cases", "key": "edge_cases"},
    {"name": "Bugs", "key": "bugs", "run": "bugs"},
    {"name": "Follow-ups", "key": "follow_ups"},
    {"name": "In PyTorch", "key": "pytorch", "required": False},
]


def english_guide() -> str:
    """The real guide.yml with English concept and coding sections."""
    data = yaml.safe_load(GUIDE)
    data["kinds"]["concept"] = ENGLISH_CONCEPT
    data["kinds"]["coding"]["sections"] = ENGLISH_CODING_SECTIONS
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


ENGLISH_BODY = """\
## Summary

One sentence.

## Intuition

Why.

## Trade-offs

- It costs memory.

## Cheat sheet

- The first thing to remember.
- The second thing to remember.
"""


def english_files(body: str = ENGLISH_BODY) -> dict[str, str]:
    files = valid_files()
    files["concepts/alpha.md"] = concept("阿尔法", body=body)
    files["concepts/beta.md"] = concept("贝塔", extra="prerequisites: [alpha]\n", body=body)
    return files


def problems_of(root: Path) -> list[str]:
    with pytest.raises(ContentError) as err:
        build(root, templates=TEMPLATES, run_snippets=False)
    return [str(p) for p in err.value.problems]


def test_the_real_guide_yml_is_todays_guide():
    guide = load_guide(ROOT / "guide.yml", "guide.yml")
    assert isinstance(guide, Guide), guide
    assert [s.name for s in guide.concept.sections] == ["一句话", "直觉", "公式与推导", "代码", "面试怎么问", "易错点", "速查"]
    assert guide.concept.cheat_sheet.name == "速查" and guide.concept.cheat_sheet.cheat_sheet == (3, 8)
    assert guide.concept.one_line.name == "一句话"
    assert [(s.name, s.run) for s in guide.coding.sections if s.run] == [("参考解", "solution"), ("检验", "checks"), ("常见 bug", "bugs")]
    assert guide.taxonomy == "content/taxonomy.yml" and guide.language == "zh"


def test_a_guide_with_english_sections_validates_renders_and_feeds_its_cheat_sheet(tmp_path):
    write_corpus(tmp_path, english_files(), guide=english_guide())
    built = build(tmp_path, templates=TEMPLATES, run_snippets=False)
    page = built.pages["concepts/alpha.md"]
    assert "## Trade-offs" in page and "## Connections" in page
    sheet = built.pages["cheatsheets/basics.md"]
    assert "The first thing to remember." in sheet and "The second thing to remember." in sheet


def test_the_configured_names_are_the_ones_problems_name(tmp_path):
    body = ENGLISH_BODY.replace("## Trade-offs\n\n- It costs memory.\n\n", "").replace(
        "- The second thing to remember.\n", "- Two.\n- Three.\n- Four.\n- Five.\n")
    files = english_files()
    files["concepts/alpha.md"] = concept("阿尔法", body=body)
    files["concepts/beta.md"] = concept("贝塔", body=ENGLISH_BODY + "\n## 速查\n\n- 旧的。\n")
    write_corpus(tmp_path, files, guide=english_guide())
    assert problems_of(tmp_path) == [
        "content/concepts/alpha.md:8: sections: missing section '## Trade-offs'",
        "content/concepts/alpha.md:16: sections: '## Cheat sheet' needs 2 to 4 top-level bullets (it feeds the cheat sheet), found 5",
        "content/concepts/beta.md:25: sections: unknown section '## 速查'; sections are: Summary · Intuition · Derivation · Trade-offs · Cheat sheet",
    ]


CODING = """\
---
title: 手撕 加一
en: Add one
kind: layers
difficulty: basic
summary: 加一。
signature: "add_one(x) -> int"
---

## Task

Add one.

## Solution

```python
def add_one(x):
    return x + 1
```

## Checks

```python
assert add_one(1) == 2
```

## Cost

O(1).

## Edge cases

- Negative numbers.

## Bugs

- Adds two.
  ```diff
  -    return x + 1
  +    return x + 2
  ```

## Follow-ups

- None.
"""


def test_a_coding_task_runs_the_sections_the_configuration_names(tmp_path):
    taxonomy = (ROOT / "tests" / "golden" / "tiny" / "content" / "taxonomy.yml").read_text(encoding="utf-8")
    files = {**english_files(), "coding/add-one.md": CODING}
    write_corpus(tmp_path, files, taxonomy=None, guide=english_guide())
    (tmp_path / "content" / "taxonomy.yml").write_text(taxonomy if "coding_kinds" in taxonomy else
                                                       taxonomy + "coding_kinds:\n  - id: layers\n    title: 层\n", encoding="utf-8")
    built = build(tmp_path, templates=TEMPLATES, run_snippets=False)
    page = built.pages["coding/add-one.md"]
    assert "## Task\n\nAdd one." in page and "### Cost\n\nO(1)." in page and "## Bugs" in page
    assert [b.added for b in built.corpus.coding["add-one"].bugs] == [("    return x + 2",)]
    files["coding/add-one.md"] = CODING.replace("## Cost\n\nO(1).", "## Cost\n\n```python\nx = 1\n```")
    write_corpus(tmp_path, files, taxonomy=None, guide=english_guide())
    assert "content/coding/add-one.md:29: ## Cost: no code blocks here: code appears only in Solution, Checks and Bugs, where it is run" \
        in problems_of(tmp_path)


def run_cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "guide", "--root", str(root), *args], capture_output=True, text=True,
                          cwd=ROOT, env={"PYTHONPATH": str(ROOT / "hooks"), "PATH": "/usr/bin:/bin"})


def test_scaffolds_come_from_the_configuration(tmp_path):
    write_corpus(tmp_path, english_files(), guide=english_guide())
    made = run_cli(tmp_path, "new", "concept", "gamma")
    assert made.returncode == 0, made.stderr
    assert (tmp_path / "content" / "concepts" / "gamma.md").read_text(encoding="utf-8") == (
        "---\ntitle: <<待填写：title>>\nen: <<待填写：English name>>\ntopic: <<待填写：one of basics / advanced-topic>>\n"
        "difficulty: <<待填写：basic / advanced>>\nsummary: <<待填写：one line>>\n---\n\n"
        "## Summary\n\n<<待填写：one sentence>>\n\n## Intuition\n\n<<待填写：why it is needed, without formulas>>\n\n"
        "## Derivation\n\n\n## Trade-offs\n\n- <<待填写：what it costs>>\n\n"
        "## Cheat sheet\n\n- <<待填写：first point>>\n- <<待填写：second point>>\n")
    (tmp_path / "templates").symlink_to(TEMPLATES)
    checked = run_cli(tmp_path, "check")
    assert "content/concepts/gamma.md:26: ## Cheat sheet: still the scaffold's placeholder (first point); write this part" \
        in checked.stderr.splitlines()


def test_the_configuration_can_live_elsewhere(tmp_path):
    write_corpus(tmp_path, english_files(), guide=None)
    (tmp_path / "shapes").mkdir()
    (tmp_path / "shapes" / "english.yml").write_text(english_guide().replace("taxonomy: content/taxonomy.yml",
                                                                            "taxonomy: ../content/taxonomy.yml"), encoding="utf-8")
    missing = run_cli(tmp_path, "find", "阿尔法")
    assert missing.returncode == 1
    assert missing.stderr.splitlines() == ["guide.yml:1: missing: the guide's configuration declares each kind's sections and "
                                           "the words pages show (README: The guide's shape)"]
    found = run_cli(tmp_path, "--config", str(tmp_path / "shapes" / "english.yml"), "find", "阿尔法")
    assert found.returncode == 0, found.stderr
    assert found.stdout.split()[:2] == ["concept", "alpha"]


BAD_GUIDES = {
    "a misspelt run role": (("        run: checks\n", "        run: check\n", "run"),
                            "guide.yml:{line}: kinds.coding.sections.run: expected one of solution, checks, bugs, got 'check'"),
    "an unknown kind": (("kinds:\n", "kinds:\n  quiz: {}\n", "quiz"),
                        "guide.yml:{line}: kinds.quiz: unknown key; allowed: concept, question, report, coding"),
    "a section named twice": (("      - name: 易错点\n", "      - name: 直觉\n", "name"),
                              "guide.yml:{line}: kinds.concept.sections: a section name '直觉' is used twice (first on line {first})"),
    "a cheat sheet on a coding task": (("        key: task\n", "        key: task\n        cheat_sheet: {min_bullets: 1, max_bullets: 2}\n",
                                        "cheat_sheet"),
                                       "guide.yml:{line}: kinds.coding.sections.cheat_sheet: only the concept kind's sections feed the cheat sheet"),
    "bullet limits that are not numbers": (("min_bullets: 3, max_bullets: 8", "min_bullets: three, max_bullets: 8", "min_bullets"),
                                           "guide.yml:{line}: kinds.concept.sections.cheat_sheet: expected whole numbers with "
                                           "0 <= min_bullets <= max_bullets, got 'three' and 8"),
    "required as text": (("        required: false\n", "        required: sometimes\n", "required"),
                         "guide.yml:{line}: kinds.concept.sections.required: expected true or false, got 'sometimes'"),
    "invalid YAML": (("language: zh\n", "language: [zh\n", "language"),
                     "guide.yml:{line}: the guide's configuration is not valid YAML: the bracket [ opened on this line is never closed on it; "
                     "add the closing ]"),
}


@pytest.mark.parametrize("case", list(BAD_GUIDES), ids=list(BAD_GUIDES))
def test_a_bad_entry_in_guide_yml_is_named_at_its_line_without_a_traceback(tmp_path, case):
    (old, new, marker), expected = BAD_GUIDES[case]
    assert old in GUIDE
    text = GUIDE.replace(old, new, 1)
    at = text.rindex(new) + new.index(marker)
    line = text[:at].count("\n") + 1
    first = GUIDE[: GUIDE.index("      - name: 直觉\n")].count("\n") + 1
    write_corpus(tmp_path, valid_files(), guide=text)
    checked = run_cli(tmp_path, "check")
    assert checked.returncode == 1
    assert "Traceback" not in checked.stderr
    assert checked.stderr.splitlines() == [expected.format(line=line, first=first), "1 problem(s)"]
