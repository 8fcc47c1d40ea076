"""Search recall on real interview questions, typed into the built site's search box in Chromium.

Three sets, reported side by side (README: Search):
- tests/real_questions.yml, the tuned set: collected together with the aliases it tests.
- tests/dev_questions.yml, the development set: new questions the ranking may be tuned against
  (never a source of aliases).
- tests/heldout_questions.yml, the held-out set: collected before search or content changed,
  queries written from the question alone, never used to add aliases or edit queries.

Usage: bench/recall.py [SITE_DIR] [--misses] [--skip-heldout]   (SITE_DIR defaults to site/, built by `make site`)
"""
from __future__ import annotations

import argparse
import functools
import http.server
import sys
import threading
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "hooks")]

from conftest import CHROMIUM_ARGS, _QuietHandler  # noqa: E402
from test_search import type_query  # noqa: E402


def load(name: str) -> list[dict]:
    return yaml.safe_load((ROOT / "tests" / name).read_text(encoding="utf-8"))


def tuned_hit(item: dict, found: list[str]) -> bool:
    """The tuned set's page, or one a grader later found answers it too (`also`), is in the top 5."""
    return any(f"/{answer}/" in found for answer in [item["page"], *item.get("also", [])])


def heldout_hit(item: dict, found: list[str]) -> str:
    """'full' when a page that answers the question is in the top 5; 'partial' when, for a question
    the guide answers only in part, a page with that part is; else 'miss'."""
    if any(f"/{p}/" in found for p in item.get("pages") or []):
        return "full"
    if any(f"/{p}/" in found for p in item.get("partial") or []):
        return "partial"
    return "miss"


def measure(site: Path, show_misses: bool, heldout: bool = True) -> dict[str, str]:
    from playwright.sync_api import sync_playwright

    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    lines: dict[str, str] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.goto(url)
        tuned = load("real_questions.yml")
        misses = [t for t in tuned if not tuned_hit(t, type_query(page, t["query"], "ime")[:5])]
        lines["tuned"] = f"{len(tuned) - len(misses)} / {len(tuned)} ({1 - len(misses) / len(tuned):.1%})"
        dev = load("dev_questions.yml")
        dev_out = [heldout_hit(h, type_query(page, h["query"], "ime")[:5]) for h in dev]
        lines["development"] = (f"{sum(o != 'miss' for o in dev_out)} / {len(dev)} ({sum(o != 'miss' for o in dev_out) / len(dev):.1%}); "
                                f"full answers only {sum(o == 'full' for o in dev_out) / len(dev):.1%}")
        if show_misses:
            for h, o in zip(dev, dev_out):
                if o == "miss" and (h.get("pages") or h.get("partial")):
                    print(f"development miss: {h['query']!r} -> {h.get('pages') or h.get('partial')}")
        held = load("heldout_questions.yml") if heldout else []
        outcomes = [(h, heldout_hit(h, type_query(page, h["query"], "ime")[:5])) for h in held]
        full = sum(1 for _, o in outcomes if o == "full")
        partial = sum(1 for _, o in outcomes if o == "partial")
        answerable = [h for h in held if h.get("pages")]
        found_answerable = sum(1 for h, o in outcomes if o == "full")
        if held:
            lines["held-out"] = (f"{full + partial} / {len(held)} ({(full + partial) / len(held):.1%}): {full} with a full answer, "
                                 f"{partial} with the part the guide has; strict (full answer only) {full / len(held):.1%}; "
                                 f"of the {len(answerable)} the guide answers fully, {found_answerable} found "
                                 f"({found_answerable / max(1, len(answerable)):.1%})")
        if show_misses:
            for t in misses:  # the held-out set's misses are not listed: nothing is tuned to them
                print(f"tuned miss: {t['query']!r} -> {t['page']}")
        browser.close()
    server.shutdown()
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", nargs="?", default=str(ROOT / "site"))
    parser.add_argument("--misses", action="store_true", help="list the tuned and development sets' misses")
    parser.add_argument("--skip-heldout", action="store_true", help="while tuning: do not even run the held-out set")
    args = parser.parse_args()
    for name, line in measure(Path(args.site), args.misses, not args.skip_heldout).items():
        print(f"recall@5, {name} set: {line}")


if __name__ == "__main__":
    main()
