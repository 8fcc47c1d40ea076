"""Commands: the build's steps (`compile`, `finish`) and the author's (`check`, `find`, `snippets`, `new`)."""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from .compile import CompileError, compile_tree, load_state
from .errors import ContentError
from .finish import FinishError, finish
from .offline import OfflineError
from .printing import PrintError
from .find import close_questions, find, warnings
from .load import load_content
from .pipeline import build, corpus_snippets
from .snippets import run, verdict
from .urls import is_valid_id
from .validate import read_taxonomy, validate

SCAFFOLDS = {
    "concept": """---
title: <<待填写：中文标题，如 PPO 裁剪目标>>
en: <<待填写：英文名，如 PPO clipped objective>>
aliases: [<<待填写：读者会搜的词——中文名、英文名、缩写、常见说法>>]
topic: <<待填写：专题 id，可选 {topics}>>
tags: []
prerequisites: []
related: []
difficulty: <<待填写：{difficulties}>>
summary: <<待填写：一句话说清这个概念，显示在页首和搜索结果里>>
references:
  - title: <<待填写：论文或文章的标题>>
    year: <<待填写：年份>>
    arxiv: <<待填写：arXiv id 如 1707.06347；没有就把这一行换成 url>>
---

## 一句话

<<待填写：一句话定义>>

## 直觉

<<待填写：不用公式，讲清楚为什么需要它、它在做什么>>

## 公式与推导

<<待填写：关键公式，用 $...$ 和 $$...$$ 书写并核对原论文；没有就删掉这一节>>

## 代码

<<待填写：一个 python 代码块，用 assert 验证它声称的性质；没有算法核心就删掉这一节>>

## 面试怎么问

- <<待填写：链向题目（双方括号包住题目 id）并写出面试官的问法>>

## 易错点

- <<待填写：常见误解>>

## 速查

- <<待填写：考前最后一小时要看的要点，3 到 8 条>>
- <<待填写：第二条>>
- <<待填写：第三条>>
""",
    "question": """---
{question_text}
brief: <<待填写：一句话答案，也就是答题的第一句话>>
primary: <<待填写：这道题考查的概念 id；make find Q=关键词 可以查>>
related: []
difficulty: <<待填写：{difficulties}>>
---

**要点**

1. <<待填写：先写结论和关键点>>

**展开**

<<待填写：再写推导、细节和例子；用双方括号包住概念 id 链接到概念>>
""",
    "report": """---
title: <<待填写：公司 · 岗位 · 轮次>>
kind: interview
company: <<待填写：公司 id，可选 {companies}；新公司先加到 content/taxonomy.yml 的 companies>>
team: ""
role: ""
date: ""
source: <<待填写：面经的出处 URL>>
summary: <<待填写：用一两句话概括这份面经问了什么>>
rounds:
  - name: 一面
    questions: []
    topics: []
    coding: []
    other: []
---

<<待填写：整理笔记，用双方括号包住 id 链接到概念和题目；不需要就删掉这一行>>
""",
    "coding": """---
title: <<待填写：手撕 X，如 手撕 RMSNorm>>
en: <<待填写：英文名，如 RMSNorm>>
kind: <<待填写：分组，可选 {coding_kinds}>>
aliases: [<<待填写：读者会搜的词——中文名、英文名、LeetCode 题号>>]
concepts: []
difficulty: <<待填写：{difficulties}>>
summary: <<待填写：一句话说清考点和难点>>
signature: "<<待填写：要写的函数签名，如 rms_norm(x, weight, eps=1e-6) -> np.ndarray>>"
---

## 题目

<<待填写：面试官怎么出这道题：给什么、返回什么、形状和约束>>

## 参考解

```python
<<待填写：参考解，只用 NumPy 和标准库>>
```

## 检验

```python
<<待填写：对照一个独立的参考（朴素实现、闭式解或已知结果）检验参考解，覆盖下面的边界情况，用 assert>>
```

## 复杂度

<<待填写：时间和空间复杂度，写明变量>>

## 边界情况

- <<待填写：必须处理的输入，以及参考解怎么处理>>

## 常见 bug

- <<待填写：面试官盯着的一个 bug，为什么错；下面的 diff 把它植入参考解，检验必须能发现>>
  ```diff
  -<<待填写：参考解里的原行，照抄>>
  +<<待填写：带 bug 的写法>>
  ```

## 追问

- <<待填写：面试官接着会问什么，简短回答>>

## PyTorch 写法

<<待填写：面试时对应的 torch 调用；不是张量题就删掉这一节>>
""",
}
"""What `make new-…` writes: every field and section, each value a `<<待填写：…>>` placeholder that
`make check` rejects (naming file, line and field) until the author replaces it."""

