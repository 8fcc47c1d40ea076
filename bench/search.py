"""Search benchmark, in headless Chromium, on sites built by bench/run.py.

For the guide's search (Pagefind + our tokenizer) on the real guide and on the synthetic guides:
- bytes a reader downloads from opening the search box to the first result (raw, and gzipped as a
  static host that compresses would send it);
- time from the input event to rendered results, once the index is loaded (median and p95);
- on the real guide, recall@5 and MRR on tests/search_queries.yml.
The same recall, bytes and latency for Material's built-in search (lang: zh, jieba) as shipped,
built from the same content, as the alternative it replaces.

Run after bench/run.py (it reuses .bench/<corpus>/site); `make bench` runs both.
"""
from __future__ import annotations

import functools
import gzip
import http.server
import os
import re
import shutil
import statistics
import subprocess
import sys
import threading
from pathlib import Path

import yaml
from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
WORK = ROOT / ".bench"
QUERIES = yaml.safe_load((ROOT / "tests" / "search_queries.yml").read_text(encoding="utf-8"))
SYNTHETIC_QUERIES = ["策略梯度", "坍塌", "张量 并行", "PPO", "kv cache", "奖励", "熵", "信用分配", "GRPO 的 KL", "流水线"]
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def serve(site: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def gzipped(body: bytes, url: str) -> int:
    # Pagefind's index files are gzip already; everything else a compressing host would gzip.
    return len(body) if re.search(r"\.pf_\w+$|\.pagefind$", url) else len(gzip.compress(body, 6))


class Guide:
    """The guide's own search box."""

    input = ".guide-search input[name=q]"

    @staticmethod
    def run(page, query: str) -> list[str]:
        box = page.locator(Guide.input)
        box.click()
        box.fill("")
        # Forget the last query's mark, so typing the same words again waits for their new results.
        page.evaluate("() => { const list = document.querySelector('.md-search-result__list'); if (list) delete list.dataset.query; }")
        page.keyboard.insert_text(query)
        page.wait_for_function("(q) => document.querySelector('.md-search-result__list').dataset.query === q",
                               arg=query, timeout=15000)
        return page.eval_on_selector_all(".md-search-result__link", "ls => ls.map(a => new URL(a.href).pathname)")

    @staticmethod
    def latency(page) -> float:
        value = page.get_attribute(".md-search-result__list", "data-ms")
        return float(value) if value else float("nan")


class Material:
    """Material's built-in search box (its plugin, lang: zh)."""

    input = ".md-search__input"

    @staticmethod
    def run(page, query: str) -> list[str]:
        page.evaluate("() => { window.__t0 = 0; }")
        box = page.locator(Material.input)
        box.click()
        box.fill("")
        page.evaluate("""() => { const list = document.querySelector('.md-search-result__list');
            window.__t0 = performance.now(); window.__t1 = 0;
            new MutationObserver((m, o) => { window.__t1 = performance.now(); }).observe(list, {childList: true}); }""")
        box.press_sequentially(query)
        page.wait_for_timeout(600)
        links = page.eval_on_selector_all(".md-search-result__item > .md-search-result__link",
                                          "ls => ls.map(a => new URL(a.href).pathname)")
        return links

    @staticmethod
    def latency(page) -> float:
        return page.evaluate("() => window.__t1 ? window.__t1 - window.__t0 : NaN")


SEARCH_FILES = re.compile(r"/pagefind/|/search/search_index\.json|/workers/search|/assets/js/search\.js|lunr")


def first_query_bytes(browser, base: str, kind, query: str) -> tuple[int, int]:
    """Bytes of search code and index fetched from opening a page until its first result shows.

    Counted from the page load, because Material's search downloads its whole index as soon as a
    page opens; the guide's search downloads nothing until the reader opens the search box."""
    context = browser.new_context()
    page = context.new_page()
    bodies: list[tuple[str, bytes]] = []
    page.on("response", lambda r: bodies.append((r.url, r.body())) if r.ok and SEARCH_FILES.search(r.url) else None)
    page.goto(base + "about/")
    page.wait_for_load_state("networkidle")
    kind.run(page, query)
    page.wait_for_timeout(300)
    context.close()
    return sum(len(b) for _, b in bodies), sum(gzipped(b, u) for u, b in bodies)


def measure(site: Path, kind, queries: list[dict]) -> dict:
    server, base = serve(site)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            sizes = [first_query_bytes(browser, base, kind, q["q"]) for q in queries[:3]]
            page = browser.new_page()
            page.goto(base + "about/")
            kind.run(page, queries[0]["q"])  # load the index
            latencies, hits, reciprocal, misses = [], 0, 0.0, []
            for item in queries:
                found = [u.rstrip("/") + "/" for u in kind.run(page, item["q"])][:5]
                latencies.append(kind.latency(page))
                if item.get("expect"):
                    want = "/" + item["expect"]
                    if want in found:
                        hits += 1
                        reciprocal += 1 / (found.index(want) + 1)
                    else:
                        misses.append(f"    miss: {item['q']!r} expected {want}, got {found}")
            browser.close()
    finally:
        server.shutdown()
    latencies = sorted(x for x in latencies if x == x)
    return {
        "raw_kb": max(s[0] for s in sizes) / 1024,
        "gzip_kb": max(s[1] for s in sizes) / 1024,
        "median_ms": statistics.median(latencies),
        "p95_ms": latencies[int(0.95 * (len(latencies) - 1))],
        "under_100": sum(1 for x in latencies if x < 100) / len(latencies),
        "recall": hits / len(queries) if queries and queries[0].get("expect") else None,
        "mrr": reciprocal / len(queries) if queries and queries[0].get("expect") else None,
        "misses": misses,
    }


def material_variant(project: Path) -> Path:
    """The same guide built with Material's own search plugin and none of ours."""
    variant = WORK / "real-material-search"
    if variant.exists():
        shutil.rmtree(variant)
    variant.mkdir(parents=True)
    # The compiled tree bench/run.py left (build/docs), built with Material's search instead of ours.
    (variant / "build").mkdir()
    (variant / "build" / "docs").symlink_to((project / "build" / "docs").resolve())
    # Material's search runs in its bundle.js, which the guide's own template leaves out, so the
    # variant keeps Material's scripts block and drops only the guide's search script.
    (variant / "overrides").mkdir()
    (variant / "overrides" / "main.html").write_text(
        '{% extends "base.html" %}\n{% block extrahead %}<script>document.documentElement.className = "js";</script>{% endblock %}\n',
        encoding="utf-8")
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    config = re.sub(r"^plugins: \[\].*$", "plugins:\n  - search:\n      lang: zh", config, count=1, flags=re.M)
    config, dropped = re.subn(r"^  - path: assets/js/search\.js\n    defer: true\n", "", config, flags=re.M)
    assert dropped == 1, "bench: the guide's search script entry in mkdocs.yml has changed form"
    config, moved = re.subn(r"^site_dir: build/site$", "site_dir: site", config, flags=re.M)
    assert moved == 1, "bench: site_dir in mkdocs.yml has changed form"
    (variant / "mkdocs.yml").write_text(config, encoding="utf-8")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(variant / "mkdocs.yml")],
                   cwd=variant, check=True, env=env)
    return variant / "site"


