"""The real guide's content: valid, in our own words, and every concept reachable."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from guide.pipeline import build

SEED_TOOL = ROOT.parent / "shared" / "tools" / "seed_overlap.py"


@pytest.fixture(scope="module")
def guide():
    return build(ROOT, ROOT / "docs")


def test_no_orphan_concept(guide):
    orphans = [c for c in guide.corpus.concepts if not guide.links.questions_of[c] and not guide.links.reports_of[c]]
    assert orphans == []


def test_every_question_has_a_report_or_concept_and_an_answer(guide):
    for question in guide.corpus.questions.values():
        assert question.concepts and question.body.strip() and question.brief


@pytest.mark.skipif(not SEED_TOOL.exists(), reason="the seed documents are not beside this checkout")
def test_content_does_not_repeat_the_seeds():
    result = subprocess.run([sys.executable, str(SEED_TOOL), str(ROOT / "content")], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout
