"""`make bench`: the build's cost by step, memory and output size, real guide and synthetic guides.

For every corpus (the real guide, then synthetic guides of BENCH_SIZES concepts) it builds the
site BENCH_RUNS times with scripts/build.py (what `make site` runs) and reports medians per step:
**compile** (the engine's pipeline and the docs tree), **build** (MkDocs + Material on that tree,
no hook: formulas still TeX, no search, which is what a stock MkDocs + Material site of the same
pages costs; this is the floor), **finish** without printing (content check, formulas, code
buttons, search index, deck, offline worker) and **print** (the cheat-sheet PDFs) apart. "x floor"
is the whole build, printing excluded, over the build step. Builds are cold: the caches (typeset
formulas, print-font subsets, printed PDFs) are removed before each one; "warm s" is one more
build right after, caches kept (printing excluded). The real guide's builds print its cheat sheets;
synthetic guides skip printing (GUIDE_PRINT=0), their sheets being far beyond two pages.
"search KB" is the whole Pagefind bundle on disk; a reader downloads only a few of its chunks
(bench/search.py). "offline MB" is what saving the guide offline stores (the precache), "gzip MB"
what it transfers from a host that compresses.
Environment: BENCH_SIZES (default "200 1000 2000"), BENCH_RUNS (default 3), BENCH_REAL=0 skips the real guide.
"""
from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
WORK = ROOT / ".bench"
sys.path.insert(0, str(ROOT / "hooks"))
sys.path.insert(0, str(HERE))

from synth import write_guide  # noqa: E402

STAGES = ("load", "validate", "link", "render", "math", "snippets")
"""The pipeline's stages, inside the compile step."""
LINKED = ("mkdocs.yml", "guide.yml", "docs", "templates", "hooks", "overrides", "node_modules")


def make_project(name: str, concepts: int | None) -> Path:
    project = WORK / name
    if project.exists():
        shutil.rmtree(project)
    project.mkdir(parents=True)
    for item in LINKED:
        if item != "docs" or concepts is None:
            (project / item).symlink_to(ROOT / item)
    if concepts is None:
        (project / "content").symlink_to(ROOT / "content")
        return project
    write_guide(project, concepts)
    # The hand-written pages link to real concepts that a synthetic guide does not have.
    shutil.copytree(ROOT / "docs", project / "docs")
    for page in (project / "docs").rglob("*.md"):
        page.write_text(re.sub(r"\[\[([^\]|#]+)[^\]]*\]\]", r"\1", page.read_text(encoding="utf-8")), encoding="utf-8")
    return project


OFFLINE_SUFFIXES = {".html", ".css", ".js", ".json", ".woff2", ".svg", ".png", ".webmanifest"}


def offline_gzip_bytes(site: Path) -> int:
    """What saving the guide offline transfers from a host that gzips: the files the service worker
    precaches (hooks/guide/offline.py's globs), each gzip-compressed."""
    total = 0
    for path in site.rglob("*"):
        rel = path.relative_to(site).as_posix()
        if not path.is_file() or rel in ("sw.js", "offline.json") or rel.startswith(("pdf/", "downloads/")) or rel.endswith(".map"):
            continue
        if rel.startswith("pagefind/") or path.suffix in OFFLINE_SUFFIXES:
            total += len(gzip.compress(path.read_bytes(), compresslevel=6))
    return total


def build_once(project: Path, print_sheets: bool) -> dict:
    timing_file = project / "timings.json"
    timing_file.unlink(missing_ok=True)
    env = {**os.environ, "GUIDE_TIMINGS": str(timing_file), "NO_MKDOCS_2_WARNING": "1", "GUIDE_PRINT": "1" if print_sheets else "0"}
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "build.py"), "--root", str(project)],
                         capture_output=True, text=True, env=env, cwd=project)
    if out.returncode != 0:
        raise SystemExit(f"build of {project.name} failed:\n{out.stderr[-3000:]}")
    timings = json.loads(timing_file.read_text())
    steps = timings["steps"]
    timings["finish_no_print"] = steps["finish"] - timings.get("print", 0.0)
    timings["whole_no_print"] = steps["compile"] + steps["build"] + timings["finish_no_print"]
    return timings


