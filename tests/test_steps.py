"""The build's three steps apart: compile writes a tree a builder needs no hook for; finish works
over the builder's HTML between the compile's markers, and replaces the site only on success."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from conftest import ROOT, make_tiny_project, valid_files
from guide.compile import Compiled, PageInfo, end_marker, start_marker, write_tree
from guide.finish import FinishError, finish, finish_page, replace, title_of


def compiled(pages: dict[str, PageInfo], token: str = "t0k3n") -> Compiled:
    return Compiled(SimpleNamespace(math={("x^2", False): '<span class="katex">x²</span>'}), token, pages)


def page(content: str, token: str = "t0k3n") -> str:
    return (f'<html><body><article class="md-content__inner">{start_marker(token)}\n\n{content}\n'
            f'<p>///Footnotes Go Here///</p>\n{end_marker(token)}</article><script src="theme.js"></script></body></html>')


def test_the_builder_config_has_no_hooks_and_reads_the_compiled_tree():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8").replace("!ENV", "").replace("!!python/object/apply:pymdownx.slugs.slugify", ""))
    assert "hooks" not in config and config["docs_dir"] == "build/docs"


def test_finish_fills_the_content_between_the_markers_and_drops_them():
    info = {"a.md": PageInfo("a/", {}, True)}
    done, content = finish_page(page('<h1 id="t">标题</h1>\n<p><span class="arithmatex">\\(x^2\\)</span></p>'), compiled(info), "a.md")
    assert content == '<h1 id="t">标题</h1>\n<p><span class="arithmatex">\\(x^2\\)</span></p>'
    assert '<span class="arithmatex"><span class="katex">x²</span></span>' in done
    assert "guide-body" not in done and "Footnotes Go Here" not in done
    assert done.endswith('</article><script src="theme.js"></script></body></html>')  # the theme's own script is left alone


def test_finish_refuses_script_in_a_pages_content_naming_its_source():
    info = {"concepts/a.md": PageInfo("concepts/a/", {}, True), "about.md": PageInfo("about/", {}, False)}
    with pytest.raises(FinishError) as err:
        finish_page(page('<p>x</p><img src=x onerror="alert(1)">'), compiled(info), "concepts/a.md")
    assert str(err.value).startswith("content/concepts/a.md: the page would carry an event handler (onerror) on <img>")
    with pytest.raises(FinishError) as err:
        finish_page(page("<script>alert(1)</script>"), compiled(info), "about.md")
    assert str(err.value).startswith("docs/about.md: the page would carry a <script> element")


def test_content_cannot_end_the_checked_region_early():
    """Script after a forged end marker is still inside what finish checks: the token is the compile's."""
    info = {"a.md": PageInfo("a/", {}, True)}
    forged = "<p>x</p>\n" + end_marker("guess") + "\n<script>alert(1)</script>"
    with pytest.raises(FinishError, match="a <script> element"):
        finish_page(page(forged), compiled(info), "a.md")
    twice = page("<p>x</p>\n" + end_marker("t0k3n") + "<script>alert(1)</script>")
    with pytest.raises(FinishError, match="content markers"):
        finish_page(twice, compiled(info), "a.md")


def test_a_page_built_from_another_compile_is_refused_and_the_site_kept(tmp_path):
    built, site = tmp_path / "built", tmp_path / "site"
    (built / "a").mkdir(parents=True)
    (built / "a" / "index.html").write_text(page("<p>x</p>", token="older"), encoding="utf-8")
    site.mkdir()
    (site / "index.html").write_text("the last good site", encoding="utf-8")
    with pytest.raises(FinishError, match="^a.md: the built page lacks its content markers"):
        finish(built, compiled({"a.md": PageInfo("a/", {}, True)}), "https://example.org/", tmp_path / "cache", ROOT, target=site)
    assert (site / "index.html").read_text(encoding="utf-8") == "the last good site"


def test_a_pages_search_title_is_its_front_matter_title_else_its_heading():
    assert title_of({"title": "PPO 裁剪目标"}, "<h1>别的</h1>") == "PPO 裁剪目标"
    assert title_of({}, '<h1 id="x">三周<em>备考</em>计划<a class="headerlink" href="#x">¶</a></h1>') == "三周备考计划"


