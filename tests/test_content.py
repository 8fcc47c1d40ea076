"""The real guide's content: valid, in our own words, and every concept reachable."""
from __future__ import annotations

import re
import subprocess
import sys

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


def test_every_question_is_reached_from_a_report_another_question_or_a_note(guide):
    """A reader finds each question by more than search: a report asked it, another question leads
    to it as a follow-up, or a note's text links it (as 面试怎么问 does)."""
    links = guide.links
    unreached = [q for q in guide.corpus.questions
                 if not links.asked_in.get(q) and not links.leads_from.get(q) and not links.mentioned_by.get(q)]
    assert unreached == []


@pytest.mark.skipif(not SEED_TOOL.exists(), reason="the seed documents are not beside this checkout")
def test_content_does_not_repeat_the_seeds():
    result = subprocess.run([sys.executable, str(SEED_TOOL), str(ROOT / "content")], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_every_item_of_the_50_question_list_has_a_question_page(guide):
    """The question-list report maps each numbered item of the source list to bank questions."""
    report = guide.corpus.reports["llm-rl-50q"]
    rows = re.findall(r"^\| (\d+) \| (.+?) \|$", report.body, re.M)
    numbers = [int(n) for n, _ in rows]
    assert numbers == list(range(1, len(rows) + 1)) and len(rows) >= 50
    asked = {q for round_ in report.rounds for q in round_.questions}
    for number, cell in rows:
        ids = re.findall(r"\[\[([a-z0-9-]+)\]\]", cell)
        assert ids, f"item {number} maps to no question"
        for question_id in ids:
            assert question_id in guide.corpus.questions, f"item {number}: {question_id} is not a question"
            assert question_id in asked, f"item {number}: {question_id} is not listed in the report's rounds"


def test_reports_and_companies_meet_the_guide_scope(guide):
    corpus = guide.corpus
    assert len(corpus.concepts) >= 45 and len(corpus.questions) >= 150 and len(corpus.reports) >= 20
    assert len(corpus.taxonomy.companies) == 9
    duplicates = [r for r in corpus.reports.values() if r.duplicate_of]
    assert len(duplicates) == 3  # the sources publish three reports twice
