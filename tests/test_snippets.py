"""Every Python snippet in content/ runs and checks what it claims (hello-algo style)."""
from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

CONTENT = Path(__file__).resolve().parent.parent / "content"
FENCE = re.compile(r"^```python[^\n]*\n(.*?)^```", re.S | re.M)


def snippets() -> list[tuple[str, str]]:
    found = []
    for path in sorted(CONTENT.rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append((f"{path.relative_to(CONTENT.parent)}:{line}", match.group(1)))
    return found


SNIPPETS = snippets()


def test_there_are_snippets():
    assert len(SNIPPETS) >= 5


@pytest.mark.parametrize("where, code", SNIPPETS, ids=[w for w, _ in SNIPPETS])
def test_snippet_runs_and_asserts(where, code):
    asserts = [node for node in ast.walk(ast.parse(code)) if isinstance(node, ast.Assert)]
    assert asserts, f"{where}: a snippet must check what it claims with at least one assert"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"{where} failed:\n{result.stderr}"
