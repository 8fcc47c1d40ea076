"""The study pages' markup for the study scripts' unit tests (tests/js/fixtures/), cut from a built site.

The unit tests (vitest, happy-dom) drive practice.js, mock.js, search.js and offline.js on the pages as the
guide builds them: the `<div id="practice">` and `<div id="mock">` apps, with their data scripts
emptied (each test brings its own small bank), the search dialog every page has, and the home page's
save-offline control. tests/test_build.py checks that the fixtures still match the
built pages, and names this script when they do not.

Usage: scripts/js_fixtures.py [SITE]   (default: site/, as `make site` writes it)
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "js" / "fixtures"
APPS = {"practice": ("practice/index.html", '<div id="practice"'), "mock": ("mock/index.html", '<div id="mock"'),
        "search": ("index.html", '<div class="md-search guide-search"'),
        "offline": ("index.html", '<div class="guide-offline"')}
"""fixture name -> the built page that holds it, and how its element starts. The search dialog
comes with the toggle that opens it (Material's `#__search` checkbox)."""
SEARCH_TOGGLE = re.compile(r'<input class="md-toggle" data-md-toggle="search"[^>]*>')


def app_markup(html: str, opening: str) -> str:
    """The element that starts with `opening` (`<div id="mock"`), whole, with its JSON data scripts emptied and
    the counts in its table cells zeroed: those are the guide's own bank, and the tests bring theirs
    (so that a new question does not change the fixtures)."""
    start = html.find(opening)
    if start < 0:
        raise ValueError(f"no {opening}> in the page")
    depth = 0
    for tag in re.finditer(r"<(/?)div\b[^>]*>", html[start:]):
        depth += -1 if tag.group(1) else 1
        if not depth:
            block = html[start : start + tag.end()]
            block = re.sub(r'(<script type="application/json"[^>]*>).*?(</script>)', r"\1\2", block, flags=re.S)
            return re.sub(r"<td>\d+</td>", "<td>0</td>", block)
    raise ValueError(f"{opening}> is never closed")


def fixtures(site: Path) -> dict[str, str]:
    out = {}
    for name, (page, opening) in APPS.items():
        html = (site / page).read_text(encoding="utf-8")
        toggle = SEARCH_TOGGLE.search(html) if name == "search" else None
        out[name] = app_markup(html, opening) + "\n" + (toggle.group(0) + "\n" if toggle else "")
    return out


def main() -> int:
    site = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "site"
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for name, markup in fixtures(site).items():
        (FIXTURES / f"{name}.html").write_text(markup, encoding="utf-8")
        print(f"wrote tests/js/fixtures/{name}.html")
    return 0


if __name__ == "__main__":
    sys.exit(main())