SCAFFOLD_TEXT = "text: <<待填写：面试官的原问题，写成一句疑问句>>"

FOLDERS = {"concept": "concepts", "question": "questions", "report": "reports", "coding": "coding"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="guide", description="Check and scaffold the guide's content.")
    sub = parser.add_subparsers(dest="command", required=True)
    comp = sub.add_parser("compile", help="step 1 of a build: write the complete docs tree a site builder reads (build/docs)")
    comp.add_argument("--out", type=Path, default=None, help="the tree to write (default: <root>/build/docs)")
    fin = sub.add_parser("finish", help="step 3 of a build: finish the HTML the builder wrote (search, formulas, "
                                        "code buttons, PDFs, deck, offline copy), then move it into place")
    fin.add_argument("site", type=Path, help="the folder the builder wrote (e.g. build/site)")
    fin.add_argument("--to", type=Path, default=None, help="where the finished site goes (e.g. site); replaced only on success")
    fin.add_argument("--site-url", required=True, help="the address the site is published at (the deck links to it)")
    sub.add_parser("check", help="validate content/ and print every problem")
    look = sub.add_parser("find", help="the ids whose title, English name, aliases or text match some words, best first")
    look.add_argument("query", nargs="+", help="words, e.g. 奖励 过优化")
    snip = sub.add_parser("snippets", help="run the Python snippets of some content files (no cache) and report each")
    snip.add_argument("files", nargs="+", type=Path, help="content files, e.g. content/concepts/dpo.md")
    new = sub.add_parser("new", help="scaffold a new content file")
    new.add_argument("kind", choices=sorted(SCAFFOLDS))
    new.add_argument("id", nargs="?", default="")
    new.add_argument("--text", default="", help="a question's text: written into the scaffold, and the nearest "
                                                "existing questions are shown first")
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="project root (default: current directory)")
    args = parser.parse_args(argv)
    args.root = args.root.resolve()  # node resolves KaTeX by this path; a relative one would be a module name
    if args.command == "compile":
        return compile_command(args.root, args.out or args.root / BUILD / "docs")
    if args.command == "finish":
        return finish_command(args.root, args.site, args.to, args.site_url)
    if args.command == "check":
        return check(args.root)
    if args.command == "find":
        return find_ids(args.root, " ".join(args.query))
    if args.command == "snippets":
        return run_snippets(args.root, args.files)
    return scaffold(args.root, args.kind, args.id, args.text)


BUILD = "build"
"""The project's folder for the build's intermediate results (the compiled tree, its state)."""

KEPT = "nothing was built and site/ was left as it was"


def compile_command(root: Path, out: Path) -> int:
    try:
        compiled = compile_tree(root, root / "docs", out, root / BUILD / "state.pickle")
    except ContentError as err:
        for problem in err.problems:
            print(problem, file=sys.stderr)
        print(f"{len(err.problems)} problem(s) in the guide's sources; {KEPT}", file=sys.stderr)
        return 1
    except CompileError as err:
        print(f"{err}; {KEPT}", file=sys.stderr)
        return 1
    print(f"compiled {len(compiled.pages)} pages into {out}", file=sys.stderr)
    return 0


def finish_command(root: Path, site: Path, target: Path | None, site_url: str) -> int:
    try:
        compiled = load_state(root / BUILD / "state.pickle")
        done = finish(site, compiled, site_url, root / ".cache", root, print_pdfs=os.environ.get("GUIDE_PRINT") != "0",
                      target=target)
    except (FileNotFoundError, FinishError, PrintError, OfflineError) as err:
        print(f"{err}; {KEPT}" if target is not None else str(err), file=sys.stderr)
        return 1
    for line in done:
        print(line, file=sys.stderr)
    # `make bench` reads the steps' own timings from here.
    if os.environ.get("GUIDE_TIMINGS"):
        Path(os.environ["GUIDE_TIMINGS"]).write_text(json.dumps(compiled.timings), encoding="utf-8")
    return 0


