"""Build a guide's whole site in three steps, each a command of its own (what `make site` runs):

1. compile: `python -m guide compile` writes the complete docs tree, build/docs/;
2. build:   the site builder turns that tree into HTML in build/site/ (MkDocs + Material; no hooks);
3. finish:  `python -m guide finish` completes that HTML (search index, formulas, code buttons,
            PDFs, deck, offline copy) and only then replaces the site folder with it.

A step that fails stops the build; the last good site stays where it was. With GUIDE_TIMINGS set
to a file, each step's wall time (and the engine's own stage timings) are written there as JSON,
with the builder's peak memory (`make bench` reads them).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BUILDERS = {
    "mkdocs": lambda config, out: [sys.executable, "-m", "mkdocs", "build", "--strict", "--clean", "-f", str(config), "-d", str(out)],
    # Zensical reads the same mkdocs.yml and writes to its site_dir (build/site: it takes no -d).
    "zensical": lambda config, out: [sys.executable, "-m", "zensical", "build", "--strict", "-f", str(config)],
}
"""How each site builder is run on the compiled tree: (config file, output folder) -> command.
The default is MkDocs 1.6.1 + Material 9.8.2; Zensical 0.0.73 builds the same tree (README)."""


def default_site_url(root: Path) -> str:
    """SITE_URL, else the default mkdocs.yml names (`site_url: !ENV [SITE_URL, "…"]`)."""
    if os.environ.get("SITE_URL"):
        return os.environ["SITE_URL"]
    match = re.search(r'^site_url: !ENV \[SITE_URL, "([^"]+)"\]', (root / "mkdocs.yml").read_text(encoding="utf-8"), re.M)
    if match is None:
        raise SystemExit(f"{root / 'mkdocs.yml'}: site_url must read !ENV [SITE_URL, \"https://…/\"], or set SITE_URL")
    return match.group(1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the guide's project folder")
    parser.add_argument("--site", type=Path, default=None, help="where the finished site goes (default <root>/site)")
    parser.add_argument("--builder", choices=sorted(BUILDERS), default=os.environ.get("GUIDE_BUILDER", "mkdocs"),
                        help="the site builder of step 2 (default: GUIDE_BUILDER, else mkdocs)")
    args = parser.parse_args(argv)
    root = args.root.absolute()
    site = (args.site or root / "site").absolute()
    staged = root / "build" / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(root / "hooks")}
    engine = [sys.executable, "-m", "guide", "--root", str(root)]
    steps = {
        "compile": [*engine, "compile"],
        "build": BUILDERS[args.builder](root / "mkdocs.yml", staged),
        "finish": [*engine, "finish", str(staged), "--to", str(site), "--site-url", default_site_url(root)],
    }
    timing_file = os.environ.get("GUIDE_TIMINGS")
    seconds: dict[str, float] = {}
    shutil.rmtree(staged, ignore_errors=True)  # a builder that does not clean must not inherit another's pages
    for name, command in steps.items():
        start = time.perf_counter()
        if subprocess.run(command, cwd=root, env=env).returncode != 0:
            return 1
        seconds[name] = time.perf_counter() - start
    if timing_file:
        path = Path(timing_file)
        engine_timings = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
        peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        path.write_text(json.dumps({**engine_timings, "steps": seconds, "peak_mib": peak_mib}), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
