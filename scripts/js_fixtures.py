"""The study pages' markup for the study scripts' unit tests (tests/js/fixtures/), cut from a built site.

The unit tests (vitest, happy-dom) drive practice.js and mock.js on the pages as the guide builds
them: the `<div id="practice">` and `<div id="mock">` apps, with their data scripts emptied (each
test brings its own small bank). tests/test_build.py checks that the fixtures still match the
built pages, and names this script when they do not.

Usage: scripts/js_fixtures.py [SITE]   (default: site/, as `make site` writes it)
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "js" / "fixtures"
APPS = {"practice": "practice/index.html", "mock": "mock/index.html"}
"""fixture name -> the built page that holds the app of that id."""


def app_markup(html: str, app: str) -> str:
    """The element `<div id=app …>…</div>` of a page, whole, with its JSON data scripts emptied and
    the counts in its table cells zeroed: those are the guide's own bank, and the tests bring theirs
    (so that a new question does not change the fixtures)."""
    start = html.find(f'<div id="{app}"')
    if start < 0:
        raise ValueError(f'no <div id="{app}"> in the page')
    depth = 0
    for tag in re.finditer(r"<(/?)div\b[^>]*>", html[start:]):
        depth += -1 if tag.group(1) else 1
        if not depth:
            block = html[start : start + tag.end()]
            block = re.sub(r'(<script type="application/json"[^>]*>).*?(</script>)', r"\1\2", block, flags=re.S)
            return re.sub(r"<td>\d+</td>", "<td>0</td>", block)
    raise ValueError(f'<div id="{app}"> is never closed')


def fixtures(site: Path) -> dict[str, str]:
    return {name: app_markup((site / page).read_text(encoding="utf-8"), name) + "\n" for name, page in APPS.items()}


def main() -> int:
    site = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "site"
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for name, markup in fixtures(site).items():
        (FIXTURES / f"{name}.html").write_text(markup, encoding="utf-8")
        print(f"wrote tests/js/fixtures/{name}.html")
    return 0


if __name__ == "__main__":
    sys.exit(main())
