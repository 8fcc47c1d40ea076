"""Print every cheat sheet of a written site to `pdf/<topic>.pdf`, as a reader's "Save as PDF" would.

Runs after the site is written, over the files just written (never over an older site): headless
Chromium opens each sheet from a local server, waits for its fonts and formulas, and prints it
with the site's print stylesheet. A sheet whose HTML and print assets are unchanged since the
last build reuses that build's PDF (cached by content hash in `.cache/pdf/`), so a rebuild
prints only the sheets that changed; a changed sheet is always printed anew.
"""
from __future__ import annotations

import functools
import hashlib
import http.server
import shutil
import threading
from dataclasses import dataclass
from pathlib import Path

from .urls import pdf_url

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
READY = """() => document.fonts.ready.then(() =>
  [...document.querySelectorAll('.arithmatex')].every(el => el.querySelector('.katex')))"""
LOAD_PRINT_FONTS = """() => Promise.all([...document.fonts]
  .filter(f => f.family.replace(/"/g, '').startsWith('Guide Print')).map(f => f.load()))"""
"""The print faces are declared for paper only, so nothing loads them until printing: load them first."""

PRINT_ASSETS = ("assets/css", "assets/fonts", "assets/katex")
"""What a printed sheet looks like besides its HTML: stylesheets, print fonts, KaTeX and its fonts."""


class PrintError(RuntimeError):
    """Printing could not run; the message says what is missing and how to install it."""


@dataclass(frozen=True)
class Printed:
    topic: str
    pdf: Path
    reused: bool
    """True when the sheet was unchanged and last build's PDF was copied."""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def sheets(site: Path) -> list[str]:
    """The topics that have a cheat sheet in the written site."""
    return sorted(p.parent.name for p in (site / "cheatsheets").glob("*/index.html"))


def print_page(browser, url: str, target: Path) -> None:
    """Save one page as an A4 PDF, the way the print dialog would."""
    page = browser.new_page()
    page.goto(url)
    page.wait_for_function(READY)
    page.emulate_media(media="print")
    page.evaluate(LOAD_PRINT_FONTS)
    page.wait_for_function(READY)
    target.parent.mkdir(parents=True, exist_ok=True)
    page.pdf(path=str(target), prefer_css_page_size=True, print_background=True)
    page.close()


def print_sheets(site: Path, cache: Path) -> list[Printed]:
    """Write `site/pdf/<topic>.pdf` for every sheet; reuse cached PDFs of unchanged sheets."""
    topics = sheets(site)
    assets = _assets_digest(site)
    keys = {t: hashlib.sha256(assets + (site / "cheatsheets" / t / "index.html").read_bytes()).hexdigest()[:24] for t in topics}
    cache.mkdir(parents=True, exist_ok=True)
    done: list[Printed] = []
    todo = []
    for topic in topics:
        target = site / pdf_url(topic)
        cached = cache / f"{keys[topic]}.pdf"
        if cached.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(cached, target)
            done.append(Printed(topic, target, True))
        else:
            todo.append(topic)
    if todo:
        for topic in _print_fresh(site, todo):
            target = site / pdf_url(topic)
            shutil.copyfile(target, cache / f"{keys[topic]}.pdf")
            done.append(Printed(topic, target, False))
    return sorted(done, key=lambda p: p.topic)


def _print_fresh(site: Path, topics: list[str]) -> list[str]:
    if not CHROMIUM.is_file():
        raise PrintError(f"printing the cheat sheets needs Chromium at {CHROMIUM}: install the Debian package chromium "
                         "(scripts/install-system-deps.sh does; 'make site' runs it)")
    from playwright.sync_api import sync_playwright

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            try:
                for topic in topics:
                    print_page(browser, f"{base}cheatsheets/{topic}/", site / pdf_url(topic))
            finally:
                browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return topics


def _assets_digest(site: Path) -> bytes:
    """One hash over every print asset and the browser binary: any change prints every sheet anew."""
    digest = hashlib.sha256()
    for folder in PRINT_ASSETS:
        for path in sorted((site / folder).rglob("*")):
            if path.is_file():
                digest.update(path.relative_to(site).as_posix().encode())
                digest.update(path.read_bytes())
    for binary in (CHROMIUM, Path("/usr/lib/chromium/chromium")):  # Debian's wrapper script and the browser
        if binary.is_file():
            stat = binary.resolve().stat()
            digest.update(f"{stat.st_size}:{int(stat.st_mtime)}".encode())
    return digest.digest()
