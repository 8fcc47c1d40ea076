"""Every Python snippet runs and checks what it claims (hello-algo style): at every `make check` and
build, reported at the `.md` file's own line, cached by hash, and runnable one file at a time."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import CONCEPT_BODY, ROOT, concept, make_tiny_project, mkdocs_build, valid_files, write_corpus
from guide.errors import ContentError
from guide.pipeline import build, corpus_snippets
from guide.snippets import Snippet, SnippetCheck, run

TEMPLATES = ROOT / "templates"
CODE = """\
import numpy as np

x = np.arange(3)
total = x.sum()
assert total == 4, f"0 + 1 + 2 is {total}, not 4"
"""


def with_code(code: str) -> dict[str, str]:
    """The tiny valid corpus with `code` as alpha's ## 代码 snippet (its first line is line 19)."""
    files = valid_files()
    body = CONCEPT_BODY.replace("## 面试怎么问", f"## 代码\n\n```python\n{code}```\n\n## 面试怎么问")
    files["concepts/alpha.md"] = concept("阿尔法", body=body)
    return files


def guide(root, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "guide", "--root", str(root), *args], capture_output=True, text=True,
                          cwd=root, env={**os.environ, "PYTHONPATH": str(ROOT / "hooks")})


@pytest.mark.subprocess
def test_a_failing_assert_is_reported_at_its_own_line_with_its_message_and_values(tmp_path):
    project = make_tiny_project(tmp_path, with_code(CODE))
    lines = (project / "content/concepts/alpha.md").read_text(encoding="utf-8").split("\n")
    assert lines[22].startswith("assert total == 4")  # line 23 of the file
    result = guide(project, "check")
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "content/concepts/alpha.md:23: snippet: assert failed: 0 + 1 + 2 is 3, not 4 (where total = np.int64(3))",
        "1 problem(s)",
    ]


def test_other_failures_name_their_line_and_error(tmp_path):
    write_corpus(tmp_path, with_code("import numpy as np\n\nvalues = np.ones(2)\nvalues[5] = 1\nassert True\n"))
    with pytest.raises(ContentError) as err:
        build(tmp_path, templates=TEMPLATES)
    assert [str(p) for p in err.value.problems] == [
        "content/concepts/alpha.md:22: snippet: IndexError: index 5 is out of bounds for axis 0 with size 2"]


def test_a_bare_assert_shows_the_statement_and_its_values_and_a_snippet_without_asserts_is_refused(tmp_path):
    write_corpus(tmp_path, with_code("x = 1\nassert x == 2\n"))
    with pytest.raises(ContentError) as err:
        build(tmp_path, templates=TEMPLATES)
    assert [str(p) for p in err.value.problems] == ["content/concepts/alpha.md:20: snippet: assert failed: assert x == 2 (where x = 1)"]
    write_corpus(tmp_path, with_code("print('no claim checked')\n"))
    with pytest.raises(ContentError) as err:
        build(tmp_path, templates=TEMPLATES)
    assert [str(p) for p in err.value.problems] == [
        "content/concepts/alpha.md:19: snippet: a snippet must check what it claims with at least one assert"]


@pytest.mark.subprocess
def test_make_site_fails_on_a_failing_snippet(tmp_path):
    project = make_tiny_project(tmp_path / "project", with_code(CODE))
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode != 0 and "Traceback" not in result.stdout + result.stderr
    assert "content/concepts/alpha.md:23: snippet: assert failed: 0 + 1 + 2 is 3, not 4" in result.stderr
    assert not (tmp_path / "site").exists()


def test_results_are_cached_by_the_snippets_text(tmp_path):
    snippets = [Snippet("a.md", ((3, "assert 1 + 1 == 2\n"),)), Snippet("b.md", ((7, "assert 2 > 3, 'no'\n"),))]
    cache = tmp_path / "snippets.json"
    first = SnippetCheck(snippets, cache=cache)
    assert [str(p) for p in first.problems()] == ["b.md:7: snippet: assert failed: no"] and first.ran == 2
    second = SnippetCheck(snippets, cache=cache)
    assert [str(p) for p in second.problems()] == ["b.md:7: snippet: assert failed: no"] and second.ran == 0
    changed = SnippetCheck([snippets[0], Snippet("b.md", ((7, "assert 3 > 2, 'no'\n"),))], cache=cache)
    assert changed.problems() == [] and changed.ran == 1


def test_a_snippet_that_hangs_is_stopped_and_named(tmp_path):
    assert run(Snippet("c.md", ((5, "while True:\n    pass\n"),)), timeout=1) == (5, "did not finish within 1 s")


def test_snippets_run_in_parallel_processes_isolated_from_each_other():
    # Two snippets that would clash in one interpreter (a module-level name, numpy's global state).
    a = Snippet("a.md", ((1, "import numpy as np\nnp.set_printoptions(precision=1)\nSHARED = 1\nassert True\n"),))
    b = Snippet("b.md", ((1, "assert 'SHARED' not in globals()\nimport numpy as np\nassert np.get_printoptions()['precision'] == 8\n"),))
    assert SnippetCheck([a, b], workers=2).problems() == []


@pytest.mark.subprocess
def test_one_files_snippets_run_on_their_own(tmp_path):
    project = make_tiny_project(tmp_path, with_code(CODE.replace("== 4", "== 3").replace("not 4", "not 3")))
    result = guide(project, "snippets", "content/concepts/alpha.md")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["content/concepts/alpha.md:19: snippet: ok", "1 snippet(s), 0 failed"]
    missing = guide(project, "snippets", "content/concepts/beta.md")
    assert missing.returncode == 1
    assert "content/concepts/beta.md: no runnable snippet" in missing.stderr


@pytest.mark.heavy
def test_the_guide_has_snippets_and_every_one_passes():
    built = build(ROOT, ROOT / "docs")  # raises with file:line for any failing snippet
    assert len(corpus_snippets(built.corpus)) >= 40
