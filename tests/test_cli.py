"""Author commands: scaffolds are valid as written; `check` lists problems with file:line."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import ROOT, valid_files, write_corpus

TEMPLATES = ROOT / "templates"


def run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "guide", "--root", str(root), *args], capture_output=True, text=True,
                          cwd=ROOT, env={"PYTHONPATH": str(ROOT / "hooks"), "PATH": "/usr/bin:/bin"})


def test_scaffolds_are_valid(tmp_path):
    write_corpus(tmp_path, valid_files())
    (tmp_path / "templates").symlink_to(TEMPLATES)
    (tmp_path / "docs").mkdir()
    for kind, entity_id in (("concept", "new-idea"), ("question", "new-question"), ("report", "new-report")):
        made = run(tmp_path, "new", kind, entity_id)
        assert made.returncode == 0, made.stderr
        assert (tmp_path / "content" / f"{kind}s" / f"{entity_id}.md").is_file()
    checked = run(tmp_path, "check")
    assert checked.returncode == 0, checked.stderr
    assert "ok: 3 concepts, 2 questions, 3 reports" in checked.stdout


def test_scaffold_refuses_bad_or_taken_ids(tmp_path):
    write_corpus(tmp_path, valid_files())
    bad = run(tmp_path, "new", "concept", "Bad Id")
    assert bad.returncode == 2 and "not a valid id" in bad.stderr
    taken = run(tmp_path, "new", "report", "alpha")
    assert taken.returncode == 1 and "content/concepts/alpha.md already exists" in taken.stderr


def test_check_lists_problems(tmp_path):
    files = valid_files()
    files["questions/q-one.md"] = files["questions/q-one.md"].replace("[alpha]", "[alhpa]")
    write_corpus(tmp_path, files)
    (tmp_path / "templates").symlink_to(TEMPLATES)
    checked = run(tmp_path, "check")
    assert checked.returncode == 1
    assert "content/questions/q-one.md:4: concepts: unknown concept 'alhpa' (did you mean 'alpha'?)" in checked.stderr
