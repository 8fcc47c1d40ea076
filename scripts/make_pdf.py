"""`make pdf`: print every topic's cheat sheet to site/pdf/<topic>.pdf with headless Chromium.

Chromium runs the page's scripts (so KaTeX typesets every formula) and prints with the site's
print stylesheet, exactly as a reader's "Save as PDF" would; CJK text uses Debian's Noto CJK
fonts, which Chromium embeds.  Usage: make_pdf.py [SITE_DIR]  (default: site)
"""
from __future__ import annotations

import functools
import http.server
import sys
import threading
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
READY = """() => document.fonts.ready.then(() =>
  [...document.querySelectorAll('.arithmatex')].every(el => el.querySelector('.katex')))"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def print_page(browser: Browser, url: str, target: Path) -> None:
    """Save one page as an A4 PDF, the way the print dialog would."""
    page = browser.new_page()
    page.goto(url)
    page.wait_for_function(READY)
    page.emulate_media(media="print")
    target.parent.mkdir(parents=True, exist_ok=True)
    page.pdf(path=str(target), prefer_css_page_size=True, print_background=True)
    page.close()


def sheets(site: Path) -> list[str]:
    return sorted(p.parent.name for p in (site / "cheatsheets").glob("*/index.html"))


def main(site: Path) -> int:
    topics = sheets(site)
    if not topics:
        print(f"no cheat sheets under {site}/cheatsheets: run 'make site' first", file=sys.stderr)
        return 1
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for topic in topics:
                target = site / "pdf" / f"{topic}.pdf"
                print_page(browser, f"{base}cheatsheets/{topic}/", target)
                print(f"wrote {target}")
            browser.close()
    finally:
        server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("site")))
