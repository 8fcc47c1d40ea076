"""A synthetic guide in the real content format, for benchmarks and scaling tests.

`write_guide(root, concepts=n)` writes `root/content/` with n concepts spread over the
real taxonomy's topics, two questions per concept and one report per eight concepts
(about the real guide's proportions), each linking the way real notes do.
"""
from __future__ import annotations

import random
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORDS = ("策略", "梯度", "优势", "估计", "方差", "偏差", "裁剪", "比率", "奖励", "模型", "采样", "训练", "推理", "缓存",
         "并行", "张量", "流水线", "显存", "通信", "分布", "约束", "散度", "熵", "坍塌", "黑客", "信用", "分配", "轨迹")
TERMS = ("PPO", "GRPO", "KL", "rollout", "critic", "token", "batch", "reward", "advantage", "loss", "LoRA", "KV cache")


def sentence(rng: random.Random, n: int = 12) -> str:
    parts = [rng.choice(WORDS) if rng.random() < 0.75 else rng.choice(TERMS) for _ in range(n)]
    return "".join(p if "\u4e00" <= p[0] <= "\u9fff" else f" {p} " for p in parts).strip() + "。"


def paragraph(rng: random.Random, n: int = 4) -> str:
    return "".join(sentence(rng) for _ in range(n))


def write_guide(root: Path, concepts: int, seed: int = 0) -> Path:
    """Write a synthetic `content/` (and copy the real taxonomy) under `root`."""
    rng = random.Random(seed)
    content = root / "content"
    if content.exists():
        shutil.rmtree(content)
    for sub in ("concepts", "questions", "reports"):
        (content / sub).mkdir(parents=True)
    shutil.copy(ROOT / "content" / "taxonomy.yml", content / "taxonomy.yml")
    import yaml

    taxonomy = yaml.safe_load((content / "taxonomy.yml").read_text(encoding="utf-8"))
    topics = [t["id"] for t in taxonomy["topics"]]
    companies = [c["id"] for c in taxonomy["companies"]]

    cids = [f"c{i:05d}" for i in range(concepts)]
    qids = [f"q{i:05d}" for i in range(2 * concepts)]
    for i, cid in enumerate(cids):
        prereqs = sorted({cids[j] for j in rng.sample(range(i), min(i, 2))}) if i else []
        related = sorted({cids[j] for j in rng.sample(range(concepts), 2)} - {cid} - set(prereqs))
        questions = qids[2 * i : 2 * i + 2]
        title = "".join(rng.sample(WORDS, 3))
        text = f"""---
title: {title}{i}
en: Synthetic concept {i}
aliases: [{rng.choice(WORDS)}{rng.choice(WORDS)}{i}, {rng.choice(TERMS)} {i}]
topic: {topics[i % len(topics)]}
prerequisites: [{", ".join(prereqs)}]
related: [{", ".join(related)}]
difficulty: {rng.choice(["basic", "intermediate", "advanced"])}
summary: {sentence(rng)}
references:
  - title: A synthetic paper {i}
    year: 2024
    arxiv: "2401.{i % 100000:05d}"
---

## 一句话

{sentence(rng)} 公式 $\\hat A_t = r_t + \\gamma V(s_{{t+1}}) - V(s_t)$。

## 直觉

{paragraph(rng)}

{paragraph(rng)}

## 公式与推导

$$
L(\\theta) = \\mathbb{{E}}_t\\big[\\min(r_t \\hat A_t, \\operatorname{{clip}}(r_t, 1-\\epsilon, 1+\\epsilon)\\hat A_t)\\big]
$$

{paragraph(rng)}

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

- {sentence(rng)}
- {sentence(rng)}

## 速查

- {sentence(rng, 8)}
- {sentence(rng, 8)}
- {sentence(rng, 8)}
"""
        (content / "concepts" / f"{cid}.md").write_text(text, encoding="utf-8")
        for qid in questions:
            extra = rng.choice(cids)
            (content / "questions" / f"{qid}.md").write_text(f"""---
text: {sentence(rng, 8)[:-1]}？
brief: {sentence(rng, 10)}
concepts: [{cid}{", " + extra if extra != cid else ""}]
difficulty: {rng.choice(["basic", "intermediate", "advanced"])}
---

**要点**

1. {sentence(rng)}
2. {sentence(rng)}

**展开**

{paragraph(rng)} 见 [[{cid}]]。
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
summary: {sentence(rng)}
{duplicate}{rounds}---

{paragraph(rng)}
""", encoding="utf-8")
    return root
