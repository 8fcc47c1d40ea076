"""Printing: the build prints every cheat sheet to pdf/<topic>.pdf with the site's own fonts; each
fits two A4 pages with room to spare, embeds its fonts and has its formulas typeset; a changed sheet
is printed anew; ordinary pages print without the site's chrome."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from conftest import make_tiny_project, mkdocs_build, valid_files
from guide.printfonts import FACES, missing_sources
from guide.printing import LOAD_PRINT_FONTS, READY, sheets

pytestmark = pytest.mark.browser
RAW_LATEX = re.compile(r"\\[A-Za-z]{2,}|\$\$|\\\(|\\\[")
FILL_LIMIT = 0.90
"""The last printed line of a sheet ends above 90 % of the page height: room for a font change or
an author's extra line before the sheet tips onto another page."""
LINE_PT = 7.7 * 1.32
"""One line of a cheat sheet (print.css: 7.7pt type, line-height 1.32), to say how much to cut."""


def pdf_pages(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))


def pdf_fonts(pdf: Path) -> list[list[str]]:
    rows = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout.splitlines()[2:]
    return [row.split() for row in rows]


def pdf_text(pdf: Path) -> str:
    """The PDF's text in reading layout, runs of spaces collapsed."""
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return re.sub(r"[ \t]+", " ", text)


def page_fill(pdf: Path, page: int) -> tuple[float, float]:
    """(where the page's last line in reading order ends / page height, page height in pt).

    A sheet prints in two columns, filled one after the other (Chromium does not balance the
    columns of a printed page), so the last line is the lowest line of the right-hand column when
    that column holds any text, else the lowest line of the left one. What lies below it, in that
    column, is the room to spare."""
    xml = subprocess.run(["pdftotext", "-bbox-layout", "-f", str(page), "-l", str(page), str(pdf), "-"],
                         capture_output=True, text=True, check=True).stdout
    width, height = (float(v) for v in re.search(r'<page width="([\d.]+)" height="([\d.]+)"', xml).groups())
    lines = [(float(x), float(y)) for x, y in re.findall(r'<line xMin="([\d.]+)" yMin="[\d.]+" xMax="[\d.]+" yMax="([\d.]+)"', xml)]
    right = [y for x, y in lines if x > width / 2]
    bottoms = right or [y for _, y in lines]
    return (max(bottoms) / height if bottoms else 0.0), height


def over_budget(pdfs: dict[str, Path]) -> list[str]:
    """One line per sheet that has no room to spare, saying how far over it is."""
    found = []
    for topic, pdf in sorted(pdfs.items()):
        pages = pdf_pages(pdf)
        fill, height = page_fill(pdf, pages)
        if pages > 2:
            found.append(f"cheatsheets/{topic}: {pages} pages (limit 2); page {pages} is {fill:.0%} full")
        elif pages == 2 and fill > FILL_LIMIT:  # a one-page sheet has a whole page to spare
            lines = (fill - FILL_LIMIT) * height / LINE_PT
            found.append(f"cheatsheets/{topic}: page {pages} is {fill:.1%} full (limit {FILL_LIMIT:.0%}): "
                         f"{(fill - FILL_LIMIT) * 100:.1f} points over, about {lines:.0f} lines of its last column; "
                         "shorten its notes' 速查 or list fewer concepts under the topic's sheet: in content/taxonomy.yml")
    return found


@pytest.fixture(scope="module")
def printed(built_site):
    """The PDFs the build printed: what a reader downloads."""
    return {topic: built_site / "pdf" / f"{topic}.pdf" for topic in sheets(built_site)}


def test_the_build_prints_a_sheet_per_topic_and_the_sheets_link_to_them(built_site, printed):
    topics = sheets(built_site)
    assert len(topics) == 11 and all(pdf.is_file() for pdf in printed.values())
    for topic in topics:
        html = (built_site / "cheatsheets" / topic / "index.html").read_text(encoding="utf-8")
        href = re.search(r'href="([^"]+\.pdf)"', html).group(1)
        assert (built_site / "cheatsheets" / topic / href).resolve() == printed[topic].resolve()


def test_each_sheet_fits_two_a4_pages_with_room_to_spare(printed):
    assert over_budget(printed) == []
    info = subprocess.run(["pdfinfo", str(next(iter(printed.values())))], capture_output=True, text=True).stdout
    assert "pts (A4)" in info


def test_a_sheet_over_budget_is_named_with_how_far_over(printed, tmp_path):
    # The check itself can fail: the fullest real sheet, printed twice over, is four pages.
    fullest = max((p for p in printed.values() if pdf_pages(p) == 2), key=lambda p: page_fill(p, 2)[0])
    assert over_budget({"fullest": fullest}) == []
    fill, height = page_fill(fullest, 2)
    assert 0.3 < fill <= FILL_LIMIT
    three = tmp_path / "three.pdf"
    subprocess.run(["pdfunite", str(fullest), str(fullest), str(three)], check=True)
    assert over_budget({"long": three}) == [f"cheatsheets/long: 4 pages (limit 2); page 4 is {fill:.0%} full"]