def test_the_tree_is_rewritten_only_where_it_changed(tmp_path):
    out, source = tmp_path / "out", tmp_path / "font.woff2"
    source.write_bytes(b"font")
    write_tree(out, {"a.md": b"one", "b/c.md": b"two", "f.woff2": source, "old/gone.md": b"x"})
    os.utime(out / "a.md", (1, 1))
    os.utime(out / "f.woff2", (1, 1))
    write_tree(out, {"a.md": b"one", "b/c.md": b"changed", "f.woff2": source})
    assert (out / "a.md").stat().st_mtime == 1 and (out / "f.woff2").stat().st_mtime == 1  # unchanged: untouched
    assert (out / "b" / "c.md").read_bytes() == b"changed"
    assert not (out / "old").exists()  # no longer produced: removed, folder and all


def test_compile_alone_writes_every_page_and_asset_and_a_failed_one_writes_nothing(tmp_path):
    project = make_tiny_project(tmp_path / "project", valid_files())
    env = {**os.environ, "PYTHONPATH": str(project / "hooks")}
    compile_ = [sys.executable, "-m", "guide", "--root", str(project), "compile"]
    first = subprocess.run(compile_, cwd=project, capture_output=True, text=True, env=env)
    assert first.returncode == 0, first.stderr
    tree = project / "build" / "docs"
    home = (tree / "index.md").read_text(encoding="utf-8")
    assert "[[alpha]]" not in home and "](concepts/alpha.md)" in home  # the hand-written page's links resolved
    # Links are relative to the page (every builder resolves those), outside code too.
    assert not [p for p in tree.rglob("*.md") if re.search(r"\]\(/[^)]*\.md", p.read_text(encoding="utf-8"))]
    assert "](../practice.md)" in (tree / "questions" / "index.md").read_text(encoding="utf-8")
    for path in ("concepts/alpha.md", "questions/index.md", "assets/katex/katex.min.js", "assets/vendor/ts-fsrs.umd.js"):
        assert (tree / path).is_file(), path
    assert {f.name.split(".")[0] for f in (tree / "assets" / "fonts").glob("guide-print-*.woff2")} >= {
        "guide-print-sans-400", "guide-print-mono-400", "guide-print-symbols-400"}  # the print fonts, cut for these pages
    before = {p: p.read_bytes() for p in tree.rglob("*") if p.is_file()}
    alpha = project / "content" / "concepts" / "alpha.md"
    alpha.write_text(alpha.read_text(encoding="utf-8").replace("topic: basics", "topic: nowhere"), encoding="utf-8")
    failed = subprocess.run(compile_, cwd=project, capture_output=True, text=True, env=env)
    assert failed.returncode == 1 and "Traceback" not in failed.stderr
    assert "content/concepts/alpha.md:" in failed.stderr and "topic: unknown topic 'nowhere'" in failed.stderr
    assert {p: p.read_bytes() for p in tree.rglob("*") if p.is_file()} == before


def test_the_finished_site_replaces_the_last_one_whole(tmp_path):
    site, finished = tmp_path / "site", tmp_path / "build" / "site"
    (site / "gone").mkdir(parents=True)
    (site / "gone" / "index.html").write_text("old page", encoding="utf-8")
    finished.mkdir(parents=True)
    (finished / "index.html").write_text("new home", encoding="utf-8")
    replace(site, finished)
    assert sorted(p.relative_to(site).as_posix() for p in site.rglob("*")) == ["index.html"]
    assert (site / "index.html").read_text(encoding="utf-8") == "new home"
    assert not finished.exists() and not (tmp_path / "site.old").exists()


def test_an_unchanged_page_compiles_to_the_same_file(tmp_path):
    """The markers' token is kept per checkout, so a second compile rewrites nothing unchanged."""
    project = make_tiny_project(tmp_path / "project", valid_files())
    env = {**os.environ, "PYTHONPATH": str(project / "hooks")}
    compile_ = [sys.executable, "-m", "guide", "--root", str(project), "compile"]
    assert subprocess.run(compile_, cwd=project, capture_output=True, env=env).returncode == 0
    page = project / "build" / "docs" / "concepts" / "alpha.md"
    os.utime(page, (1, 1))
    assert subprocess.run(compile_, cwd=project, capture_output=True, env=env).returncode == 0
    assert page.stat().st_mtime == 1
    token = (project / ".cache" / "content-token").read_text(encoding="ascii")
    assert len(token) == 24 and start_marker(token) in page.read_text(encoding="utf-8")