def measure(project: Path, runs: int, print_sheets: bool = True) -> dict:
    timings = []
    for _ in range(runs):
        shutil.rmtree(project / ".cache", ignore_errors=True)  # cold builds: every formula typeset again
        shutil.rmtree(project / "build", ignore_errors=True)
        timings.append(build_once(project, print_sheets))
    warm = build_once(project, print_sheets)
    site = project / "site"
    pages = sum(1 for _ in site.rglob("*.html"))
    total_bytes = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    index_dir = site / "pagefind"
    offline = json.loads((site / "offline.json").read_text()) if (site / "offline.json").exists() else {"size": 0}

    def median(get) -> float:
        return statistics.median(get(t) for t in timings)

    row = {
        "offline_mb": offline["size"] / 1e6,
        "offline_gzip_mb": offline_gzip_bytes(site) / 1e6,
        "pages": pages,
        "compile": median(lambda t: t["steps"]["compile"]),
        "build": median(lambda t: t["steps"]["build"]),
        "finish": median(lambda t: t["finish_no_print"]),
        "print": median(lambda t: t.get("print", 0.0)),
        "whole": median(lambda t: t["whole_no_print"]),
        "warm": warm["whole_no_print"],
        "pipeline": median(lambda t: sum(t.get(s, 0.0) for s in STAGES)),
        "search": median(lambda t: t.get("search_process", 0.0)),
        "peak_mib": median(lambda t: t["peak_mib"]),
        "bytes_per_page": total_bytes / pages,
        "search_bytes": sum(p.stat().st_size for p in index_dir.rglob("*") if p.is_file()) if index_dir.exists() else 0,
    }
    return row


def main() -> None:
    sizes = [int(s) for s in os.environ.get("BENCH_SIZES", "200 1000 2000").split()]
    runs = int(os.environ.get("BENCH_RUNS", "3"))
    corpora: list[tuple[str, int | None]] = [(f"synthetic-{n}", n) for n in sizes]
    if os.environ.get("BENCH_REAL", "1") == "1":
        corpora.insert(0, ("real", None))
    print(f"median of {runs} cold run(s) per build; times in seconds; floor = the build step alone\n")
    columns = ("pages", "compile s", "build s", "finish s", "print s", "whole s", "x floor", "warm s", "ms/page",
               "pipeline", "search s", "peak MiB", "KB/page", "search KB", "offline MB", "gzip MB")
    print(f"{'corpus':<16}" + "".join(f"{c:>11}" for c in columns))
    per_page: dict[int, tuple[float, float]] = {}  # synthetic size -> (ms/page, KB/page)
    for name, n in corpora:
        project = make_project(name, n)
        row = measure(project, runs, print_sheets=n is None)
        if n is not None:
            per_page[n] = (1000 * row["whole"] / row["pages"], row["bytes_per_page"] / 1024)
        values = (row["pages"], row["compile"], row["build"], row["finish"], row["print"], row["whole"],
                  row["whole"] / row["build"], row["warm"], 1000 * row["whole"] / row["pages"], row["pipeline"],
                  row["search"], row["peak_mib"], row["bytes_per_page"] / 1024, row["search_bytes"] / 1024,
                  row["offline_mb"], row["offline_gzip_mb"])
        print(f"{name:<16}" + "".join(f"{v:>11}" if isinstance(v, int) else f"{v:>11.2f}" for v in values), flush=True)
    if len(per_page) > 1:
        small, large = min(per_page), max(per_page)
        print(f"\nlinearity, {large} vs {small} concepts: ms/page x{per_page[large][0] / per_page[small][0]:.2f}, "
              f"KB/page x{per_page[large][1] / per_page[small][1]:.2f} (target: at most x1.3 each)")
    print("target: at 2,000 concepts the whole build, printing excluded, at most x1.15 the floor")


if __name__ == "__main__":
    main()
