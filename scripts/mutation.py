"""`make mutation`: how many planted bugs the tests catch, in the engine and in the study scripts.

Python: mutmut over the engine's stages (hooks/guide), each against the fast in-process tests
(`-m "not browser and not heavy and not subprocess"`); mutmut runs, for each mutant, only the tests that reach
its function. JavaScript: StrykerJS over docs/assets/js with the vitest unit tests (tests/js).

mutmut reads modules by their file path, so it runs on a staged copy (.mutation/) where the
package also sits at src/guide, the layout it expects (tests import it from there; builds in a
subprocess use the plain copy in hooks/); nothing in the project is modified.

Prints, for each side, the mutants killed out of all of them (a mutant in code no test reaches
counts as a survivor: that is the score the 80 % target is on), the share among those a test
reaches, and every survivor with its diff. Usage: scripts/mutation.py [--python] [--js] [--modules safe,link] [--sample N | --sample 0]
"""
from __future__ import annotations

import argparse
import json
import math
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STAGE = ROOT / ".mutation"

MODULES = ["errors", "safe", "text", "urls", "load", "validate", "link", "render", "search", "find", "snippets",
           "formulas", "conceptmap", "anki", "model", "pipeline"]
"""The engine's stages and helpers that in-process tests drive. Left out, each with its reason:
emit (MkDocs' File objects), serving (`mkdocs serve` state), publish, printing and printfonts
(Chromium prints the sheets; fonts are cut from Debian's files), offline (Workbox in node), cli and
__main__ (run as `python -m guide` in a subprocess): they are exercised by the build, print,
offline and command tests, each a site build or a subprocess per run, too slow to repeat for
every mutant."""

SAMPLE = 40
"""Mutants `make mutation` runs per engine module (about 600 in all, some minutes): a random draw
whose killed share estimates the module's; the score is printed with its 95 % margin (about ±6 points);
`--sample 0` runs all of them, some hours on two cores."""

TESTS = ["tests/test_errors.py", "tests/test_safe.py", "tests/test_validate.py", "tests/test_link.py", "tests/test_render.py",
         "tests/test_search.py", "tests/test_find.py", "tests/test_snippets.py", "tests/test_formulas.py",
         "tests/test_conceptmap.py", "tests/test_anki.py", "tests/test_coding.py", "tests/test_urls.py"]


