"""The second site builder: Zensical (Material's successor) builds the same compiled tree, with no
hook, into the same pages; every link resolves and search works in the browser."""
from __future__ import annotations

import functools
import http.server
import subprocess
import sys
import threading

import pytest

from conftest import ROOT, _QuietHandler, make_project
from test_build import broken_links, scan_site
from test_search import type_query

pytestmark = pytest.mark.heavy


@pytest.fixture(scope="module")
def zensical_site(tmp_path_factory):
    project = make_project(tmp_path_factory.mktemp("zensical") / "project")
    site = project / "site"
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "build.py"), "--root", str(project), "--builder", "zensical"],
                            cwd=project, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No issues found" in result.stdout + result.stderr  # Zensical's strict build: no broken link, no warning
    return site


def test_zensical_writes_the_same_pages_as_mkdocs(zensical_site, built_site):
    def pages(site):
        return {p.relative_to(site).as_posix() for p in site.rglob("*.html")}

    assert len(pages(built_site)) > 700
    assert pages(zensical_site) == pages(built_site)


def test_every_link_resolves_in_the_zensical_site(zensical_site):
    checked, broken = broken_links(zensical_site, scan_site(zensical_site))
    assert checked > 500
    assert not broken, "\n".join(broken[:50])


@pytest.mark.browser
def test_search_and_formulas_work_in_the_zensical_site(browser, zensical_site):
    handler = functools.partial(_QuietHandler, directory=str(zensical_site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    try:
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/concepts/ppo-clip/")
        assert page.locator(".md-content .katex").count() > 5  # typeset by finish, not left as TeX
        assert page.locator(".md-content .arithmatex", has_text="\\(").count() == 0
        # The search box keeps Material's look (material-search.css): results stay hidden until it opens.
        assert not page.locator(".md-search__output").is_visible()
        assert type_query(page, "PPO 裁剪", "ime")[0] == "/concepts/ppo-clip/"
        box = page.locator(".md-search__output").bounding_box()
        assert box is not None and box["x"] + box["width"] <= 1280 and box["height"] > 200
        assert "/concepts/reward-hacking/" in type_query(page, "reward hacking", "keys")[:3]
        assert errors == []
    finally:
        page.close()
        server.shutdown()