def row(name: str, m: dict) -> str:
    recall = f"{100 * m['recall']:.1f}%" if m["recall"] is not None else "—"
    mrr = f"{m['mrr']:.3f}" if m["mrr"] is not None else "—"
    return (f"{name:<34}{recall:>9}{mrr:>7}{m['raw_kb']:>12.0f}{m['gzip_kb']:>11.0f}"
            f"{m['median_ms']:>11.0f}{m['p95_ms']:>9.0f}{100 * m['under_100']:>9.0f}%" + "".join("\n" + x for x in m["misses"]))


def main() -> None:
    sizes = [int(s) for s in os.environ.get("BENCH_SIZES", "200 1000 2000").split()]
    print(f"\n{'search':<34}{'recall@5':>9}{'MRR':>7}{'1st query KB':>13}{'gzip KB':>10}"
          f"{'median ms':>11}{'p95 ms':>9}{'<100 ms':>10}")
    real = WORK / "real" / "site"
    if real.exists():
        print(row(f"guide search, real ({len(QUERIES)} queries)", measure(real, Guide, QUERIES)), flush=True)
    for n in sizes:
        site = WORK / f"synthetic-{n}" / "site"
        if site.exists():
            # The real query set, without expected pages: the synthetic guide shares the real
            # guide's vocabulary, so these are the words readers type, at 2,000-concept scale.
            queries = [{"q": q} for q in SYNTHETIC_QUERIES] + [{"q": item["q"]} for item in QUERIES]
            print(row(f"guide search, synthetic-{n}", measure(site, Guide, queries)), flush=True)
    if real.exists() and os.environ.get("BENCH_ALTERNATIVES", "1") == "1":
        material = material_variant(WORK / "real")
        print(row("Material search (zh, jieba), real", measure(material, Material, QUERIES)), flush=True)


if __name__ == "__main__":
    main()
