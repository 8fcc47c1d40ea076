"""A synthetic guide in the real content format, for benchmarks and scaling tests.

`write_guide(root, concepts=n)` writes `root/content/` with n concepts spread over the
real taxonomy's topics, two questions per concept and one report per eight concepts
(about the real guide's proportions), each linking the way real notes do.
"""
from __future__ import annotations

import random
import re
import shutil
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORDS = ("策略", "梯度", "优势", "估计", "方差", "偏差", "裁剪", "比率", "奖励", "模型", "采样", "训练", "推理", "缓存",
         "并行", "张量", "流水线", "显存", "通信", "分布", "约束", "散度", "熵", "坍塌", "黑客", "信用", "分配", "轨迹")
TERMS = ("PPO", "GRPO", "KL", "rollout", "critic", "token", "batch", "reward", "advantage", "loss", "LoRA", "KV cache")
_RUN = re.compile(r"[\u4e00-\u9fff]+|[A-Za-z][A-Za-z0-9_]*")


def vocabulary() -> tuple[list[str], list[int]]:
    """Words and their frequencies from the real guide's notes, so synthetic text has the real
    guide's long-tailed term distribution (a few words everywhere, most words on a few pages)."""
    counts: Counter[str] = Counter()
    for path in (ROOT / "content").rglob("*.md"):
        for run in _RUN.findall(path.read_text(encoding="utf-8").split("---", 2)[-1]):
            if run[0].isascii():
                counts[run] += 1
            else:
                counts.update(run[i : i + 2] for i in range(0, len(run) - 1, 2))
    if not counts:  # a checkout without content still benchmarks
        counts.update({w: 1 for w in WORDS + TERMS})
    words = sorted(counts)
    return words, [counts[w] for w in words]


class Writer:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.words, self.weights = vocabulary()
        self.rare = [w for w, c in zip(self.words, self.weights) if c <= 2] or self.words

    def sentence(self, n: int = 12) -> str:
        parts = self.rng.choices(self.words, self.weights, k=n)
        return "".join(p if not p[0].isascii() else f" {p} " for p in parts).strip() + "。"

    def paragraph(self, n: int = 4) -> str:
        return "".join(self.sentence() for _ in range(n))

    def title(self) -> str:
        return "".join(self.rng.sample(self.rare, 3))


def write_guide(root: Path, concepts: int, seed: int = 0) -> Path:
    """Write a synthetic `content/` (and copy the real taxonomy, and the real guide.yml where `root`
    has none) under `root`."""
    rng = random.Random(seed)
    if not (root / "guide.yml").exists():
        shutil.copyfile(ROOT / "guide.yml", root / "guide.yml")
    w = Writer(rng)
    content = root / "content"
    if content.exists():
        shutil.rmtree(content)
    for sub in ("concepts", "questions", "reports"):
        (content / sub).mkdir(parents=True)
    import yaml

    taxonomy = yaml.safe_load((ROOT / "content" / "taxonomy.yml").read_text(encoding="utf-8"))
    for topic in taxonomy["topics"]:
        topic.pop("sheet", None)  # the real guide's choice of concepts per sheet names real concepts
    (content / "taxonomy.yml").write_text(yaml.safe_dump(taxonomy, allow_unicode=True, sort_keys=False), encoding="utf-8")
    topics = [t["id"] for t in taxonomy["topics"]]
    companies = [c["id"] for c in taxonomy["companies"]]

    cids = [f"c{i:05d}" for i in range(concepts)]
    qids = [f"q{i:05d}" for i in range(2 * concepts)]
    for i, cid in enumerate(cids):
        prereqs = sorted({cids[j] for j in rng.sample(range(i), min(i, 2))}) if i else []
        related = sorted({cids[j] for j in rng.sample(range(concepts), 2)} - {cid} - set(prereqs))
        questions = qids[2 * i : 2 * i + 2]
        title = w.title()
        text = f"""---
title: {title}{i}
en: Synthetic concept {i}
aliases: [{rng.choice(WORDS)}{rng.choice(WORDS)}{i}, {rng.choice(TERMS)} {i}]
topic: {topics[i % len(topics)]}
prerequisites: [{", ".join(prereqs)}]
related: [{", ".join(related)}]
difficulty: {rng.choice(["basic", "intermediate", "advanced"])}
summary: {w.sentence()}
references:
  - title: A synthetic paper {i}
    year: 2024
    arxiv: "2401.{i % 100000:05d}"
---

## 一句话

{w.sentence()} 公式 $\\hat A_t = r_t + \\gamma V(s_{{t+1}}) - V(s_t)$。

## 直觉

{w.paragraph()}

{w.paragraph()}

## 公式与推导

$$
L(\\theta) = \\mathbb{{E}}_t\\big[\\min(r_t \\hat A_t, \\operatorname{{clip}}(r_t, 1-\\epsilon, 1+\\epsilon)\\hat A_t)\\big]
$$

{w.paragraph()}

## 代码

```python
import numpy as np
x = np.arange({i % 7 + 3})
assert x.sum() == {sum(range(i % 7 + 3))}
```

## 面试怎么问

- [[{questions[0]}]]
- [[{questions[1]}]]
{"".join(f"- 先复习 [[{p}]]。" + chr(10) for p in prereqs)}
## 易错点

- {w.sentence()}
- {w.sentence()}

## 速查

- {w.sentence(8)}
- {w.sentence(8)}
- {w.sentence(8)}
"""
        (content / "concepts" / f"{cid}.md").write_text(text, encoding="utf-8")
        for qid in questions:
            extra = rng.choice(cids)
            (content / "questions" / f"{qid}.md").write_text(f"""---
text: {w.sentence(8)[:-1]}？
brief: {w.sentence(10)}
primary: {cid}{chr(10) + "related: [" + extra + "]" if extra != cid else ""}
difficulty: {rng.choice(["basic", "intermediate", "advanced"])}
---

**要点**

1. {w.sentence()}
2. {w.sentence()}

**展开**

{w.paragraph()} 见 [[{cid}]]。
""", encoding="utf-8")
    reports = max(1, concepts // 8)
    for r in range(reports):
        asked = rng.sample(qids, min(len(qids), 8))
        topics_asked = rng.sample(cids, min(len(cids), 3))
        duplicate = f"duplicate_of: r{r - 1:05d}\n" if r % 10 == 9 else ""
        rounds = "" if duplicate else f"""rounds:
  - name: 一面
    questions: [{", ".join(asked[:4])}]
    topics: [{", ".join(topics_asked)}]
    other: [手撕：{rng.choice(WORDS)}]
  - name: 二面
    questions: [{", ".join(asked[4:])}]
"""
        (content / "reports" / f"r{r:05d}.md").write_text(f"""---
title: {rng.choice(["滴滴", "腾讯", "百度"])}面经 {r}
company: {companies[r % len(companies)]}
summary: {w.sentence()}
{duplicate}{rounds}---

{w.paragraph()}
""", encoding="utf-8")
    return root
