"""safe.py on its own: author text written into Markdown, and the last look at a rendered page."""
from __future__ import annotations

import markdown
import pytest

from guide.safe import Markdown, html_text, md_code, md_text, md_url, refusal, unsafe_html, url_scheme

MARKDOWN = markdown.Markdown(extensions=["attr_list", "md_in_html", "tables", "pymdownx.arithmatex"],
                             extension_configs={"pymdownx.arithmatex": {"generic": True}})


def rendered(text: str) -> str:
    MARKDOWN.reset()
    return MARKDOWN.convert(text)


@pytest.mark.parametrize("text, written", [
    ("PPO 裁剪目标", "PPO 裁剪目标"),
    ("A<0 与 <think> & \"q\" 's'", "A&lt;0 与 &lt;think&gt; &amp; &quot;q&quot; &#39;s&#39;"),
    ("*星* _下_ [方] {花} \\斜 | 竖 $5 `x", "&#42;星&#42; &#95;下&#95; &#91;方&#93; &#123;花&#125; &#92;斜 &#124; 竖 &#36;5 &#96;x"),
    ("`a<b>` 与 $x<y$", "<code>a&lt;b&gt;</code> 与 $x\\lt y$"),
    ("``a ` b``", "<code>a &#96; b</code>"),
    ("# 标题", "&#35; 标题"), ("- 列表", "&#45; 列表"), ("+ 列表", "&#43; 列表"), (": 定义", "&#58; 定义"),
    ("1. 一", "1&#46; 一"), ("12) 二", "12&#41; 二"), ("!!! note", "!!&#33; note"), ("=== \"t\"", "==&#61; &quot;t&quot;"),
    ("-5 度", "-5 度"), ("1707.06347", "1707.06347"), ("Dr. GRPO", "Dr. GRPO"), ("a # b", "a # b"),
    ("两\n行\t字", "两 行 字"), (" · ", " · "), (2025, "2025"),
])
def test_md_text_escapes_everything_markdown_or_html_could_act_on(text, written):
    assert md_text(text) == written


@pytest.mark.parametrize("text", ["A<0 与 <think> & \"q\"", "*星* _下_ [方](x) {: onclick=1 }", "<img src=x onerror=alert(1)>",
                                  "# 标题", "- 列表", "| a | b |", "&lt; 已转义", "\\* 反斜杠"])
def test_md_text_reads_back_as_the_same_text_once_rendered(text):
    import html
    import re

    shown = re.sub(r"<[^>]+>", "", rendered(md_text(text)))
    assert html.unescape(shown) == text


def test_md_text_keeps_markdown_the_engine_made_and_marks_what_it_returns():
    made = Markdown("[链接](/x.md)")
    assert md_text(made) is made
    assert isinstance(md_text("x"), Markdown) and isinstance(md_code("x"), Markdown) and isinstance(md_url("https://a"), Markdown)


def test_code_urls_and_html_text():
    assert md_code("f(x) -> list[int] | None") == "<code>f(x) -&gt; list&#91;int&#93; &#124; None</code>"
    assert md_url("https://a.example/p (1)?q=<x>\"") == "https://a.example/p%20%281%29?q=%3Cx%3E%22"
    assert md_url("https://a.example/a-b_c.d~e/%41#f") == "https://a.example/a-b_c.d~e/%41#f"
    assert html_text("a<b & \"c\"\n d") == "a&lt;b &amp; &quot;c&quot; d"


@pytest.mark.parametrize("url, scheme", [
    ("javascript:alert(1)", "javascript"), ("JavaScript:x", "javascript"), ("  javascript:x", "javascript"),
    ("java\tscript:x", "javascript"), ("jav&#97;script:x", "javascript"), ("java&#x09;script:x", "javascript"),
    ("\x01javascript:x", "javascript"), ("vbscript:x", "vbscript"), ("data:text/html,x", "data"),
    ("https://a.example/", "https"), ("mailto:a@b", "mailto"), ("/concepts/x/", None), ("../x.md#a:b", None),
    ("x.html", None), ("#anchor", None), ("", None),
])
def test_url_scheme_reads_the_scheme_as_a_browser_would(url, scheme):
    assert url_scheme(url) == scheme


@pytest.mark.parametrize("page, found", [
    ('<p>ok <a href="https://a.example/">x</a> <code>&lt;script&gt;</code></p>', []),
    ('<script type="application/json" id="d">{"a":"\\u003c/script>"}</script>', []),
    ("<!-- search:stop --><svg><a href=\"/x/\"><text>t</text></a></svg>", []),
    ("<script>alert(1)</script>", ["a <script> element"]),
    ('<script type="module" src="x.js"></script>', ["a <script> element"]),
    ('<p onclick="x()">a</p>', ["an event handler (onclick) on <p>"]),
    ("<img src=x ONERROR=alert(1)>", ["an event handler (onerror) on <img>"]),
    ('<br onmouseover="x()"/>', ["an event handler (onmouseover) on <br>"]),
    ('<a href="jav&#97;script:alert(1)">x</a>', ["a 'javascript:' address in href of <a>"]),
    ('<form action="javascript:x"></form>', ["a 'javascript:' address in action of <form>"]),
    ('<svg><a xlink:href="data:text/html,x">x</a></svg>', ["a 'data:' address in xlink:href of <a>"]),
    ('<iframe src="https://a.example/"></iframe>', ["a <iframe> element"]),
    ('<object data="x"></object>', ["a <object> element"]),
    ('<embed src="x">', ["a <embed> element"]),
    ('<base href="https://evil.example/">', ["a <base> element"]),
    ('<meta http-equiv="refresh" content="0">', ["a <meta> element"]),
    ('<link rel="stylesheet" href="x.css">', ["a <link> element"]),
    ("<style>p{}</style>", ["a <style> element"]),
    ('<svg><set attributeName="href" to="javascript:x"/></svg>', ["an SVG <set> that changes a link"]),
    ('<svg><animate attributeName="xlink:href" values="javascript:x"/></svg>', ["an SVG <animate> that changes a link"]),
    ("<p>a</p><!--> <img src=x onerror=alert(1)> -->", ["an HTML comment that browsers may end early"]),
    ("<!---> x -->", ["an HTML comment that browsers may end early"]),
    ("<!-- a --!> b -->", ["an HTML comment that browsers may end early"]),
    ("<![CDATA[ x ]]>", ["a markup declaration (<![CDATA[ x …)"]),
    ("<!DOCTYPE html><p>x</p>", []),
    ("<!ELEMENT x>", []),  # a bogus comment to both this parser and browsers: it ends at the first >
    ("<?php x ?>", ["a processing instruction (<?php x ?…)"]),
])
def test_unsafe_html_names_what_could_run(page, found):
    assert unsafe_html(page) == found


def test_unsafe_html_names_each_finding_once_in_order():
    assert unsafe_html('<p onclick="a">x</p><p onclick="b">y</p><script>z</script>') == [
        "an event handler (onclick) on <p>", "a <script> element"]


def test_a_refusal_names_the_file_the_page_came_from():
    found = ["a <script> element"]
    assert refusal("concepts/x.md", True, found) == (
        "content/concepts/x.md: the page would carry a <script> element; the build stopped rather than publish it. "
        "The checks on content should have named the line: please report this with the file")
    assert refusal("about.md", False, found).startswith("docs/about.md: the page would carry")
    assert refusal("topics/x.md", True, found).startswith(
        "the page generated at topics/x.md (from content/taxonomy.yml and the files it lists): the page would carry")
