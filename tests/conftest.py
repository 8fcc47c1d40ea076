"""Shared fixtures: tiny corpora on disk, the real site built once, a browser."""
from __future__ import annotations

import functools
import http.server
import os
import shutil
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

TAXONOMY = """\
topics:
  - id: basics
    title: 基础
    en: Basics
  - id: advanced-topic
    title: 进阶专题
    en: Advanced
companies:
  - id: acme
    name: 某公司
  - id: initech
    name: 另一家
difficulties:
  - id: basic
    title: 基础
  - id: advanced
    title: 深入
"""

CONCEPT_BODY = """\
## 一句话

一句话定义。

## 直觉

直觉。

## 面试怎么问

- 问法。

## 易错点

- 误解。

## 速查

- 第一条。
- 第二条。
- 第三条。
"""


def concept(title: str = "概念", topic: str = "basics", extra: str = "", body: str = CONCEPT_BODY) -> str:
    return f"---\ntitle: {title}\nen: Concept\ntopic: {topic}\ndifficulty: basic\nsummary: 概要。\n{extra}---\n{body}"


def question(primary: str = "alpha", extra: str = "", body: str = "答案。\n") -> str:
    return f"---\ntext: 问题？\nbrief: 一句话答案。\nprimary: {primary}\ndifficulty: basic\n{extra}---\n{body}"


def report(company: str = "acme", rounds: str = "  - name: 一面\n    questions: [q-one]\n", extra: str = "") -> str:
    return f"---\ntitle: 面经\ncompany: {company}\nsummary: 概要。\n{extra}rounds:\n{rounds}---\n"


GUIDE = (ROOT / "guide.yml").read_text(encoding="utf-8")
"""The real guide's configuration (guide.yml): its kinds' sections and words."""


def write_corpus(root: Path, files: dict[str, str], taxonomy: str | None = TAXONOMY, guide: str | None = GUIDE) -> Path:
    """Write `content/<path>` files under `root`, and `guide` as root/guide.yml; returns root."""
    content = root / "content"
    content.mkdir(parents=True, exist_ok=True)
    if guide is not None:
        (root / "guide.yml").write_text(guide, encoding="utf-8")
    if taxonomy is not None:
        (content / "taxonomy.yml").write_text(taxonomy, encoding="utf-8")
    for rel, text in files.items():
        path = content / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(textwrap.dedent(text) if text.startswith("\n") else text, encoding="utf-8")
    return root


def valid_files() -> dict[str, str]:
    """A tiny corpus that passes every check: 2 concepts, 1 question, 2 reports (one a duplicate)."""
    return {
        "concepts/alpha.md": concept("阿尔法"),
        "concepts/beta.md": concept("贝塔", extra="prerequisites: [alpha]\n"),
        "questions/q-one.md": question(),
        "reports/r-one.md": report(),
        "reports/r-two.md": report(extra="duplicate_of: r-one\n"),
    }


def make_project(dest: Path, content: Path | None = None) -> Path:
    """A copy of the real project (config, docs, templates, hooks) to build in isolation."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in ("mkdocs.yml", "guide.yml", "docs", "templates", "hooks", "overrides"):
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(src, dest / name)
    (dest / "node_modules").symlink_to(ROOT / "node_modules")
    shutil.copytree(content or ROOT / "content", dest / "content")
    # Subset fonts, printed PDFs, snippet results and typeset formulas are cached by content hash:
    # a copy of the real project reuses them.
    for cache in ("print-fonts", "pdf"):
        if (ROOT / ".cache" / cache).is_dir():
            shutil.copytree(ROOT / ".cache" / cache, dest / ".cache" / cache)
    for cache in ("snippets.json", "katex.json"):
        if (ROOT / ".cache" / cache).is_file():
            shutil.copy2(ROOT / ".cache" / cache, dest / ".cache" / cache)
    return dest


def make_tiny_project(dest: Path, files: dict[str, str]) -> Path:
    """The real config, templates and hooks around a tiny corpus, with one hand-written page."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in ("mkdocs.yml", "templates", "hooks", "overrides"):
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copy2)(src, dest / name)
    (dest / "node_modules").symlink_to(ROOT / "node_modules")
    (dest / "docs").mkdir()
    shutil.copytree(ROOT / "docs" / "assets", dest / "docs" / "assets")
    (dest / "docs" / "index.md").write_text("# 首页\n\n见 [[alpha]]。\n", encoding="utf-8")
    config = (dest / "mkdocs.yml").read_text(encoding="utf-8")
    config = config.split("\nnav:\n")[0] + "\nnav:\n  - 首页: index.md\n" + "\nmarkdown_extensions:" + config.split("\nmarkdown_extensions:")[1]
    (dest / "mkdocs.yml").write_text(config, encoding="utf-8")
    return write_corpus(dest, files)


def mkdocs_build(project: Path, site: Path | None = None) -> subprocess.CompletedProcess[str]:
    """What `make site` runs, on `project` (scripts/build.py): compile, the builder (MkDocs, no
    hooks), finish; the finished site lands in `site` (default project/site)."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    env.pop("SITE_URL", None)
    args = [sys.executable, str(ROOT / "scripts" / "build.py"), "--root", str(project)]
    if site is not None:
        args += ["--site", str(site)]
    return subprocess.run(args, cwd=project, capture_output=True, text=True, env=env)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", help="rewrite tests/golden/*/expected from the current output")


@pytest.fixture(scope="session")
def site_build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """The real guide, built once per test session with --strict, and what the build printed."""
    site = tmp_path_factory.mktemp("site")
    result = mkdocs_build(ROOT, site)
    assert result.returncode == 0, result.stdout + result.stderr
    return site, result


@pytest.fixture(scope="session")
def built_site(site_build) -> Path:
    return site_build[0]


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def site_url(built_site: Path):
    """Serve the built site on localhost for the browser tests."""
    handler = functools.partial(_QuietHandler, directory=str(built_site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--js-flags=--expose-gc",  # window.gc(): a test runs the collector while search works
]


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, site_url):
    """A fresh page that refuses every request to another host and records JS errors."""
    context = browser.new_context()
    pg = context.new_page()
    pg.outside_requests = []
    pg.js_errors = []

    def guard(route):
        url = route.request.url
        if url.startswith(site_url) or url.startswith("data:") or url.startswith("blob:"):
            route.continue_()
        else:
            pg.outside_requests.append(url)
            route.abort()

    pg.route("**/*", guard)
    pg.on("pageerror", lambda err: pg.js_errors.append(str(err)))
    yield pg
    context.close()


@pytest.fixture
def phone(browser):
    """phone(width, height=844): a page in a touch-screen phone context (no hover, coarse pointer)."""
    contexts = []

    def open_page(width: int, height: int = 844):
        context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()
