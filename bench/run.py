"""`make bench`: build time, pipeline share, memory and output size, real guide and synthetic guides.

For every corpus (the real guide, then synthetic guides of BENCH_SIZES concepts) it builds the
site BENCH_RUNS times and reports medians.  The floor is a plain `mkdocs build` of the same
generated Markdown pages with no hook: what MkDocs + Material cost on their own.  "search KB" is
the whole Pagefind bundle on disk; a reader downloads only a few of its chunks (bench/search.py).
Builds are cold: the caches (typeset formulas, print-font subsets, printed PDFs) are removed before
each one. The real guide's builds print its cheat sheets ("publish": PDFs and the Anki deck);
synthetic guides skip printing (GUIDE_PRINT=0), their sheets being far beyond two pages. Every
build writes the offline copy's service worker; "offline MB" is what saving the guide offline
stores (the precache), "gzip MB" what it transfers from a host that compresses.
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

from guide.pipeline import build as run_pipeline  # noqa: E402
from synth import write_guide  # noqa: E402

STAGES = ("load", "validate", "link", "render", "math", "emit")
"""Pipeline stages (emit includes cutting the print fonts); "publish" (after the site is written) is reported apart."""
LINKED = ("mkdocs.yml", "docs", "templates", "hooks", "overrides", "node_modules")


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


def make_floor(project: Path) -> Path:
    """The same pages as plain Markdown files, built by MkDocs with no hook."""
    floor = project.with_name(project.name + "-floor")
    if floor.exists():
        shutil.rmtree(floor)
    shutil.copytree(project / "docs", floor / "docs")
    for src, text in run_pipeline(project).pages.items():
        target = floor / "docs" / src
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    config = re.sub(r"^(hooks|watch):\n(  - .*\n)+", "", config, flags=re.M)
    (floor / "mkdocs.yml").write_text(config, encoding="utf-8")
    (floor / "overrides").symlink_to(ROOT / "overrides")
    return floor


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


def measure(project: Path, runs: int, print_sheets: bool = True) -> dict:
    results, timings = [], []
    site = project / "site"
    for _ in range(runs):
        shutil.rmtree(project / ".cache", ignore_errors=True)  # cold builds: every formula typeset again
        timing_file = project / "timings.json"
        env = {**os.environ, "GUIDE_TIMINGS": str(timing_file), "NO_MKDOCS_2_WARNING": "1", "GUIDE_PRINT": "1" if print_sheets else "0"}
        out = subprocess.run([sys.executable, str(HERE / "one_build.py"), str(project / "mkdocs.yml"), str(site)],
                             capture_output=True, text=True, env=env, cwd=project)
        if out.returncode != 0:
            raise SystemExit(f"build of {project.name} failed:\n{out.stderr[-3000:]}")
        results.append(json.loads(out.stdout.strip().splitlines()[-1]))
        if timing_file.exists():
            timings.append(json.loads(timing_file.read_text()))
            timing_file.unlink()
    pages = sum(1 for _ in site.rglob("*.html"))
    total_bytes = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    index_dir = site / "pagefind"
    offline = json.loads((site / "offline.json").read_text()) if (site / "offline.json").exists() else {"size": 0}
    row = {
        "offline_mb": offline["size"] / 1e6,
        "offline_gzip_mb": offline_gzip_bytes(site) / 1e6,
        "pages": pages,
        "seconds": statistics.median(r["seconds"] for r in results),
        "peak_mib": statistics.median(r["peak_mib"] for r in results),
        "bytes_per_page": total_bytes / pages,
        "search_bytes": sum(p.stat().st_size for p in index_dir.rglob("*") if p.is_file()) if index_dir.exists() else 0,
    }
    for stage in (*STAGES, "search", "publish"):
        if timings:
            row[stage] = statistics.median(t.get(stage, 0.0) for t in timings)
    return row


def main() -> None:
    sizes = [int(s) for s in os.environ.get("BENCH_SIZES", "200 1000 2000").split()]
    runs = int(os.environ.get("BENCH_RUNS", "3"))
    corpora: list[tuple[str, int | None]] = [(f"synthetic-{n}", n) for n in sizes]
    if os.environ.get("BENCH_REAL", "1") == "1":
        corpora.insert(0, ("real", None))
    print(f"median of {runs} run(s) per build; times in seconds\n")
    header = f"{'corpus':<16}{'pages':>7}{'build s':>9}{'ms/page':>9}{'pipeline':>10}{'share':>7}" \
             + "".join(f"{s:>9}" for s in STAGES) + f"{'index s':>9}{'index %':>8}{'peak MiB':>10}{'KB/page':>9}{'search KB':>11}" \
             + f"{'floor s':>9}{'floor ms/p':>11}{'floor KB/p':>11}{'publish s':>11}{'offline MB':>11}{'gzip MB':>9}"
    print(header)
    per_page: dict[int, tuple[float, float]] = {}  # synthetic size -> (ms/page, KB/page)
    for name, n in corpora:
        project = make_project(name, n)
        row = measure(project, runs, print_sheets=n is None)
        if n is not None:
            per_page[n] = (1000 * row["seconds"] / row["pages"], row["bytes_per_page"] / 1024)
        floor = measure(make_floor(project), runs)
        pipeline = sum(row.get(s, 0.0) for s in STAGES)
        print(f"{name:<16}{row['pages']:>7}{row['seconds']:>9.2f}{1000 * row['seconds'] / row['pages']:>9.1f}"
              f"{pipeline:>10.2f}{100 * pipeline / row['seconds']:>6.1f}%"
              + "".join(f"{row.get(s, 0.0):>9.2f}" for s in STAGES)
              + f"{row.get('search', 0.0):>9.2f}{100 * row.get('search', 0.0) / row['seconds']:>7.1f}%"
              + f"{row['peak_mib']:>10.0f}{row['bytes_per_page'] / 1024:>9.1f}{row['search_bytes'] / 1024:>11.0f}"
              + f"{floor['seconds']:>9.2f}{1000 * floor['seconds'] / floor['pages']:>11.1f}{floor['bytes_per_page'] / 1024:>11.1f}"
              + f"{row.get('publish', 0.0):>11.2f}{row['offline_mb']:>11.1f}{row['offline_gzip_mb']:>9.1f}",
              flush=True)
    if len(per_page) > 1:
        small, large = min(per_page), max(per_page)
        print(f"\nlinearity, {large} vs {small} concepts: ms/page x{per_page[large][0] / per_page[small][0]:.2f}, "
              f"KB/page x{per_page[large][1] / per_page[small][1]:.2f} (target: at most x1.3 each)")


if __name__ == "__main__":
    main()
