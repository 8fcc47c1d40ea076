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
        ["content/taxonomy.yml:2: the taxonomy is not valid YAML: the bracket [ opened on this line is never closed on it; "
         "add the closing ]"],
    ),
    "taxonomy: unknown field": (
        {"taxonomy.yml": taxonomy("    title: 基础\n    en: Basics\n", "    titel: 基础\n    en: Basics\n")},
        ["content/taxonomy.yml:2: topics.title: required field is missing",
         "content/taxonomy.yml:3: topics.titel: unknown field (did you mean 'title'?); allowed: id, title, en, summary, sheet"],
    ),
    "taxonomy: duplicate topic": (
        {"taxonomy.yml": taxonomy("  - id: advanced-topic\n", "  - id: basics\n")},
        ["content/taxonomy.yml:5: topics.id: duplicate id 'basics'"],
    ),
    "taxonomy: bad id": (
        {"taxonomy.yml": taxonomy("  - id: acme\n", "  - id: Acme Corp\n")},
        ["content/reports/r-one.md:3: company: unknown company 'acme'; known: initech; to add one, add an entry "
         "under companies: in content/taxonomy.yml with its id, name (中文), en and teams",
         "content/reports/r-two.md:3: company: unknown company 'acme'; known: initech; to add one, add an entry "
         "under companies: in content/taxonomy.yml with its id, name (中文), en and teams",
         "content/taxonomy.yml:9: companies.id: 'Acme Corp' is not a valid id: use lower-case a-z, 0-9 and '-'"],
    ),
    "taxonomy: a null company name": (
        {"taxonomy.yml": taxonomy("    name: 某公司\n", "    name: ~\n")},
        ["content/taxonomy.yml:10: companies.name: is empty; a value is required"],
    ),
    "taxonomy: a number as a topic title": (
        {"taxonomy.yml": taxonomy("    title: 基础\n    en: Basics\n", "    title: 2025\n    en: Basics\n")},
        ['content/taxonomy.yml:3: topics.title: expected text, got a number (2025); to keep it as text, quote it: title: "2025"'],
    ),
}

ALLOWED_TAGS = "abbr, br, kbd, mark, s, small, span, sub, sup, u"
NO_LINK = "links are not allowed; link to http(s) pages or to [[ids]]"


def body(text: str) -> dict[str, str]:
    """A question whose answer (line 7 on) is `text`."""
    return {"questions/q-one.md": question(body=text)}


