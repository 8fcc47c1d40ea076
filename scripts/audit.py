"""`make audit`: Lighthouse (mobile) on four pages and the Nu HTML Checker over the whole site.

The site is served from a local HTTP server that gzips text like any static host does. Lighthouse
runs Debian's Chromium (CHROME_PATH); the Nu checker runs the jar that npm's `vnu-jar` ships.
Prints one line of scores per page, every failing Lighthouse audit, and the validator's counts
(errors in pages of ours, by message). Exits non-zero when a target is missed.
"""
from __future__ import annotations

import argparse
import collections
import functools
import gzip
import http.server
import io
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools" / "audit" / "node_modules"
PAGES = {
    "home": "",
    "concept": "concepts/ppo-clip/",
    "report": "reports/baidu-grpo/",
    "practice": "practice/",
    "mock": "mock/",
}
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
TARGETS = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100}
COMPRESSIBLE = (".html", ".css", ".js", ".json", ".svg", ".xml", ".txt", ".mjs")


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Static files, gzipped when the client accepts it (as GitHub Pages or nginx would)."""

    def log_message(self, *args):
        pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not self.path.split("?")[0].endswith("/"):
                return super().send_head()  # the base class redirects to the slash URL
            path = path / "index.html"
        if "gzip" not in self.headers.get("Accept-Encoding", "") or not path.is_file() or path.suffix not in COMPRESSIBLE:
            return super().send_head()
        body = gzip.compress(path.read_bytes(), 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


def serve(site: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def lighthouse(url: str, out: Path) -> dict:
    env = dict(os.environ, CHROME_PATH=os.environ.get("CHROME_PATH", "/usr/bin/chromium"))
    command = [
        "node", str(TOOLS / "lighthouse" / "cli" / "index.js"), url,
        "--quiet", "--output=json", f"--output-path={out}",
        f"--only-categories={','.join(CATEGORIES)}",
        "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage",
    ]
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
    return json.loads(out.read_text(encoding="utf-8"))


def failing_audits(report: dict) -> list[str]:
    lines = []
    for category in CATEGORIES:
        for ref in report["categories"][category]["auditRefs"]:
            audit = report["audits"][ref["id"]]
            if ref.get("weight", 0) and audit.get("score") is not None and audit["score"] < 1 \
                    and audit.get("scoreDisplayMode") in ("binary", "numeric", "metricSavings"):
                value = audit.get("displayValue", "")
                lines.append(f"    {category}: {ref['id']} score {audit['score']:.2f} {value}".rstrip())
    return lines


def run_lighthouse(base: str, runs: int, pages: dict[str, str]) -> bool:
    ok = True
    print(f"Lighthouse {json.loads((TOOLS / 'lighthouse' / 'package.json').read_text())['version']}, "
          f"mobile preset, median of {runs} run(s) per page")
    print(f"  {'page':<9} {'perf':>5} {'a11y':>5} {'best':>5} {'seo':>5}   url")
    with tempfile.TemporaryDirectory() as tmp:
        for name, path in pages.items():
            reports = [lighthouse(base + path, Path(tmp) / f"{name}-{i}.json") for i in range(runs)]
            scores = {c: sorted(round(r["categories"][c]["score"] * 100) for r in reports)[runs // 2]
                      for c in CATEGORIES}
            runs_perf = " ".join(str(round(r["categories"]["performance"]["score"] * 100)) for r in reports)
            print(f"  {name:<9} {scores['performance']:>5} {scores['accessibility']:>5} "
                  f"{scores['best-practices']:>5} {scores['seo']:>5}   /{path}   (performance by run: {runs_perf})")
            median = min(reports, key=lambda r: abs(r["categories"]["performance"]["score"] * 100 - scores["performance"]))
            for line in failing_audits(median):
                print(line)
            ok &= all(scores[c] >= TARGETS[c] for c in CATEGORIES)
    return ok


def run_vnu(site: Path) -> bool:
    jar = TOOLS / "vnu-jar" / "build" / "dist" / "vnu.jar"
    version = json.loads((TOOLS / "vnu-jar" / "package.json").read_text())["version"]
    pages = sorted(str(p) for p in site.rglob("*.html"))
    result = subprocess.run(["java", "-jar", str(jar), "--format", "json", "--errors-only", *pages],
                            capture_output=True, text=True)
    messages = json.loads(result.stderr or '{"messages": []}')["messages"]
    errors = [m for m in messages if m.get("type") == "error"]
    by_message = collections.Counter(m["message"] for m in errors)
    files = {m["url"] for m in errors}
    print(f"Nu HTML Checker {version}: {len(pages)} HTML files, {len(errors)} errors in {len(files)} files")
    for message, count in by_message.most_common():
        example = next(m for m in errors if m["message"] == message)
        where = example["url"].split(str(site), 1)[-1]
        print(f"  {count:>5} × {message}  (e.g. {where}:{example.get('lastLine', '?')})")
    return not errors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, nargs="?", default=ROOT / "site")
    parser.add_argument("--runs", type=int, default=int(os.environ.get("AUDIT_RUNS", "3")))
    parser.add_argument("--skip-lighthouse", action="store_true")
    parser.add_argument("--skip-vnu", action="store_true")
    parser.add_argument("--page", action="append", default=[], metavar="NAME=PATH",
                        help="audit this page instead of the four defaults (repeatable), "
                             "e.g. cheatsheet=cheatsheets/llm-architecture/")
    args = parser.parse_args()
    pages = dict(PAGES)
    if args.page:
        try:
            pages = dict(item.split("=", 1) for item in args.page)
        except ValueError:
            parser.error("--page takes NAME=PATH, e.g. cheatsheet=cheatsheets/llm-architecture/")
        pages = {name: path.lstrip("/") for name, path in pages.items()}
    site = args.site.resolve()
    if not (site / "index.html").is_file():
        print(f"audit: {site}/index.html not found; build the site first (make site)", file=sys.stderr)
        return 2
    ok = True
    if not args.skip_lighthouse:
        server, base = serve(site)
        try:
            ok &= run_lighthouse(base, args.runs, pages)
        finally:
            server.shutdown()
    if not args.skip_vnu:
        ok &= run_vnu(site)
    print("audit: all targets met" if ok else "audit: some targets missed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
