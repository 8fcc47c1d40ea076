"""Build cost grows linearly: the engine's own work is counted in executed lines, not seconds.

Counting the lines Python executes inside the engine (`sys.settrace`) is deterministic and
independent of machine load.  Doubling a synthetic guide may at most about double the count for
each stage (x1.2 to x2.3); an all-pairs scan would quadruple it.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))
from synth import write_guide  # noqa: E402

from guide.link import link  # noqa: E402
from guide.load import load_content  # noqa: E402
from guide.render import render  # noqa: E402
from guide.validate import validate  # noqa: E402

ENGINE = str(ROOT / "hooks" / "guide")


def executed_lines(fn, *args):
    """Run fn(*args) and count the lines executed in the engine's own modules."""
    count = 0

    def tracer(frame, event, arg):
        nonlocal count
        if frame.f_code.co_filename.startswith(ENGINE):
            if event == "line":
                count += 1
            return tracer
        return None

    sys.settrace(tracer)
    try:
        result = fn(*args)
    finally:
        sys.settrace(None)
    return count, result


def stage_counts(root: Path) -> dict[str, int]:
    loaded = load_content(root / "content", root)
    counts = {}
    counts["validate"], (corpus, problems) = executed_lines(validate, loaded)
    assert problems == []
    counts["link"], (links, problems) = executed_lines(link, corpus)
    assert problems == []
    counts["render"], (pages, problems) = executed_lines(render, corpus, links, ROOT / "templates")
    assert problems == [] and len(pages) > len(corpus.concepts)
    return counts


@pytest.fixture(scope="module")
def counts(tmp_path_factory):
    small = write_guide(tmp_path_factory.mktemp("n100"), 100)
    large = write_guide(tmp_path_factory.mktemp("n200"), 200)
    return stage_counts(small), stage_counts(large)


@pytest.mark.parametrize("stage", ["validate", "link", "render"])
def test_stage_work_grows_linearly(counts, stage):
    small, large = counts
    ratio = large[stage] / small[stage]
    assert 1.2 < ratio < 2.3, f"{stage}: {small[stage]} -> {large[stage]} lines when the guide doubles (x{ratio:.2f})"


def test_the_counter_sees_a_quadratic_scan(tmp_path):
    """The measure itself can fail: an all-pairs loop in the engine's files shows up as x4."""
    import importlib.util

    probe = Path(ENGINE) / "_probe_for_tests.py"
    probe.write_text("def pairs(xs):\n    n = 0\n    for a in xs:\n        for b in xs:\n            n += 1\n    return n\n")
    try:
        spec = importlib.util.spec_from_file_location("guide._probe_for_tests", probe)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        small, _ = executed_lines(module.pairs, list(range(100)))
        large, _ = executed_lines(module.pairs, list(range(200)))
    finally:
        probe.unlink()
    assert large / small > 3.5