MORE_CASES = {
    "bad LaTeX": (
        {"concepts/alpha.md": concept(body=CONCEPT_BODY.replace("直觉。", "公式 $\\frac{a}{$ 写错了。"))},
        ["content/concepts/alpha.md:14: math: KaTeX cannot typeset $\\frac{a}{$: Unexpected end of input in a macro argument, "
         "expected '}' at end of input: \\frac{a}{"],
    ),
    "iframe": (body("答案。\n\n<iframe src=\"https://evil.example\"></iframe>\n"),
               [f"content/questions/q-one.md:9: html: raw HTML <iframe> is not allowed in content; write Markdown (allowed tags: {ALLOWED_TAGS})"]),
    "style element": (body("<style>body{display:none}</style>\n\n答案。\n"),
                      [f"content/questions/q-one.md:7: html: raw HTML <style> is not allowed in content; write Markdown (allowed tags: {ALLOWED_TAGS})"]),
    "event handler": (body("答案 <span onclick=\"steal()\">点我</span>。\n"),
                      ["content/questions/q-one.md:7: html: attribute 'onclick' on <span> is not allowed (allowed: class, title)"]),
    "javascript: link": (body("[点我](javascript:alert(1))\n"), [f"content/questions/q-one.md:7: link: 'javascript:' {NO_LINK}"]),
    "data: image": (body("![图](data:image/svg+xml;base64,PHN2Zz4=)\n"), [f"content/questions/q-one.md:7: link: 'data:' {NO_LINK}"]),
    "img tag written without a space": (
        body("答案 <img/src=x onerror=alert(1)>\n"),
        [f"content/questions/q-one.md:7: html: raw HTML <img> is not allowed in content; write Markdown (allowed tags: {ALLOWED_TAGS})"]),
    "HTML comment a browser ends early": (
        body("答案。\n\n<!--> <b>x</b> -->\n"),
        ["content/questions/q-one.md:9: html: HTML comments are not allowed in content; delete it or say it in the text",
         f"content/questions/q-one.md:9: html: raw HTML <b> is not allowed in content; write Markdown (allowed tags: {ALLOWED_TAGS})"]),
    "CDATA section": (body("答案 <![CDATA[ x ]]>\n"),
                      ["content/questions/q-one.md:7: html: '<!' starts markup that is not allowed in content; write Markdown"]),
    "reference-style javascript: link": (body("见 [这里][1]。\n\n[1]: javascript:alert(1)\n"),
                                         [f"content/questions/q-one.md:9: link: 'javascript:' {NO_LINK}"]),
    "javascript: written with a character reference": (body("[点我](jav&#97;script:alert(1))\n"),
                                                       [f"content/questions/q-one.md:7: link: 'javascript:' {NO_LINK}"]),
    "javascript: with a tab inside": (body("[点我](java&#9;script:alert(1))\n"),
                                      [f"content/questions/q-one.md:7: link: 'javascript:' {NO_LINK}"]),
    "JavaScript: in capitals": (body("[点我](JavaScript:alert(1))\n"), [f"content/questions/q-one.md:7: link: 'javascript:' {NO_LINK}"]),
    "vbscript: link": (body("[点我](vbscript:msgbox(1))\n"), [f"content/questions/q-one.md:7: link: 'vbscript:' {NO_LINK}"]),
    "javascript: autolink": (body("<javascript:alert(1)>\n"), [f"content/questions/q-one.md:7: link: 'javascript:' {NO_LINK}"]),
    "event handler in a heading's attribute list": (
        body("答案。\n\n## 细节 {: onclick=\"alert(1)\" }\n\n内容。\n"),
        ["content/questions/q-one.md:9: attributes: an attribute list may not set 'onclick' (it may set #id, .class, height, "
         "lang, title, width); write \\{ for a literal brace"]),
    "event handler in a paragraph's attribute list": (
        body("答案。\n{: onmouseover=\"alert(1)\" }\n"),
        ["content/questions/q-one.md:8: attributes: an attribute list may not set 'onmouseover' (it may set #id, .class, "
         "height, lang, title, width); write \\{ for a literal brace"]),
    "unquoted attribute on an allowed tag": (
        body("答案 <span class=x>a</span>。\n"),
        ['content/questions/q-one.md:7: html: write the attributes of <span> as name="value" (allowed: class, title)']),
    "a '<' before a letter in prose": (
        body("当 a<b 时成立。\n"),
        ["content/questions/q-one.md:7: html: '<b' reads as the start of an HTML tag; write &lt; for a literal '<', or put it in `code`"]),
    "impossible date, unquoted": (
        {"reports/r-one.md": report(extra="date: 2025-13-40\n")},
        ["content/reports/r-one.md:5: date: expected the interview's date as YYYY, YYYY-MM or YYYY-MM-DD (e.g. 2025-03), got '2025-13-40'"]),
    "a number as a title": (
        {"concepts/alpha.md": concept("2025")},
        ['content/concepts/alpha.md:2: title: expected text, got a number (2025); to keep it as text, quote it: title: "2025"']),
    "yes as a title": (
        {"concepts/alpha.md": concept("yes")},
        ["content/concepts/alpha.md:2: title: expected text, got yes, which YAML reads as true (yes/no, on/off, true/false); "
         'to keep it as text, quote it: title: "yes"']),
    "yes as aliases": (
        {"concepts/alpha.md": concept(extra="aliases: yes\n")},
        ["content/concepts/alpha.md:7: aliases: expected a list of text, got yes, which YAML reads as true (yes/no, on/off, "
         'true/false); write it as a list: aliases: ["yes"]']),
    "a null title": ({"concepts/alpha.md": concept("~")}, ["content/concepts/alpha.md:2: title: is empty; a value is required"]),
    "a null alias": ({"concepts/alpha.md": concept(extra="aliases: [~]\n")},
                     ["content/concepts/alpha.md:7: aliases: item 1: expected text, got nothing (an empty or null value)"]),
    "yes among a round's other items": (
        {"reports/r-one.md": report(rounds="  - name: 一面\n    questions: [q-one]\n    other: [yes]\n")},
        ["content/reports/r-one.md:8: rounds.other: item 1: expected text, got yes, which YAML reads as true (yes/no, on/off, "
         'true/false); to keep it as text, quote it: "yes"']),
    "a number as a round name": (
        {"reports/r-one.md": report(rounds="  - name: 2\n    questions: [q-one]\n")},
        ['content/reports/r-one.md:6: rounds.name: expected text, got a number (2); to keep it as text, quote it: name: "2"']),
    "a list as a brief": ({"questions/q-one.md": question().replace("brief: 一句话答案。", "brief: [一, 二]")},
                          ["content/questions/q-one.md:3: brief: expected text, got a list"]),
    "infinity as a summary": (
        {"concepts/alpha.md": concept().replace("summary: 概要。", "summary: .inf")},
        ['content/concepts/alpha.md:6: summary: expected text, got a number (.inf); to keep it as text, quote it: summary: ".inf"']),
    "unclosed quote on line 2 of a report": (
        {"reports/r-one.md": '---\ntitle: "面经 一面\ncompany: acme\nsummary: 概要。\nrounds:\n  - name: "一面"\n    questions: [q-one]\n---\n'},
        ['content/reports/r-one.md:2: front matter is not valid YAML: the quote " opened on this line is never closed on it; '
         'add the closing "']),
    "unclosed quote inside rounds (no indentation hint)": (
        {"reports/r-one.md": report(rounds="  - name: \"一面\n    questions: [q-one]\n")},
        ['content/reports/r-one.md:6: front matter is not valid YAML: the quote " opened on this line is never closed on it; '
         'add the closing "']),
    "unclosed bracket": (
        {"concepts/alpha.md": concept(extra="aliases: [a, b\ntags: [x]\n")},
        ["content/concepts/alpha.md:7: front matter is not valid YAML: the bracket [ opened on this line is never closed on it; "
         "add the closing ]"]),
    "YAML anchor and alias": (
        {"concepts/alpha.md": concept(extra="aliases: &names [a]\ntags: *names\n")},
        ["content/concepts/alpha.md:8: tags: YAML anchors and aliases (&name, *name) are not read; write the value out"]),
    "a list as a key": ({"concepts/alpha.md": concept(extra="? [a]\n: b\n")},
                        ["content/concepts/alpha.md:7: a key must be a plain name (a word before ':'), not a list or a mapping"]),
    "a value its tag cannot hold": (
        {"concepts/alpha.md": concept(extra="tags: !!int x\n")},
        ["content/concepts/alpha.md:7: front matter is not valid YAML: 'x' is tagged !!int but is not one; remove the tag"]),
    "broken YAML in a concept that other files link to": (
        {"concepts/alpha.md": "---\ntitle: \"阿尔法\nen: Alpha\ntopic: basics\n---\n" + CONCEPT_BODY,
         "concepts/beta.md": concept("贝塔", extra="prerequisites: [alpha]\n", body=CONCEPT_BODY.replace("直觉。", "见 [[alpha]] 和 [[alpha#直觉]]。")),
         "questions/q-one.md": question(body="见 [[alpha]]。\n")},
        ['content/concepts/alpha.md:2: front matter is not valid YAML: the quote " opened on this line is never closed on it; '
         'add the closing "']),
    "id differing only in case": (
        {"concepts/Alpha.md": concept("大写")},
        ["content/concepts/Alpha.md:1: file name 'Alpha' is not a valid id: use lower-case a-z, 0-9 and '-' (it becomes the page URL)"]),
    "dangerous file name": ({"concepts/..md": concept()},
                            ["content/concepts/..md:1: hidden file: names starting with '.' are not read; rename it"]),
    "file name with a space and a quote": (
        {"reports/r 'one'.md": report()},
        ["content/reports/r 'one'.md:1: file name 'r 'one'' is not a valid id: use lower-case a-z, 0-9 and '-' (it becomes the page URL)"]),
    "huge file": ({"concepts/alpha.md": concept(body=CONCEPT_BODY + "填充。" * 400_000)},
                  ["content/concepts/alpha.md:1: the file is 3.6 MB; content files are limited to 1 MB"]),
    "folder inside a kind": ({"concepts/drafts/gamma.md": concept()},
                             ["content/concepts/drafts:1: folders inside concepts/ are not read; move its files up into concepts/"]),
}

