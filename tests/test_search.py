"""Keyword search as readers use it: typed into the real search box in headless Chromium."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
import yaml

from conftest import ROOT
from guide import search
from guide.search import index_tokens, query_tokens

QUERIES = yaml.safe_load((Path(__file__).parent / "search_queries.yml").read_text(encoding="utf-8"))
REAL = yaml.safe_load((Path(__file__).parent / "real_questions.yml").read_text(encoding="utf-8"))
SAMPLES = ["熵坍塌", "坍塌", "张量 并行", "张量并行", "GRPO 的 KL", "KL散度", "ppo_mini_batch_size", "Kv Cache",
           "kvcache", "Qwen2.5-VL top-p", "ＰＰＯ（全角）", "重要性采样", "熵", "a", "", "   ", "λ-GRPO", "k3 估计器",
           "train_batch_size/ppo_mini_batch_size", "Dr. GRPO", "w8a16", "RoPE 外推", "滴滴", "π_θ(a|s)"]


def test_js_and_python_tokenizers_agree():
    script = "const s=require(process.argv[1]);const q=JSON.parse(process.argv[2]);" \
             "console.log(JSON.stringify(q.map(x=>s.queryTokens(x).map(t=>[t, s.pagefindWord(t)]))))"
    out = subprocess.run(["node", "-e", script, str(ROOT / "docs/assets/js/search.js"), json.dumps(SAMPLES)],
                         capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [[[t, search.pagefind_word(t)] for t in query_tokens(s)] for s in SAMPLES]


def test_pagefind_words_keep_prefixes_and_escape_stemming():
    assert search.pagefind_word("ppo") == "ppo"
    value = 0x71B5 - 0x4E00  # 熵
    code = "".join(search.CODE_SYMBOLS[value // 30 ** k % 30] for k in (2, 1, 0))
    assert search.pagefind_word("熵") == "\u01c2" + code
    assert search.pagefind_word("熵坍").startswith(search.pagefind_word("熵"))
    assert search.pagefind_word("熵坍") != search.pagefind_word("熵塌")
    assert not set(search.pagefind_word("要性")[1:]) & set("aeiouy")  # nothing the stemmer could cut


def test_browser_and_indexer_agree_on_the_title_region():
    """search.js ranks by word positions that search.py reserves for titles: the sizes must match."""
    script = (ROOT / "docs/assets/js/search.js").read_text(encoding="utf-8")
    assert f"var HEAD = {search.HEAD};" in script and f"var TITLE_SPAN = {search.TITLE_SPAN};" in script
    tokens = search.head_tokens(search.Record("concepts/x/", "熵坍塌", "概念", "", ("entropy collapse",), (), ""))
    assert len(tokens) == 2 * search.HEAD
    assert tokens[:4] == ["熵坍", "坍塌", "塌", search.FILLER]
    assert tokens[search.TITLE_SPAN:search.TITLE_SPAN + 3] == ["entropy", "collapse", "entropycollapse"]
    assert set(tokens[search.HEAD:]) == {search.FILLER}
    question = search.Record("questions/x/", "熵坍塌", "题目", "", (), (), "")
    assert search.head_tokens(question)[search.HEAD:search.HEAD + 2] == ["熵坍", "坍塌"]


def test_every_query_token_is_a_prefix_of_an_index_token():
    """What makes partial words work: any piece a reader types is found in the text's tokens."""
    text = "熵坍塌（entropy collapse）让 GRPO 的 KL 约束失效；ppo_mini_batch_size 与 KV cache。"
    stored = index_tokens(text)
    for query in ("熵坍塌", "坍塌", "熵", "塌", "GRPO 的 KL", "ppo_mini", "kvcache", "KV cache", "collapse"):
        for token in query_tokens(query):
            assert any(s.startswith(token) for s in stored), (query, token)


def type_query(page, query: str, mode: str) -> list[str]:
    box = page.locator(".guide-search input[name=q]")
    box.click()
    box.fill("")
    if mode == "keys":
        box.press_sequentially(query)
    else:  # what an input method does when it commits text: an input event and no key events
        page.keyboard.insert_text(query)
    page.wait_for_function("(q) => document.querySelector('.md-search-result__list').dataset.query === q", arg=query)
    return page.eval_on_selector_all(".md-search-result__link", "links => links.map(a => new URL(a.href).pathname)")


@pytest.mark.browser
@pytest.mark.parametrize("mode", ["keys", "ime"])
def test_query_set_recall_at_5(page, site_url, mode):
    page.goto(site_url)
    misses = []
    for item in QUERIES:
        found = type_query(page, item["q"], mode)[:5]
        if "/" + item["expect"] not in found:
            misses.append(f"{item['q']!r}: expected /{item['expect']}, got {found}")
    recall = 1 - len(misses) / len(QUERIES)
    assert len(QUERIES) >= 80
    assert recall >= 0.95, "\n".join(misses)
    assert page.outside_requests == [] and page.js_errors == []