def check(root: Path) -> int:
    try:
        built = build(root, root / "docs")
    except ContentError as err:
        for problem in err.problems:
            print(problem, file=sys.stderr)
        print(f"{len(err.problems)} problem(s)", file=sys.stderr)
        return 1
    c = built.corpus
    lines = {d.path: d.lines for d in load_content(root / "content", root).documents}
    for problem in warnings(c, lines, changed_files(root)):
        print(problem, file=sys.stderr)
    print(f"ok: {len(c.concepts)} concepts, {len(c.questions)} questions, {len(c.reports)} reports, {len(built.pages)} generated pages")
    return 0


def changed_files(root: Path) -> set[str] | None:
    """Content files added since the last commit, staged or not (paths as authors see them), or
    None when `root` is not in a git work tree: what `make check` compares with the rest."""
    try:
        top = subprocess.run(["git", "-C", str(root), "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=True)
        status = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=all", "--", "content"],
                                capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    repo = Path(top.stdout.strip())
    changed = set()
    for line in status.stdout.splitlines():
        if line[:2] not in ("??", "A ", "AM"):
            continue  # an edit to a file already committed is not a new question
        path = (repo / line[3:].split(" -> ")[-1].strip('"')).resolve()
        if path.is_relative_to(root):
            changed.add(path.relative_to(root).as_posix())
    return changed


def find_ids(root: Path, query: str) -> int:
    """Print the best matches as `kind  id  title  (matched in field)`: what exists before writing anew."""
    corpus, problems = validate(load_content(root / "content", root))
    if not corpus.concepts and problems:
        for problem in problems:
            print(problem, file=sys.stderr)
        return 1
    found = find(corpus, query)
    if not found:
        print(f"nothing matches '{query}': no concept, question or report uses these words", file=sys.stderr)
        return 1
    width = max(len(f.id) for f in found)
    for f in found:
        print(f"{f.kind:<9}{f.id:<{width + 2}}{f.title}  ({f.matched})")
    return 0


def run_snippets(root: Path, files: list[Path]) -> int:
    """Run the snippets of `files` afresh, one line each: how an author tries one note's code."""
    corpus, _ = validate(load_content(root / "content", root))
    every = corpus_snippets(corpus)
    having = {(root / s.path).resolve() for s in every}
    wanted = {(root / f).resolve(): f for f in files}
    chosen = [s for s in every if (root / s.path).resolve() in wanted]
    unknown = sorted(str(f) for path, f in wanted.items() if path not in having)
    for name in unknown:
        print(f"{name}: no runnable snippet (a ```python block at the start of a line) in this content file", file=sys.stderr)
    failed = 0
    for snippet in chosen:
        problem = verdict(snippet, run(snippet))
        if problem is None:
            print(f"{snippet.path}:{snippet.line}: {snippet.label}: ok")
        else:
            failed += 1
            print(problem, file=sys.stderr)
    print(f"{len(chosen)} snippet(s), {failed} failed", file=sys.stderr if failed else sys.stdout)
    return 1 if failed or unknown or not chosen else 0


def scaffold(root: Path, kind: str, entity_id: str, question_text: str = "") -> int:
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
            print(f"{clash.relative_to(root)} already exists; ids are shared by concepts, questions, reports and coding tasks", file=sys.stderr)
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
        topics=" / ".join(t.id for t in taxonomy.topics),
        companies=" / ".join(c.id for c in taxonomy.companies),
        difficulties=" / ".join(d.id for d in taxonomy.difficulties),
        coding_kinds=" / ".join(k.id for k in taxonomy.coding_kinds),
        question_text=SCAFFOLD_TEXT,
    )
    if kind == "question" and question_text.strip():
        text = text.replace(SCAFFOLD_TEXT, "text: " + json.dumps(question_text.strip(), ensure_ascii=False), 1)
        corpus, _ = validate(loaded)
        near = close_questions(corpus, question_text)
        if near:
            print("the bank's nearest questions; if yours is one of them, improve that one instead:")
            for score, q in near:
                print(f"  {score:.2f}  {q.loc.path}  {q.text}")
    target = content / FOLDERS[kind] / f"{entity_id}.md"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target.relative_to(root)}: replace every <<待填写：…>> (make check lists the ones left), then run 'make serve'")
    return 0
