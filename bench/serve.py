"""The author loop: how long `make serve` takes to show one edited concept note.

Starts `mkdocs serve` on a copy of the project, appends a sentence to one concept note, and times
from the edit to MkDocs' "Reloading browsers", several times; with `--dirty` (what `make serve`
runs) and, for comparison, without.  Environment: BENCH_RUNS (default 3).
"""
from __future__ import annotations

import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
WORK = ROOT / ".bench" / "serve"
NOTE = "content/concepts/gae.md"


def project() -> Path:
    if WORK.exists():
        shutil.rmtree(WORK)
    WORK.mkdir(parents=True)
    for item in ("mkdocs.yml", "mkdocs.serve.yml", "guide.yml", "docs", "templates", "hooks", "overrides", "node_modules"):
        (WORK / item).symlink_to(ROOT / item)
    shutil.copytree(ROOT / "content", WORK / "content")
    return WORK


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def measure(dirty: bool, runs: int) -> tuple[float, list[float]]:
    root = project()
    args = [sys.executable, "-m", "mkdocs", "serve", "-f", "mkdocs.serve.yml", "-a", f"127.0.0.1:{free_port()}", "--livereload"]
    if dirty:
        args += ["--dirty", "--no-strict"]  # MkDocs warns about every dirty build; strict would abort
    server = subprocess.Popen(args, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    lines: list[tuple[float, str]] = []
    reader = threading.Thread(target=lambda: [lines.append((time.perf_counter(), line)) for line in server.stdout], daemon=True)
    reader.start()

    def wait_for(pattern: str, after: int, timeout: float = 300) -> float:
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            for stamp, line in lines[after:]:
                if re.search(pattern, line):
                    return stamp
            time.sleep(0.05)
        raise SystemExit(f"timed out waiting for {pattern!r}:\n" + "".join(l for _, l in lines[-20:]))

    start = time.perf_counter()
    first = wait_for(r"Serving on", 0) - start
    times = []
    note = root / NOTE
    try:
        for n in range(runs):
            time.sleep(1.0)
            seen = len(lines)
            edited = time.perf_counter()
            note.write_text(note.read_text(encoding="utf-8") + f"\n补充说明 {n}。\n", encoding="utf-8")
            times.append(wait_for(r"Reloading browsers", seen) - edited)
    finally:
        server.terminate()
        server.wait(timeout=30)
    return first, times


def main() -> None:
    runs = int(os.environ.get("BENCH_RUNS", "3"))
    print(f"\n{'make serve':<28}{'first build s':>15}{'edit → reload s (median)':>27}  runs")
    for dirty in (True, False):
        first, times = measure(dirty, runs)
        name = "mkdocs serve --dirty" if dirty else "mkdocs serve (full rebuild)"
        print(f"{name:<28}{first:>15.1f}{statistics.median(times):>27.2f}  {', '.join(f'{t:.2f}' for t in times)}", flush=True)


if __name__ == "__main__":
    main()
