"""Bad input through the real build: every mistake fails with one `file:line` line per problem,
no traceback, and the previously built site/ left exactly as it was.

Each case is a small change to a tiny valid project (tests/conftest.py `valid_files`), built with
`mkdocs build --strict` into a copy of that project's last good site.
"""
from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from conftest import CONCEPT_BODY, concept, make_tiny_project, mkdocs_build, question, report, valid_files
from test_validate import CASES as CONTENT_CASES

def taxonomy(text_from: str, to: str) -> str:
    from conftest import TAXONOMY
    assert text_from in TAXONOMY
    return TAXONOMY.replace(text_from, to, 1)


TAXONOMY_CASES = {
    "taxonomy: broken YAML": (
        {"taxonomy.yml": taxonomy("  - id: basics\n", "  - id: [basics\n")},
        ["content/taxonomy.yml:3: the taxonomy is not valid YAML"],
    ),
    "taxonomy: unknown field": (
        {"taxonomy.yml": taxonomy("    title: 基础\n    en: Basics\n", "    titel: 基础\n    en: Basics\n")},
        ["content/taxonomy.yml:3: topics.titel: unknown field (did you mean 'title'?)",
         "content/taxonomy.yml:2: topics.title: required field is missing"],
    ),
    "taxonomy: duplicate topic": (
        {"taxonomy.yml": taxonomy("  - id: advanced-topic\n", "  - id: basics\n")},
        ["content/taxonomy.yml:5: topics.id: duplicate id 'basics'"],
    ),
    "taxonomy: bad id": (
        {"taxonomy.yml": taxonomy("  - id: acme\n", "  - id: Acme Corp\n")},
        ["content/taxonomy.yml:9: companies.id: 'Acme Corp' is not a valid id"],
    ),
}

MORE_CASES = {
    "bad LaTeX": (
        {"concepts/alpha.md": concept(body=CONCEPT_BODY.replace("直觉。", "公式 $\\frac{a}{$ 写错了。"))},
        ["content/concepts/alpha.md:14: math: KaTeX cannot typeset $\\frac{a}{$: Unexpected end of input"],
    ),
    "iframe": ({"questions/q-one.md": question(body="答案。\n\n<iframe src=\"https://evil.example\"></iframe>\n")},
               ["content/questions/q-one.md:9: html: raw HTML <iframe> is not allowed in content"]),
    "style element": ({"questions/q-one.md": question(body="<style>body{display:none}</style>\n\n答案。\n")},
                      ["content/questions/q-one.md:7: html: raw HTML <style> is not allowed in content"]),
    "event handler": ({"questions/q-one.md": question(body="答案 <span onclick=\"steal()\">点我</span>。\n")},
                      ["content/questions/q-one.md:7: html: attribute 'onclick' on <span> is not allowed"]),
    "javascript: link": ({"questions/q-one.md": question(body="[点我](javascript:alert(1))\n")},
                         ["content/questions/q-one.md:7: link: 'javascript:' links are not allowed"]),
    "data: image": ({"questions/q-one.md": question(body="![图](data:image/svg+xml;base64,PHN2Zz4=)\n")},
                    ["content/questions/q-one.md:7: link: 'data:' links are not allowed"]),
    "id differing only in case": ({"concepts/Alpha.md": concept("大写")},
                                  ["content/concepts/Alpha.md:1: file name 'Alpha' is not a valid id"]),
    "dangerous file name": ({"concepts/..md": concept()}, ["content/concepts/..md:1: hidden file"]),
    "file name with a space and a quote": ({"reports/r 'one'.md": report()},
                                           ["content/reports/r 'one'.md:1: file name 'r 'one'' is not a valid id"]),
    "huge file": ({"concepts/alpha.md": concept(body=CONCEPT_BODY + "填充。" * 400_000)},
                  ["content/concepts/alpha.md:1: the file is 3.6 MB; content files are limited to 1 MB"]),
    "folder inside a kind": ({"concepts/drafts/gamma.md": concept()},
                             ["content/concepts/drafts:1: folders inside concepts/ are not read"]),
}

TEMPLATE_CASES = {
    "template syntax error": ("concept.md.j2", "{% for x in %}\n",
                              ["templates/concept.md.j2:1: template: Expected an expression"]),
    "template undefined variable": ("question.md.j2", "{{ q.no_such_field }}\n",
                                    ["templates/question.md.j2:1: template:"]),
}

ALL = {**CONTENT_CASES, **TAXONOMY_CASES, **MORE_CASES}


def tree_digest(site: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(site.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(site).as_posix().encode() + path.read_bytes())
    return digest.hexdigest()


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    """A tiny valid project and its built site."""
    project = make_tiny_project(tmp_path_factory.mktemp("good"), valid_files())
    site = project / "site"
    result = mkdocs_build(project, site)
    assert result.returncode == 0, result.stdout + result.stderr
    return project, site, tree_digest(site)


def run_case(good, tmp_path: Path, files: dict, template: tuple | None = None):
    project_src, site_src, digest = good
    project = tmp_path / "project"
    shutil.copytree(project_src, project, symlinks=True, ignore=shutil.ignore_patterns("site"))
    site = tmp_path / "site"
    shutil.copytree(site_src, site)
    content = project / "content"
    for rel, text in files.items():
        path = content / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text) if isinstance(text, bytes) else path.write_text(text, encoding="utf-8")
    if template is not None:
        name, prefix = template[:2]
        path = project / "templates" / name
        path.write_text(prefix + path.read_text(encoding="utf-8"), encoding="utf-8")
    result = mkdocs_build(project, site)
    return result, result.stdout + result.stderr, tree_digest(site) == digest


@pytest.mark.parametrize("case", list(ALL), ids=list(ALL))
def test_bad_input_fails_cleanly_and_keeps_the_site(good, tmp_path, case):
    changes, expected = ALL[case]
    result, output, untouched = run_case(good, tmp_path, changes)
    assert result.returncode != 0
    assert "Traceback" not in output
    problem_lines = [line for line in output.splitlines() if line.startswith("ERROR") and "content/" in line]
    assert problem_lines, output
    for want in expected:
        assert any(want in line for line in problem_lines), f"{want!r} not in:\n{output}"
    assert untouched


@pytest.mark.parametrize("case", list(TEMPLATE_CASES), ids=list(TEMPLATE_CASES))
def test_template_mistakes_name_the_template_line(good, tmp_path, case):
    name, prefix, expected = TEMPLATE_CASES[case]
    result, output, untouched = run_case(good, tmp_path, {}, (name, prefix))
    assert result.returncode != 0 and "Traceback" not in output
    assert any(expected[0] in line for line in output.splitlines() if line.startswith("ERROR")), output
    assert untouched


def test_bom_and_crlf_build(good, tmp_path):
    text = ("\ufeff" + concept("阿尔法")).replace("\n", "\r\n")
    result, output, _ = run_case(good, tmp_path, {"concepts/alpha.md": text})
    assert result.returncode == 0, output


def test_the_suite_is_large_enough():
    assert len(ALL) + len(TEMPLATE_CASES) >= 30