@pytest.mark.browser
def test_real_interview_questions_find_a_page_that_answers_them(page, site_url, built_site):
    assert len(REAL) >= 150
    for item in REAL:  # every entry says where it was asked and names a page the site has
        assert item["source"] and item["where"] and item["q"], item
        assert (built_site / item["page"] / "index.html").is_file(), item
    page.goto(site_url)
    misses = []
    for item in REAL:
        found = type_query(page, item["query"], "ime")[:5]
        if "/" + item["page"] + "/" not in found:
            misses.append(f"{item['query']!r} ({item['q']}): expected /{item['page']}/, got {found}")
    recall = 1 - len(misses) / len(REAL)
    assert recall >= 0.95, f"{recall:.1%}\n" + "\n".join(misses)
    assert page.outside_requests == [] and page.js_errors == []


@pytest.mark.browser
def test_result_shows_title_context_and_highlighted_snippet_and_target_highlights(page, site_url):
    page.goto(site_url + "stats/")
    type_query(page, "重要性采样", "ime")
    first = page.locator(".md-search-result__item").first
    assert "重要性采样" in first.locator("h1").inner_text()
    assert first.locator(".guide-search__context").inner_text() == "概念 · 强化学习基础"
    assert first.locator("p mark").count() >= 1
    first.locator("a").click()
    page.wait_for_url("**/concepts/importance-sampling/?h=*")
    page.wait_for_selector("mark.guide-hit")
    assert page.locator("mark.guide-hit").first.inner_text() == "重要性采样"
    assert page.js_errors == []


@pytest.mark.browser
def test_search_loads_nothing_until_the_reader_opens_it(page, site_url):
    fetched = []
    page.on("request", lambda r: fetched.append(r.url))
    page.goto(site_url + "concepts/ppo-clip/")
    page.wait_for_load_state("networkidle")
    assert not [u for u in fetched if "/pagefind/" in u]
    type_query(page, "ppo", "keys")
    assert [u for u in fetched if "/pagefind/" in u]
    assert page.outside_requests == []


@pytest.mark.browser
def test_every_coding_task_is_found_by_its_hand_coding_query(page, site_url, built_site):
    tasks = sorted(p.parent.name for p in (built_site / "coding").glob("*/index.html"))
    queries = [q for q in QUERIES if q["expect"].startswith("coding/")]
    assert sorted(q["expect"].split("/")[1] for q in queries) == tasks  # one query per task, every task
    page.goto(site_url)
    misses = [f"{q['q']!r}: got {found}" for q in queries
              if "/" + q["expect"] not in (found := type_query(page, q["q"], "ime")[:5])]
    assert misses == []


@pytest.mark.browser
def test_a_query_with_a_word_no_page_uses_still_finds_the_pages_with_the_others(page, site_url):
    page.goto(site_url)
    found = type_query(page, "熵坍塌 量子纠缠", "ime")
    assert found[0] == "/concepts/entropy-collapse/"
    assert page.inner_text(".md-search-result__meta") == "没有页面包含所有关键词；下面是部分匹配的页面"
    full = type_query(page, "熵坍塌 GRPO", "ime")  # enough full matches: nothing partial is added
    assert "部分匹配" not in page.inner_text(".md-search-result__meta") and full
    single = type_query(page, "熵坍缩", "ime")  # a variant spelling: one of its two tokens matches
    assert "/concepts/entropy-collapse/" in single[:3]


def test_a_stale_index_job_is_stopped_with_its_pagefind_process(tmp_path):
    """`make serve`: a rebuild stops the index still being written for the previous edit."""
    import os

    records = [search.Record(f"p{i}/", f"页面 {i}", "概念", "", (), (), "正文 " * 2000) for i in range(400)]
    job = search.IndexJob(records, tmp_path / "pagefind")
    assert job.cancel() is True
    with pytest.raises(ProcessLookupError):
        os.killpg(job.process.pid, 0)  # nothing of the group is left writing into the site
    finished = search.IndexJob(records[:3], tmp_path / "small")
    finished.wait()
    assert finished.cancel() is False and (tmp_path / "small" / "pagefind.js").is_file()


def test_the_index_folds_width_and_case_as_the_query_does():
    """A page written with full-width letters or capitals is found by what readers type, and a
    query typed full-width finds a page written plainly: both sides normalise the same way."""
    assert index_tokens("ＰＰＯ 的 Ｋｖ　Ｃａｃｈｅ，ＧＲＰＯ") == index_tokens("ppo 的 kv cache,grpo")
    stored = index_tokens("ＰＰＯ 与 ＫＶ Ｃａｃｈｅ")
    for query in ("ppo", "PPO", "kv cache", "ＫＶ"):
        assert all(any(s.startswith(t) for s in stored) for t in query_tokens(query)), query
