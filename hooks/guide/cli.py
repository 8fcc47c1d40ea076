"""Author commands: `python -m guide check` and `python -m guide new <kind> <id>`."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .errors import ContentError
from .load import load_content
from .pipeline import build
from .urls import is_valid_id
from .validate import read_taxonomy

SCAFFOLDS = {
    "concept": """---
title: {id}（待填写中文标题）
en: {id}
aliases: []
topic: {topic}
prerequisites: []
related: []
difficulty: {difficulty}
summary: 用一句话说清这个概念（会显示在页首和搜索结果里）。
references: []
---

## 一句话

（一句话定义。）

## 直觉

（不用公式，讲清楚为什么需要它、它在做什么。）

## 公式与推导

（关键公式，用 $...$ 和 $$...$$ 书写，并核对原论文。）

## 代码

（可运行的 Python/NumPy 片段，用 assert 验证它声称的性质；没有算法核心时删掉这一节。）

## 面试怎么问

（面试官的问法，链接到题库：`[[question-id]]`。）

## 易错点

- （常见误解。）

## 速查

- （考前最后一小时要看的要点，3 到 8 条。）
- （第二条。）
- （第三条。）
""",
    "question": """---
text: （面试官的原问题，写成一句疑问句）
brief: （一句话答案：答题的第一句话。）
concepts: [{concept}]
difficulty: {difficulty}
---

**要点**

1. （先写结论和关键点。）

**展开**

（再写推导、细节和例子；用 `[[concept-id]]` 链接到概念。）
""",
    "report": """---
title: （公司 · 岗位 · 轮次）
kind: interview
company: {company}
team: ""
role: ""
date: ""
source: ""
summary: 用一两句话概括这份面经问了什么。
rounds:
  - name: 一面
    questions: []
    topics: []
    other: []
---

（可选：整理笔记，链接到概念和题目，例如 `[[ppo-clip]]`。）
""",
}

FOLDERS = {"concept": "concepts", "question": "questions", "report": "reports"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="guide", description="Check and scaffold the guide's content.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("check", help="validate content/ and print every problem")
    new = sub.add_parser("new", help="scaffold a new content file")
    new.add_argument("kind", choices=sorted(SCAFFOLDS))
    new.add_argument("id", nargs="?", default="")
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="project root (default: current directory)")
    args = parser.parse_args(argv)
    if args.command == "check":
        return check(args.root)
    return scaffold(args.root, args.kind, args.id)


def check(root: Path) -> int:
    try:
        built = build(root, root / "docs")
    except ContentError as err:
        for problem in err.problems:
            print(problem, file=sys.stderr)
        print(f"{len(err.problems)} problem(s)", file=sys.stderr)
        return 1
    c = built.corpus
    print(f"ok: {len(c.concepts)} concepts, {len(c.questions)} questions, {len(c.reports)} reports, {len(built.pages)} generated pages")
    return 0


def scaffold(root: Path, kind: str, entity_id: str) -> int:
    if not entity_id:
        print(f"usage: make new-{kind} ID=<kebab-case-id>", file=sys.stderr)
        return 2
    if not is_valid_id(entity_id):
        print(f"'{entity_id}' is not a valid id: use lower-case a-z, 0-9 and '-' (it becomes the page URL)", file=sys.stderr)
        return 2
    content = root / "content"
    for folder in FOLDERS.values():
        clash = content / folder / f"{entity_id}.md"
        if clash.exists():
            print(f"{clash.relative_to(root)} already exists; ids are shared by concepts, questions and reports", file=sys.stderr)
            return 1
    loaded = load_content(content, root)
    taxonomy = next((read_taxonomy(d, []) for d in loaded.documents if d.kind == "taxonomy"), None)
    if taxonomy is None or not (taxonomy.topics and taxonomy.companies and taxonomy.difficulties):
        print("content/taxonomy.yml must list topics, companies and difficulties first", file=sys.stderr)
        return 1
    concepts = sorted(d.stem for d in loaded.documents if d.kind == "concepts")
    if kind == "question" and not concepts:
        print("write a concept first: every question names the concepts it probes", file=sys.stderr)
        return 1
    text = SCAFFOLDS[kind].format(
        id=entity_id,
        topic=taxonomy.topics[0].id,
        company=taxonomy.companies[0].id,
        difficulty=taxonomy.difficulties[0].id,
        concept=concepts[0] if concepts else "",
    )
    target = content / FOLDERS[kind] / f"{entity_id}.md"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target.relative_to(root)}: fill in the fields, then run 'make check' or 'make serve'")
    return 0