def stage(modules: list[str]) -> None:
    """A copy of the project's tracked files with the package at src/guide, configured for mutmut."""
    if STAGE.exists():
        shutil.rmtree(STAGE)
    files = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-co", "--exclude-standard"], capture_output=True, text=True,
                           check=True).stdout.split("\n")
    for name in filter(None, files):
        source = ROOT / name
        if name in ("node_modules", ".venv") or not source.is_file():
            continue
        targets = [STAGE / name]
        if name.startswith("hooks/guide/"):  # the package mutmut mutates; hooks/ keeps a plain copy for builds
            targets.append(STAGE / ("src/guide" + name[len("hooks/guide"):]))
        for target in targets:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    pyproject = (STAGE / "pyproject.toml").read_text(encoding="utf-8").replace('pythonpath = ["hooks", "."]', 'pythonpath = ["src", "."]')
    tests = [t for t in TESTS if (STAGE / t).is_file()]
    pyproject += "\n[tool.mutmut]\n" + "\n".join([
        'source_paths = ["src/guide"]',
        f"only_mutate = {json.dumps([f'src/guide/{m}.py' for m in modules])}",
        f"pytest_add_cli_args_test_selection = {json.dumps([*tests, '-m', 'not browser and not heavy and not subprocess', '-p', 'no:cacheprovider'])}",
        'also_copy = ["templates", "content", "docs", "mkdocs.yml", "guide.yml", "overrides", "tests", "hooks", "scripts"]',
        # Workers fork from a server that runs no test itself: tests start processes of their own
        # (the snippet fork server, KaTeX's node, Pagefind), which mutmut's main process would
        # otherwise reap as if they were its workers.
        'process_isolation = "forkserver"',
        # mutmut's CPU limit is 15x a test's measured time plus 1 s; importing the engine in a fresh
        # worker takes longer than that for the fastest tests, and a mutant those tests kill was
        # reported as a timeout. 30 s more tells a real hang from a slow start.
        "timeout_constant = 30.0",
        "",
    ])
    (STAGE / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    (STAGE / "mutants").mkdir()
    (STAGE / "mutants" / "node_modules").symlink_to(ROOT / "node_modules")


def _status(mutmut: str) -> dict[str, str]:
    listing = subprocess.run([mutmut, "results", "--all", "true"], cwd=STAGE, capture_output=True, text=True).stdout
    return dict(re.findall(r"^\s*(\S+): (.+)$", listing, re.M))


def run_python(modules: list[str], sample: int, seed: int) -> tuple[float, float, int, int, int, list[str]]:
    """(estimated killed, the score's 95 % margin, all mutants, mutants run, mutants no test reaches, survivors with their diffs).

    With `sample`, each module runs that many of the mutants a test reaches, drawn at random (seeded);
    its killed share of them stands for all its reached mutants. Mutants no test reaches are known
    without running (mutmut's coverage run) and count as survivors either way."""
    stage(modules)
    mutmut = str(Path(sys.executable).parent / "mutmut")  # installed by `make mutation` (requirements-mutation.txt)
    if sample:  # generate every mutant and the coverage map, running one mutant only
        subprocess.run([mutmut, "run", f"guide.{modules[0]}.*__mutmut_1"], cwd=STAGE, stdout=subprocess.DEVNULL)
        status = _status(mutmut)
        rng = random.Random(seed)
        chosen = []
        for module in modules:
            reached = sorted(m for m, s in status.items() if m.startswith(f"guide.{module}.") and s != "no tests")
            chosen += rng.sample(reached, min(sample, len(reached)))
        subprocess.run([mutmut, "run", *chosen], cwd=STAGE, stdout=subprocess.DEVNULL)
        status = {**_status(mutmut)}
        run = set(chosen)
    else:
        subprocess.run([mutmut, "run"], cwd=STAGE, stdout=subprocess.DEVNULL)
        status = _status(mutmut)
        run = {m for m, s in status.items() if s != "no tests"}
    done = ("killed", "timeout")
    estimated = variance = 0.0
    lines = []
    for module in modules:
        mine = {m: s for m, s in status.items() if m.startswith(f"guide.{module}.")}
        reached = [m for m, s in mine.items() if s != "no tests"]
        ran = [m for m in reached if m in run and mine[m] in (*done, "survived", "suspicious")]
        killed = sum(mine[m] in done for m in ran)
        share = killed / len(ran) if ran else 0.0
        estimated += share * len(reached)
        if 1 < len(ran) < len(reached):  # a draw: its sampling variance, with the finite-population correction
            variance += len(reached) ** 2 * share * (1 - share) / (len(ran) - 1) * (1 - len(ran) / len(reached))
        if mine:
            lines.append(f"{module}: {killed}/{len(ran)} run killed; {len(reached)} of {len(mine)} mutants reached; "
                         f"score {share * len(reached) / len(mine):.1%}")
    survivors = []
    for name in sorted(run):
        if status.get(name) in ("survived", "suspicious"):
            diff = subprocess.run([mutmut, "show", name], cwd=STAGE, capture_output=True, text=True).stdout
            changed = [line for line in diff.splitlines() if line[:1] in "+-" and not line.startswith(("+++", "---"))]
            survivors.append(f"{name} ({status[name]}): " + " | ".join(changed))
    untested = sorted(m for m, s in status.items() if s == "no tests")
    if untested:
        survivors.append(f"({len(untested)} mutants in functions no fast test reaches, each a survivor: "
                         f"{', '.join(sorted({u.split('__mutmut')[0] for u in untested}))})")
    ran_all = sum(status.get(m) in (*done, "survived", "suspicious") for m in run)
    margin = 1.96 * math.sqrt(variance) / len(status) if status else 0.0
    return estimated, margin, len(status), ran_all, len(untested), lines + survivors


def run_js() -> tuple[int, int, int, list[str]]:
    report = ROOT / "reports" / "mutation" / "mutation.json"
    if report.exists():
        report.unlink()
    done = subprocess.run(["npx", "--no-install", "stryker", "run", "tests/js/stryker.config.mjs"], cwd=ROOT, check=False)
    if not report.exists():
        sys.exit(f"StrykerJS wrote no report (exit status {done.returncode}); its output above says why")
    data = json.loads(report.read_text(encoding="utf-8"))
    killed = tried = 0
    survivors = []
    for path, entry in data["files"].items():
        lines = entry["source"].split("\n")
        for mutant in entry["mutants"]:
            if mutant["status"] in ("NoCoverage", "CompileError", "RuntimeError", "Ignored"):
                continue
            tried += 1
            if mutant["status"] in ("Killed", "Timeout"):
                killed += 1
            else:
                line = mutant["location"]["start"]["line"]
                survivors.append(f"{Path(path).name}:{line} {mutant['mutatorName']}: {lines[line - 1].strip()[:90]} -> "
                                 f"{mutant.get('replacement', '')[:60]}")
    uncovered = [m for e in data["files"].values() for m in e["mutants"] if m["status"] == "NoCoverage"]
    if uncovered:
        survivors.append(f"({len(uncovered)} mutants no unit test reaches, each a survivor)")
    return killed, tried, len(uncovered), survivors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", action="store_true")
    parser.add_argument("--js", action="store_true")
    parser.add_argument("--modules", default=",".join(MODULES))
    parser.add_argument("--sample", type=int, default=SAMPLE,
                        help=f"mutants run per engine module, drawn at random (default {SAMPLE}); 0 runs them all")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    sides = [s for s in ("python", "js") if getattr(args, s)] or ["python", "js"]
    scores = {}
    for side in sides:
        if side == "python":
            killed, margin, total, ran, unreached, survivors = run_python(args.modules.split(","), args.sample, args.seed)
            how = f"{ran} run ({args.sample} drawn per module), " if args.sample else ""
            score = killed / total if total else 0.0
            within = f" ± {margin:.1%} (95 %)" if margin else ""
            print(f"\npython: {score:.1%}{within} of {total} mutants killed (estimated from {how}{unreached} no test reaches, "
                  "each counted as a survivor); per module, then the survivors run:")
        else:
            killed, tried, unreached, survivors = run_js()
            # The score counts every mutant: one that no test reaches is a bug no test would catch.
            score = killed / (tried + unreached) if tried + unreached else 0.0
            print(f"\njs: {killed} of {tried + unreached} mutants killed ({score:.1%}); of the {tried} that a test "
                  f"reaches, {killed / tried if tried else 0:.1%}; surviving:")
        scores[side] = score
        for line in survivors:
            print("  " + line)
    print("\n" + "; ".join(f"{side} {score:.1%}" for side, score in scores.items()) + " (target: 80 % each)")
    return 0 if all(s >= 0.8 for s in scores.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
