"""Keyword search as readers use it: typed into the real search box in headless Chromium."""
from __future__ import annotations

import json
import re
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
    assert search.pagefind_word("ppo") == "ppo" + search.WORD_END  # a stored word ends: `pp` is not `ppo`
    value = 0x71B5 - 0x4E00  # 熵
    code = "".join(search.CODE_SYMBOLS[value // 30 ** k % 30] for k in (2, 1, 0))
    assert search.pagefind_word("熵") == "\u01c2" + code + search.WORD_END
    # a stored pair starts with its first character's code: a one-character query finds it
    assert search.pagefind_word("熵坍").startswith(search.pagefind_word("熵")[:-1])
    # every stored word ends, so no proper prefix of one is a stored word: Pagefind, finding no
    # 量子, would look up the longest prefix that is a stored word (量) and return its pages
    assert all(w.endswith(search.WORD_END) and search.WORD_END not in w[:-1]
               for w in map(search.pagefind_word, ["量子", "量", "ppo", "kvcache", "要性"]))
    assert search.pagefind_word("熵坍") != search.pagefind_word("熵塌")
    assert not set(search.pagefind_word("要性")[1:]) & set("aeiouy")  # nothing the stemmer could cut


def test_browser_and_indexer_agree_on_where_each_field_sits():
    """search.js tells a match's field from its position alone: the layout constants must match."""
    script = (ROOT / "docs/assets/js/search.js").read_text(encoding="utf-8")
    for name in ("TITLE_SPAN", "NAMES_END", "HEAD", "HEADINGS_SPAN"):
        assert f"var {name} = {getattr(search, name)};" in script, name
    concept = search.Record("concepts/x/", "熵坍塌", "概念", "", ("entropy collapse",), ("直觉",), "", summary="熵掉到零")
    tokens = search.head_tokens(concept)
    assert len(tokens) == search.BODY_START
    assert tokens[:4] == ["熵坍", "坍塌", "塌", search.FILLER]
    assert tokens[search.TITLE_SPAN:search.TITLE_SPAN + 3] == ["entropy", "collapse", "entropycollapse"]
    assert tokens[search.NAMES_END:search.NAMES_END + 4] == ["熵掉", "掉到", "到零", "零"]
    assert set(tokens[search.HEAD:2 * search.HEAD]) == {search.FILLER}
    assert tokens[2 * search.HEAD:2 * search.HEAD + 2] == ["直觉", "觉"]
    question = search.Record("questions/x/", "熵坍塌", "题目", "", (), (), "")
    assert search.head_tokens(question)[search.HEAD:search.HEAD + 2] == ["熵坍", "坍塌"]
    assert set(search.head_tokens(question)[:search.HEAD]) == {search.FILLER}


def test_a_listing_page_is_found_by_its_names_not_by_the_titles_it_lists():
    report = search.Record("reports/x/", "某公司一面", "面经", "", (), (), "PPO GRPO DPO 熵坍塌", summary="问了强化学习", listing=True)
    html = search.record_html(report)
    body = html.split("<div>", 1)[1]
    assert body == "</div></body></html>"
    assert search.pagefind_word("强化") in html.split("<div>")[0]


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
    # Forget the last query's mark, so typing the same words again waits for their new results.
    page.evaluate("() => { const list = document.querySelector('.md-search-result__list'); if (list) delete list.dataset.query; }")
    if mode == "keys":
        box.press_sequentially(query)
    else:  # what an input method does when it commits text: an input event and no key events
        page.keyboard.insert_text(query)
    page.wait_for_function("(q) => document.querySelector('.md-search-result__list').dataset.query === q", arg=query)
    return page.eval_on_selector_all(".md-search-result__link", "links => links.map(a => new URL(a.href).pathname)")


@pytest.mark.browser
@pytest.mark.parametrize("mode", ["keys", "ime"])
def test_query_set_recall_at_5(page, site_url, mode):
    # Every query committed whole (as an input method does); every third typed key by key, which
    # searches at each keystroke on the way and must still end on the same results.
    queries = QUERIES if mode == "ime" else QUERIES[::3]
    page.goto(site_url)
    misses = []
    for item in queries:
        found = type_query(page, item["q"], mode)[:5]
        if "/" + item["expect"] not in found:
            misses.append(f"{item['q']!r}: expected /{item['expect']}, got {found}")
    recall = 1 - len(misses) / len(queries)
    assert len(QUERIES) >= 80 and len(queries) >= 60
    assert recall >= 0.95, "\n".join(misses)
    assert page.outside_requests == [] and page.js_errors == []


@pytest.mark.browser
def test_real_interview_questions_find_a_page_that_answers_them(page, site_url, built_site):
    assert len(REAL) >= 150
    for item in REAL:  # every entry says where it was asked and names a page the site has
        assert item["source"] and item["where"] and item["q"], item
        assert all((built_site / answer / "index.html").is_file() for answer in [item["page"], *item.get("also", [])]), item
    page.goto(site_url)
    misses = []
    for item in REAL:
        found = type_query(page, item["query"], "ime")[:5]
        if not any(f"/{answer}/" in found for answer in [item["page"], *item.get("also", [])]):
            misses.append(f"{item['query']!r} ({item['q']}): expected /{item['page']}/, got {found}")
    recall = 1 - len(misses) / len(REAL)
    assert recall >= 0.95, f"{recall:.1%}\n" + "\n".join(misses)
    assert page.outside_requests == [] and page.js_errors == []


@pytest.mark.browser
def test_results_survive_the_garbage_collector(page, site_url):
    """Pagefind frees a result's data once its object is collected: results the ranking keeps
    must be Pagefind's own objects. With the collector running every millisecond (Chromium's
    --expose-gc) each list must be what it is without it."""
    page.add_init_script("window.guideGc = false; setInterval(() => window.guideGc && window.gc(), 1)")
    page.goto(site_url)
    assert page.evaluate("typeof window.gc") == "function"
    queries = [item["query"] for item in REAL[:40]]
    calm = [type_query(page, q, "ime") for q in queries]
    page.evaluate("window.guideGc = true")
    busy = [type_query(page, q, "ime") for q in queries]
    assert sum(len(found) == 8 for found in calm) > 30 and busy == calm
    assert page.js_errors == []


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
    full = type_query(page, "熵坍塌 GRPO", "ime")  # pages with every word: counted, and the best first
    assert re.fullmatch(r"找到 \d+ 个页面(，另有部分匹配)?", page.inner_text(".md-search-result__meta"))
    assert full[0] == "/concepts/entropy-collapse/"
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


@pytest.mark.browser
@pytest.mark.parametrize("width", [360, 390, 414])
def test_search_on_a_phone_stays_inside_the_screen(phone, site_url, width):
    page = phone(width)
    page.goto(site_url + "concepts/ppo-clip/")
    page.evaluate("window.scrollTo(0, 600)")
    page.click("label.md-header__button[for=__search]")
    page.wait_for_timeout(400)  # Material's overlay expands while the box opens
    found = type_query(page, "reward hacking", "ime")
    assert found
    page.wait_for_timeout(600)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for control in (".guide-search label.md-search__icon", ".guide-search button[type=reset]"):
        box = page.locator(control).bounding_box()
        assert box and 0 <= box["x"] and box["x"] + box["width"] <= width, control
    page.locator(".guide-search label.md-search__icon").click()  # close: the page is where it was
    page.wait_for_timeout(300)
    assert page.evaluate("document.body.hasAttribute('data-md-scrolllock')") is False
    assert abs(page.evaluate("window.scrollY") - 600) < 5


FURNITURE = ["先自己想一想", "打印 / 保存 PDF", "参考答案", "一句话答案："]


@pytest.mark.browser
def test_snippets_are_the_pages_own_prose_with_formulas_as_tex(page, site_url):
    page.goto(site_url)
    snippets = []
    for query in ("PPO 为什么取 min", "reward hacking", "Pre-LN Post-LN", "GAE lambda", "RoPE 外推", "DPO 损失"):
        type_query(page, query, "ime")
        snippets += page.eval_on_selector_all(".md-search-result__item p:not(.guide-search__context)", "ps => ps.map(p => p.textContent)")
    assert len(snippets) >= 30
    for text in snippets:
        assert not any(f in text for f in FURNITURE), text
        # a gap where a formula was ("。）" is prose: a question quoted in brackets ends so)
        assert not re.search(r"[：，；、（]\s*[，；、。）]|。\s*[，；、。]", text), text
    assert any("$" in text for text in snippets)  # formulas read as their TeX


PAGE = ('<h1 id="t">标题<a class="headerlink" href="#t">¶</a></h1><div class="guide-meta">概念 · 基础</div>'
        '<div class="guide-print-bar"><button>打印</button></div>'
        '<h2 id="a">直觉 &amp; 定义<a class="headerlink" href="#a">¶</a></h2>'
        '<p>比率 <span class="arithmatex">\\(r_t = \\pi / \\pi_{old}\\)</span> 被裁剪。</p>'
        '<pre><code>def clip(x): return x</code></pre>'
        '<details><summary>先自己想一想</summary><p>答案&lt;在这&gt;。</p></details>'
        '<h3>细节</h3><div class="arithmatex">\\[\n  L = \\min(a,\n b)\n\\]</div>'
        '<strong class="guide-furniture">标签</strong><script>var x = 1;</script>'
        '<!-- search:stop --><ul><li><a href="../other/">别的页面</a></li></ul>')


def test_a_pages_text_leaves_out_its_furniture_and_what_follows_the_stop_marker():
    text, headings, snippet = search.page_text(PAGE)
    assert headings == ["直觉 & 定义", "细节"]  # h2-h4 only; the title is the record's own field
    # indexed: prose and code, no formula, no furniture, nothing after the stop marker
    assert text == "直觉 & 定义\n比率 被裁剪。\ndef clip(x): return x\n答案<在这>。\n细节"
    # shown: prose with each formula as its TeX between $ signs (delimiters and line breaks gone), no code
    assert snippet == "直觉 & 定义\n比率 $r_t = \\pi / \\pi_{old}$ 被裁剪。\n答案<在这>。\n细节\n$L = \\min(a, b)$"


def test_a_record_takes_its_fields_from_the_pages_front_matter():
    meta = {"kind": "概念", "context": "强化学习基础", "en": "PPO", "aliases": ["近端策略优化", ""], "description": "一句话。"}
    record = search.page_record("concepts/ppo/", "PPO", meta, PAGE)
    assert (record.kind, record.context, record.keywords, record.summary, record.listing) == (
        "概念", "强化学习基础", ("PPO", "近端策略优化"), "一句话。", False)
    assert record.headings == ("直觉 & 定义", "细节") and record.snippet.startswith("直觉 & 定义\n比率 $r_t")
    bare = search.page_record("about/", "关于", {"search": {"body": False}}, "<p>x</p>")
    assert (bare.kind, bare.context, bare.keywords, bare.summary, bare.listing) == ("页面", "", (), "", True)
    assert search.page_record("a/", "A", {"search": {"body": True}}, "").listing is False


def test_a_token_is_kept_at_most_three_times_per_page():
    assert search.capped(["a", "b", "a", "a", "a", "b", "c", "a"]) == ["a", "b", "a", "a", "b", "c"]
    assert search.capped(["a", "a", "a"], cap=1) == ["a"]


def test_a_records_html_carries_its_fields_escaped_and_its_tokens_at_their_positions():
    record = search.Record("concepts/x/", 'A "<b>"', "概念", "基础 & 进阶", ("en", "别名"), ("节",), "熵 熵 熵 熵 ppo",
                           summary="s", snippet="片段 <i>")
    html = search.record_html(record)
    head, body = html.split("</head>", 1)
    assert head == ('<html lang="en"><head>'
                    '<meta data-pagefind-meta="url[content]" content="concepts/x/">'
                    '<meta data-pagefind-meta="title[content]" content="A &quot;&lt;b&gt;&quot;">'
                    '<meta data-pagefind-meta="kind[content]" content="概念">'
                    '<meta data-pagefind-meta="context[content]" content="基础 &amp; 进阶">'
                    '<meta data-pagefind-meta="names[content]" content="en | 别名">'
                    '<meta data-pagefind-meta="text[content]" content="片段 &lt;i&gt;">')
    words = body.split('data-pagefind-weight="10">', 1)[1].split("</h1>")[0].split(" ")
    assert words == [search.pagefind_word(t) for t in search.head_tokens(record)]
    assert body.split("<div>", 1)[1] == " ".join([search.pagefind_word("熵")] * 3 + [search.pagefind_word("ppo")]) + "</div></body></html>"
    # empty fields are left out, except the three every result reads; the text stands in for a missing snippet
    plain = search.record_html(search.Record("a/", "", "页面", "", (), (), "x" * 2500))
    assert '"context[content]"' not in plain and '"names[content]"' not in plain and '"title[content]" content=""' in plain
    assert f'"text[content]" content="{"x" * search.SNIPPET_CHARS}"' in plain
