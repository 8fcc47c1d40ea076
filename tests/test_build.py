"""Build the real guide with MkDocs: links resolve, nothing loads from another host, failures are clean."""
from __future__ import annotations

import hashlib
import shutil
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import yaml

from conftest import ROOT, concept, make_project, mkdocs_build

CONTAINERS = {"article", "aside", "details", "div", "footer", "header", "main", "nav", "section", "table", "ul", "ol"}
ASSET_TAGS = {"script": "src", "img": "src", "iframe": "src", "source": "src", "audio": "src", "video": "src"}


class PageScan(HTMLParser):
    """Collects ids, links and asset URLs of one HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.assets: list[str] = []
        self.open: list[str] = []  # container elements not yet closed
        self.stray: list[str] = []  # end tags that close nothing, or close past an open container
        self.description: list[tuple[str, str | None]] = []  # attributes of <meta name=description>

    def handle_endtag(self, tag):
        if tag in CONTAINERS:
            if self.open and self.open[-1] == tag:
                self.open.pop()
            else:
                self.stray.append(f"</{tag}> line {self.getpos()[0]} (open: {self.open[-3:]})")

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in CONTAINERS:
            self.open.append(tag)
        if tag == "meta" and a.get("name") == "description":
            self.description = attrs
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        if tag in ASSET_TAGS and a.get(ASSET_TAGS[tag]):
            self.assets.append(a[ASSET_TAGS[tag]])
        if tag == "link" and a.get("href") and set((a.get("rel") or "").split()) & {"stylesheet", "icon", "preload", "modulepreload", "manifest"}:
            self.assets.append(a["href"])


def scan_site(site: Path) -> dict[str, PageScan]:
    pages = {}
    for html in site.rglob("*.html"):
        pages["/" + html.relative_to(site).as_posix()] = scan_site_page(html)
    return pages


def resolve_page(site_path: str) -> str:
    return site_path + "index.html" if site_path.endswith("/") else site_path


def mount_path() -> str:
    """The path part of site_url: 404.html links absolutely, under this prefix."""
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    url = re.search(r'^site_url: !ENV \[SITE_URL, "([^"]+)"\]', text, re.M).group(1)
    return urlsplit(url).path


def broken_links(site: Path, pages: dict) -> tuple[int, list[str]]:
    """(links and assets checked, those that do not resolve in `site`), for every page's links,
    anchors, downloads and linked assets."""
    prefix = mount_path()
    broken = []
    checked = 0
    for page, scan in pages.items():
        for href in scan.links:
            parts = urlsplit(href)
            if parts.scheme or href.startswith("//") or href.startswith("mailto:"):
                continue
            path = "/" + parts.path[len(prefix):] if parts.path.startswith(prefix) else parts.path
            target = resolve_page(unquote(urljoin(page, path))) if path else page
            anchor = unquote(parts.fragment)
            checked += 1
            if target.endswith(".html"):
                if target not in pages:
                    broken.append(f"{page}: {href} -> no page {target}")
                elif anchor and anchor not in pages[target].ids:
                    broken.append(f"{page}: {href} -> no anchor #{anchor} in {target}")
            elif not (site / target.lstrip("/")).exists():
                broken.append(f"{page}: {href} -> no file {target}")
        for url in scan.assets:
            parts = urlsplit(url)
            if parts.scheme or url.startswith("//") or url.startswith("data:"):
                continue
            path = "/" + parts.path[len(prefix):] if parts.path.startswith(prefix) else parts.path
            target = unquote(urljoin(page, path))
            checked += 1
            if not (site / target.lstrip("/")).is_file():
                broken.append(f"{page}: {url} -> no file {target}")
    return checked, broken


def test_every_internal_link_download_asset_and_anchor_resolves(built_site):
    """After a plain build: every page's links (the 404 page's too, absolute under site_url's path),
    anchors, downloads (cheat-sheet PDFs, the Anki deck) and linked assets exist in site/."""
    pages = scan_site(built_site)
    checked, broken = broken_links(built_site, pages)
    assert checked > 500
    assert not broken, "\n".join(broken[:50])
    # The downloads the site offers are there too (made by the build, not by a later command).
    downloads = {href for scan in pages.values() for href in scan.links if href.endswith((".pdf", ".apkg"))}
    assert len(downloads) >= 9


def test_no_asset_is_loaded_from_another_host(built_site):
    outside = []
    for page, scan in scan_site(built_site).items():
        outside += [f"{page}: {url}" for url in scan.assets if urlsplit(url).scheme in {"http", "https"} or url.startswith("//")]
    for css in built_site.rglob("*.css"):
        for url in re.findall(r"url\(\s*['\"]?(https?:|//)", css.read_text(encoding="utf-8", errors="replace")):
            outside.append(f"{css.name}: url({url}...)")
    assert not outside, "\n".join(outside[:20])


def test_every_page_is_well_formed_and_described(built_site):
    """Containers nest properly (a formula like $x_{<t}$ inside a folded answer once opened a
    phantom tag and closed the fold twice) and the meta description survives quotes."""
    broken, undescribed = [], []
    for page, scan in scan_site(built_site).items():
        if scan.stray or scan.open:
            broken.append(f"{page}: stray {scan.stray[:2]}, unclosed {scan.open[:3]}")
        if page.endswith("index.html") and [name for name, _ in scan.description] != ["name", "content"]:
            undescribed.append(f"{page}: {scan.description[:4]}")
    assert broken == []
    assert undescribed == []
    # Every heading says something (a heading of only "#" once vanished as an ATX closing sequence).
    empty = []
    for html in built_site.rglob("*.html"):
        for m in re.finditer(r"<h([1-6])\b[^>]*>(.*?)</h\1>", html.read_text(encoding="utf-8"), re.S):
            text = re.sub(r'<a class="headerlink".*?</a>|<[^>]+>', "", m[2]).strip()
            if not text:
                empty.append(f"{html.relative_to(built_site)}: {m[0][:80]}")
    assert empty == []

    def description(page: str) -> str:
        return dict(scan_site_page(built_site / page).description)["content"]

    brief = yaml.safe_load((ROOT / "content/questions/entropy-collapse-fixes.md").read_text(encoding="utf-8").split("---")[1])["brief"]
    assert '"' in brief
    assert description("questions/entropy-collapse-fixes/index.html") == " ".join(brief.split())
    answer = (built_site / "questions/dapo-dynamic-sampling/index.html").read_text(encoding="utf-8")
    assert answer.count("<details") == answer.count("</details>") == 1


def test_formulas_arrive_typeset_and_no_script_blocks_the_first_paint(built_site):
    raw, blocking = [], []
    for html in built_site.rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        raw += [f"{html.relative_to(built_site)}: {m.group(0)[:60]}" for m in re.finditer(r'class="arithmatex">\\[(\[].*', text)]
        blocking += [f"{html.relative_to(built_site)}: {tag}" for tag in re.findall(r"<script [^>]*src=[^>]*>", text) if " defer" not in tag]
    assert raw == []
    assert blocking == []
    concept = (built_site / "concepts/ppo-clip/index.html").read_text(encoding="utf-8")
    assert concept.count('class="katex"') > 10 and "katex.min.js" not in concept


def scan_site_page(html: Path) -> PageScan:
    scan = PageScan()
    scan.feed(html.read_text(encoding="utf-8"))
    return scan


def test_every_page_type_is_generated(built_site):
    for path in ("concepts/ppo-clip/index.html", "questions/index.html", "questions/ppo-why-min/index.html",
                 "reports/index.html", "reports/tencent-wxg-intern/index.html", "topics/policy-optimization/index.html",
                 "companies/tencent/index.html", "stats/index.html", "keywords/index.html", "index.html",
                 "assets/katex/katex.min.js"):
        assert (built_site / path).is_file(), path


def _tree_digest(site: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(site.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(site).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def test_failed_build_reports_every_problem_and_keeps_the_last_site(tmp_path, built_site):
    project = make_project(tmp_path / "project")
    site = tmp_path / "site"
    shutil.copytree(built_site, site)  # the last good build of this very project
    before = _tree_digest(site)

    (project / "content/concepts/ppo-clip.md").write_text(
        concept(topic="policy-optimisation", extra="prerequisites: [polcy-gradient]\n"), encoding="utf-8")
    (project / "content/questions/broken.md").write_text("---\ntext: [oops\n---\n", encoding="utf-8")
    second = mkdocs_build(project, site)
    output = second.stdout + second.stderr

    assert second.returncode != 0
    assert "Traceback" not in output
    assert "content/concepts/ppo-clip.md:4: topic: unknown topic 'policy-optimisation' (did you mean 'policy-optimization'?)" in output
    assert "content/concepts/ppo-clip.md:7: prerequisites: unknown concept 'polcy-gradient' (did you mean 'policy-gradient'?)" in output
    assert ("content/questions/broken.md:2: front matter is not valid YAML: the bracket [ opened on this line is never "
            "closed on it; add the closing ]") in output
    assert "problem(s) in the guide's sources; nothing was built and site/ was left as it was" in output
    assert _tree_digest(site) == before


def test_strict_build_prints_no_warning(site_build):
    """The real guide's build (the session's, made with --strict): no step warns."""
    result = site_build[1]
    assert result.returncode == 0 and "Documentation built in" in result.stderr  # MkDocs' own step ran
    assert "WARNING" not in result.stdout + result.stderr


def test_the_study_scripts_unit_tests_drive_the_study_pages_as_built(built_site):
    """tests/js drives practice.js and mock.js on the /practice/ and /mock/ apps cut from a built
    site (tests/js/fixtures); a template change that those tests have not seen fails here."""
    from scripts.js_fixtures import FIXTURES, fixtures

    built = fixtures(built_site)
    assert sorted(built) == ["mock", "offline", "practice", "search"]
    for name, markup in built.items():
        kept = (FIXTURES / f"{name}.html").read_text(encoding="utf-8")
        assert kept == markup, f"tests/js/fixtures/{name}.html differs from the built page: run scripts/js_fixtures.py after make site"
    assert 'data-rating="4"' in built["mock"] and '<script type="application/json" id="mock-data"></script>' in built["mock"]
    assert built["search"].rstrip().endswith('id="__search">') and 'name="q"' in built["search"]
