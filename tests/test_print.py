"""Printing: every cheat sheet fits two A4 pages with fonts embedded and formulas typeset;
`make pdf` writes one PDF per sheet; ordinary pages print without the site's chrome."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
from make_pdf import print_page, sheets  # noqa: E402

pytestmark = pytest.mark.browser
RAW_LATEX = re.compile(r"\\[A-Za-z]{2,}|\$\$|\\\(|\\\[")


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


@pytest.fixture(scope="module")
def printed(built_site, browser, site_url, tmp_path_factory):
    """Every cheat sheet printed as a reader's Save-as-PDF would."""
    out = tmp_path_factory.mktemp("printed")
    pdfs = {}
    for topic in sheets(built_site):
        pdfs[topic] = out / f"{topic}.pdf"
        print_page(browser, f"{site_url}cheatsheets/{topic}/", pdfs[topic])
    return pdfs


def test_there_is_a_sheet_per_topic(built_site, printed):
    topics = sheets(built_site)
    assert len(topics) == 8 and set(printed) == set(topics)


def test_each_sheet_fits_two_a4_pages(printed):
    assert {topic: pdf_pages(pdf) for topic, pdf in printed.items() if pdf_pages(pdf) > 2} == {}
    info = subprocess.run(["pdfinfo", str(next(iter(printed.values())))], capture_output=True, text=True).stdout
    assert "pts (A4)" in info


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


def test_make_pdf_writes_one_pdf_per_sheet_and_sheets_link_to_them(built_site, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(built_site, site)
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_pdf.py"), str(site)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    written = sorted(p.stem for p in (site / "pdf").glob("*.pdf"))
    assert written == sheets(site)
    for topic in written:
        html = (site / "cheatsheets" / topic / "index.html").read_text(encoding="utf-8")
        href = re.search(r'href="([^"]+\.pdf)"', html).group(1)
        assert (site / "cheatsheets" / topic / href).resolve() == (site / "pdf" / f"{topic}.pdf").resolve()


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


def test_print_buttons_open_the_print_dialog(page, site_url):
    for path in ("concepts/gae/", "cheatsheets/rl-foundations/"):
        page.goto(site_url + path)
        page.evaluate("() => { window.__printed = 0; window.print = () => { window.__printed += 1; }; }")
        page.locator(".guide-print", has_text="打印 / 保存 PDF").click()
        assert page.evaluate("() => window.__printed") == 1