def test_print_uses_only_the_fonts_the_site_serves(browser, site_url, built_site):
    """Every glyph a sheet prints comes from a font the site serves (the print subsets, KaTeX's),
    never from the host: then every machine prints the same pages."""
    assert missing_sources() == [], "the print fonts' source files are missing: " + "; ".join(missing_sources())
    css = (built_site / "assets/css/print-fonts.css").read_text(encoding="utf-8")
    assert sorted(set(re.findall(r'font-family: "([^"]+)"', css))) == sorted({f.family for f in FACES})
    host_glyphs = []
    for topic in sheets(built_site):
        page = browser.new_page()
        page.goto(f"{site_url}cheatsheets/{topic}/")
        page.wait_for_function(READY)
        page.emulate_media(media="print")
        page.evaluate(LOAD_PRINT_FONTS)
        cdp = page.context.new_cdp_session(page)
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument", {"depth": -1})["root"]
        stack = [root]
        while stack:
            node = stack.pop()
            attrs = node.get("attributes", [])
            if "katex-mathml" in dict(zip(attrs[::2], attrs[1::2])).get("class", ""):
                continue  # MathML for screen readers: clipped to nothing, it is not printed
            if node.get("nodeType") == 3 and node.get("nodeValue", "").strip():
                for font in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]})["fonts"]:
                    if not font["isCustomFont"]:
                        host_glyphs.append(f"cheatsheets/{topic}: {font['glyphCount']} glyph(s) of {node['nodeValue'][:40]!r} "
                                           f"in the host's font {font['familyName']!r}")
            stack.extend(node.get("children", []))
        page.close()
    assert host_glyphs == [], ("text printed with a host font, so layout depends on the machine; the print fonts "
                               "(hooks/guide/printfonts.py) should cover it:\n" + "\n".join(host_glyphs[:20]))


A4_CONTENT_PX = round((210 - 2 * 10) / 25.4 * 96)
"""The printable width of A4 with print.css's 10 mm side margins, in CSS pixels."""


def test_nothing_on_a_sheet_is_wider_than_its_column(browser, site_url, built_site):
    # A display formula wider than its column runs over the other column on paper (overflow is
    # visible in print, so it is not cut off): the verl sheet's batch-size formula once did.
    too_wide = []
    for topic in sheets(built_site):
        page = browser.new_page(viewport={"width": A4_CONTENT_PX, "height": 1000})
        page.goto(f"{site_url}cheatsheets/{topic}/")
        page.wait_for_function(READY)
        page.emulate_media(media="print")
        page.evaluate(LOAD_PRINT_FONTS)
        too_wide += [f"cheatsheets/{topic}: {text!r} is {wide} px wide, its column {column} px" for text, wide, column in page.evaluate(
            """() => [...document.querySelectorAll('.cheatsheet .katex-display, .cheatsheet pre, .cheatsheet table')]
                 .filter(el => el.scrollWidth > el.clientWidth + 1)
                 .map(el => [el.textContent.slice(0, 40), el.scrollWidth, el.clientWidth])""")]
        page.close()
    assert too_wide == [], "split these into lines (\\begin{gathered} … \\\\ … \\end{gathered}):\n" + "\n".join(too_wide)


def test_the_print_fonts_are_not_downloaded_on_screen(page, site_url):
    requested = []
    page.on("request", lambda r: requested.append(r.url))
    page.goto(site_url + "cheatsheets/rl-foundations/")
    page.wait_for_function(READY)
    page.wait_for_timeout(300)
    assert [u for u in requested if "/assets/fonts/" in u] == []
    page.emulate_media(media="print")
    page.evaluate(LOAD_PRINT_FONTS)
    assert any("/assets/fonts/guide-print-sans-400." in u for u in requested)
    assert page.outside_requests == []


def test_sheets_embed_their_fonts_and_chinese_text(printed):
    # Chromium embeds Noto CJK (an OpenType/CFF font) as Type 3 glyph fonts: every font must be
    # embedded, and the Chinese title must come back out of the file.
    for topic, pdf in printed.items():
        fonts = pdf_fonts(pdf)
        assert fonts and all("yes" == row[-5] for row in fonts), (topic, fonts)
        text = pdf_text(pdf)
        assert "速查表" in text and len(re.findall(r"[\u4e00-\u9fff]", text)) > 300, topic