TEMPLATE_CASES = {
    "template syntax error": ("concept.md.j2", "{% for x in %}\n",
                              ["templates/concept.md.j2:1: template: Expected an expression, got 'end of statement block'"]),
    "template undefined variable": ("question.md.j2", "{{ q.no_such_field }}\n",
                                    ["templates/question.md.j2:1: template: 'guide.model.Question object' has no attribute 'no_such_field'"]),
}

ALL = {**CONTENT_CASES, **TAXONOMY_CASES, **MORE_CASES}
assert not set(CONTENT_CASES) & set(MORE_CASES), "a case name is used twice"


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


def reported(output: str) -> list[str]:
    """Every line a failed build printed: its problems, then the summary, and nothing else."""
    return [line for line in output.splitlines() if line.strip()]


def summary(n: int) -> str:
    return f"{n} problem(s) in the guide's sources; nothing was built and site/ was left as it was"


@pytest.mark.parametrize("case", list(ALL), ids=list(ALL))
def test_bad_input_prints_exactly_its_problems_and_keeps_the_site(good, tmp_path, case):
    changes, expected = ALL[case]
    result, output, untouched = run_case(good, tmp_path, changes)
    assert result.returncode != 0
    assert "Traceback" not in output
    assert reported(output) == expected + [summary(len(expected))], output
    assert untouched


@pytest.mark.parametrize("case", list(TEMPLATE_CASES), ids=list(TEMPLATE_CASES))
def test_template_mistakes_name_the_template_line(good, tmp_path, case):
    name, prefix, expected = TEMPLATE_CASES[case]
    result, output, untouched = run_case(good, tmp_path, {}, (name, prefix))
    assert result.returncode != 0 and "Traceback" not in output
    assert reported(output) == expected + [summary(len(expected))], output
    assert untouched


def test_bom_and_crlf_build(good, tmp_path):
    text = ("\ufeff" + concept("阿尔法")).replace("\n", "\r\n")
    result, output, _ = run_case(good, tmp_path, {"concepts/alpha.md": text})
    assert result.returncode == 0, output


def test_the_readme_counts_the_broken_guides_this_suite_builds():
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    assert f"{len(ALL) + len(TEMPLATE_CASES)} broken guides built through" in readme
