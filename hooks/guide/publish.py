"""After the site is written: what its pages link besides themselves, made from those pages.

The cheat sheets' PDFs (printing.py) and the Anki deck (anki.py). `make site`, `mkdocs build` and
`mkdocs gh-deploy` all run it, so whatever is published holds every file it links, and a PDF is
never older than the sheet it prints. `mkdocs serve` skips it: the preview need not print.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

from .anki import DECK_PATH, write_deck
from .offline import write_service_worker
from .pipeline import Built
from .printing import print_sheets


def publish(built: Built, site: Path, cache: Path, site_url: str, print_pdfs: bool = True, root: Path | None = None,
            before_offline: Callable[[], None] = lambda: None, timings: dict[str, float] | None = None) -> list[str]:
    """Print the sheets, write the deck and the offline copy's service worker into `site`; return
    what was done, one line each.

    Raises printing.PrintError when Chromium is missing, offline.OfflineError when Workbox fails. `print_pdfs=False` is for benchmarks of
    synthetic guides only: their site then links PDFs it does not hold, and the lines say so.
    `before_offline` runs before the offline copy's file list is taken (the search index, written
    meanwhile by another process, must be complete by then).
    """
    done = []
    timings = {} if timings is None else timings
    clock = time.perf_counter()
    if print_pdfs:
        printed = print_sheets(site, cache / "pdf")
        fresh = sum(1 for p in printed if not p.reused)
        done.append(f"cheat sheets: {len(printed)} PDFs in {site / 'pdf'} ({fresh} printed, {len(printed) - fresh} unchanged)")
    else:
        done.append("GUIDE_PRINT=0: the cheat sheets were not printed; this site links PDFs it does not hold")
    timings["print"] = time.perf_counter() - clock
    notes = write_deck(built, site_url if site_url.endswith("/") else site_url + "/", site / DECK_PATH)
    done.append(f"Anki deck: {notes} notes in {site / DECK_PATH}")
    before_offline()
    clock = time.perf_counter()
    offline = write_service_worker(site, root or cache.parent)
    timings["offline"] = time.perf_counter() - clock
    done.append(f"offline copy: {offline['count']} files, {offline['size'] / 1e6:.1f} MB, service worker {site / 'sw.js'}")
    return done