def test_sheet_text_has_its_title_and_no_raw_latex(printed, built_site):
    for topic, pdf in printed.items():
        html = (built_site / "cheatsheets" / topic / "index.html").read_text(encoding="utf-8")
        title = re.search(r'<h1 id="[^"]*">(.*?)<a', html).group(1).strip()
        text = pdf_text(pdf)
        assert title in text, topic
        assert not RAW_LATEX.search(text), (topic, RAW_LATEX.search(text).group(0))


def test_a_changed_sheet_is_printed_anew_and_an_unchanged_one_reused(tmp_path):
    files = valid_files()
    bullets = "- 第一条。\n- 第二条。\n- 第三条。\n"
    files["concepts/alpha.md"] = files["concepts/alpha.md"].replace(bullets, "- 旧的要点甲。\n- 第二条。\n- 第三条。\n")
    project = make_tiny_project(tmp_path / "project", files)
    site = tmp_path / "site"
    first = mkdocs_build(project, site)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "旧的要点甲" in pdf_text(site / "pdf" / "basics.pdf")
    assert re.search(r"cheat sheets: \d+ PDFs .*\(\d+ printed, 0 unchanged\)", first.stderr)
    again = mkdocs_build(project, site)
    assert re.search(r"\(0 printed, \d+ unchanged\)", again.stderr), again.stderr
    # The same characters in another order: the print fonts stay the same, only this sheet changes.
    alpha = project / "content/concepts/alpha.md"
    alpha.write_text(alpha.read_text(encoding="utf-8").replace("旧的要点甲", "甲的要点旧"), encoding="utf-8")
    changed = mkdocs_build(project, site)
    assert changed.returncode == 0
    assert re.search(r"\(1 printed, \d+ unchanged\)", changed.stderr), changed.stderr
    text = pdf_text(site / "pdf" / "basics.pdf")
    assert "甲的要点旧" in text and "旧的要点甲" not in text
    # A new character changes the print fonts, so every sheet is printed anew with them.
    alpha.write_text(alpha.read_text(encoding="utf-8").replace("甲的要点旧", "乙的要点新"), encoding="utf-8")
    new_char = mkdocs_build(project, site)
    assert re.search(r"\((\d+) printed, 0 unchanged\)", new_char.stderr), new_char.stderr
    assert "乙的要点新" in pdf_text(site / "pdf" / "basics.pdf")


def test_an_ordinary_page_prints_without_chrome_in_light_colours(page, site_url, tmp_path):
    page.emulate_media(color_scheme="dark")
    page.goto(site_url + "concepts/ppo-clip/")
    page.wait_for_selector(".katex")
    assert page.get_attribute("body", "data-md-color-scheme") == "slate"  # the reader uses dark mode
    page.emulate_media(media="print", color_scheme="dark")
    colours = page.evaluate("""() => [getComputedStyle(document.body).backgroundColor,
        getComputedStyle(document.querySelector('.md-typeset')).color,
        getComputedStyle(document.querySelector('.md-header')).display,
        getComputedStyle(document.querySelector('.guide-print-bar')).display,
        getComputedStyle(document.querySelector('.highlight pre')).whiteSpace]""")
    assert colours[0] == "rgb(255, 255, 255)"
    r, g, b = (int(x) for x in re.findall(r"\d+", colours[1])[:3])
    assert max(r, g, b) < 80  # dark text on white paper
    assert colours[2:] == ["none", "none", "pre-wrap"]
    pdf = tmp_path / "ppo.pdf"
    page.pdf(path=str(pdf), prefer_css_page_size=True)
    text = pdf_text(pdf)
    assert text.lstrip().startswith("PPO") and "搜索：" not in text and "使用说明" not in text
    assert not RAW_LATEX.search(text)


def test_collapsed_blocks_print_open(page, site_url):
    page.goto(site_url + "about/")
    page.evaluate("""() => { const d = document.createElement('details'); d.innerHTML = '<summary>答案</summary><p id=hidden-answer>要点</p>';
        document.querySelector('.md-typeset').appendChild(d); }""")
    assert page.locator("#hidden-answer").is_hidden()
    page.emulate_media(media="print")
    assert page.locator("#hidden-answer").is_visible()


def test_print_buttons_load_the_print_fonts_then_open_the_print_dialog(page, site_url):
    for path in ("concepts/gae/", "cheatsheets/rl-foundations/"):
        page.goto(site_url + path)
        page.evaluate("""() => { window.__printed = []; window.print = () => { window.__printed.push(
            [...document.fonts].filter(f => f.family.replace(/"/g, '').startsWith('Guide Print')).map(f => f.status)); }; }""")
        page.locator(".guide-print", has_text="打印 / 保存 PDF").click()
        page.wait_for_function("() => window.__printed.length > 0")
        [statuses] = page.evaluate("() => window.__printed")
        assert len(statuses) == 5 and set(statuses) == {"loaded"}
