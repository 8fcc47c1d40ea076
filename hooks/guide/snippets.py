"""Every Python snippet in the guide runs and checks what it claims, at every build and check.

A snippet whose `assert` fails is a content mistake like an unknown id: it is reported at the
line of the `.md` file where the failing statement is, with the assertion's message, and the
build stops. The program each snippet runs is padded with blank lines so that its statements
sit at their own `.md` line numbers and compiled under the `.md` file's name: a traceback's
line is the file's line, with no arithmetic left to the author.

Snippets run in parallel, each in a fresh process forked from a server that has NumPy imported
(so isolation costs milliseconds, not an interpreter start), in a temporary working folder, with
a time limit. Results are cached by the program's hash (and Python's and NumPy's versions) in
`.cache/snippets.json`: an unchanged snippet is not run again.

A snippet may also be expected to fail: a coding task's planted bug must be caught by its checks.
"""
from __future__ import annotations

import ast
import functools
import hashlib
import json
import multiprocessing
import os
import re
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from .errors import Problem

TIMEOUT = 60.0
"""Seconds a snippet may run; a snippet is an example, not a benchmark."""

FENCE = re.compile(r"^```python[^\n]*\n(.*?)^```[ \t]*$", re.S | re.M)
"""A top-level ```python block (indented blocks belong to lists and are shown, not run)."""


@dataclass(frozen=True)
class Snippet:
    """One program to run: segments of code placed at their `.md` lines."""

    path: str
    """The `.md` file as the author sees it; tracebacks name it."""
    segments: tuple[tuple[int, str], ...]
    """(line of the segment's first code line, code), in file order: a coding task's solution,
    then its checks, run as one program."""
    label: str = "snippet"
    """What the problem line calls it: 'snippet', 'planted bug 2' …"""
    expect_failure: bool = False
    """True for a planted bug: the program must fail, or its checks catch nothing."""
    at: int | None = None
    """The line a problem with the snippet as a whole is reported at (a planted bug's diff), if
    not its first line."""

    @property
    def line(self) -> int:
        return self.at or self.segments[0][0]

    def program(self) -> str:
        """The code with each segment starting at its own line (blank lines in between)."""
        lines: list[str] = []
        for first, code in self.segments:
            if len(lines) < first - 1:
                lines.extend([""] * (first - 1 - len(lines)))
            lines.extend(code.rstrip("\n").split("\n"))
        return "\n".join(lines) + "\n"


def snippets_in(body: str, path: str, body_line: int) -> list[Snippet]:
    """The top-level ```python blocks of a Markdown body, each its own program."""
    found = []
    for match in FENCE.finditer(body):
        first = body_line + body.count("\n", 0, match.start(1))
        found.append(Snippet(path, ((first, match.group(1)),)))
    return found


def without_asserts(snippet: Snippet) -> bool:
    """True when no segment has an `assert`: such a snippet shows code but proves nothing."""
    return not any(_asserts(code) for _, code in snippet.segments)


@functools.lru_cache(maxsize=4096)
def _asserts(code: str) -> bool:
    try:
        return any(isinstance(node, ast.Assert) for node in ast.walk(ast.parse(code)))
    except SyntaxError:
        return True  # running it reports the syntax error at its line


# --- running ------------------------------------------------------------------------------


_CHILD = """
import ast, linecache, os, tempfile, traceback, types
devnull = os.open(os.devnull, os.O_WRONLY)
os.dup2(devnull, 1)
os.dup2(devnull, 2)
os.chdir(tempfile.mkdtemp(prefix="snippet-"))
linecache.cache[filename] = (len(program), None, program.splitlines(True), filename)  # for the failing line's text
def values_at(tb, line):
    # The values of the plain names in the failing assert, as pytest shows them: "(where x = 3)".
    while tb is not None and not (tb.tb_frame.f_code.co_filename == filename and tb.tb_lineno == line):
        tb = tb.tb_next
    if tb is None:
        return ""
    try:
        tree = ast.parse(program)
    except SyntaxError:
        return ""
    test = next((n.test for n in ast.walk(tree) if isinstance(n, ast.Assert) and n.lineno <= line <= (n.end_lineno or n.lineno)), None)
    if test is None:
        return ""
    names = dict.fromkeys(n.id for n in ast.walk(test) if isinstance(n, ast.Name))
    scope = {**tb.tb_frame.f_globals, **tb.tb_frame.f_locals}
    shown = []
    for name in names:
        value = scope.get(name, scope)
        if value is scope or callable(value) or isinstance(value, types.ModuleType):
            continue
        text = " ".join(repr(value).split())
        shown.append(f"{name} = {text if len(text) <= 80 else text[:77] + '...'}")
    return f" (where {', '.join(shown)})" if shown else ""
try:
    exec(compile(program, filename, "exec"), {"__name__": "__main__"})
except SyntaxError as err:
    conn.send((err.lineno or 1, f"SyntaxError: {err.msg}"))
except BaseException as err:
    frames = [f for f in traceback.extract_tb(err.__traceback__) if f.filename == filename]
    line = frames[-1].lineno if frames else 1
    statement = (frames[-1].line or "").strip() if frames else ""
    detail = str(err).strip()
    if isinstance(err, AssertionError):
        conn.send((line, f"assert failed: {detail or statement}" + values_at(err.__traceback__, line)))
    else:
        conn.send((line, f"{type(err).__name__}: {detail}" if detail else type(err).__name__))
else:
    conn.send(None)
conn.close()
"""
"""What the child runs (given `program`, `filename` and `conn`): the snippet, then its verdict, None
or (line, message). It is source for `exec`, not a function of this package, because the fork
server imports nothing of ours (Python 3.11's fork server ignores the parent's sys.path)."""


_CONTEXT: list = []


def _context():
    """A fork server with NumPy imported, started once per process (and kept across rebuilds)."""
    if not _CONTEXT:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["numpy"])
        _CONTEXT.append(ctx)
    return _CONTEXT[0]


def run(snippet: Snippet, timeout: float = TIMEOUT) -> tuple[int, str] | None:
    """Run one snippet in a fresh process: None when it passes, else (line, message)."""
    ctx = _context()
    parent, child = ctx.Pipe(duplex=False)
    process = ctx.Process(target=exec, args=(_CHILD, {"program": snippet.program(), "filename": snippet.path, "conn": child}),
                          daemon=True)
    process.start()
    child.close()
    try:
        if parent.poll(timeout):
            try:
                return parent.recv()
            except EOFError:
                pass
        else:
            process.kill()
            return (snippet.line, f"did not finish within {timeout:.0f} s")
        process.join(5)
        return (snippet.line, f"the snippet's process ended without a verdict (exit code {process.exitcode})")
    finally:
        process.join(5)
        parent.close()


@functools.lru_cache(maxsize=8192)
def cache_key(snippet: Snippet) -> str:
    import numpy

    digest = hashlib.sha256()
    for part in (sys.version, numpy.__version__, snippet.path, str(snippet.expect_failure), snippet.program()):
        digest.update(part.encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()[:32]


def verdict(snippet: Snippet, outcome: tuple[int, str] | None) -> Problem | None:
    """The problem an outcome means for its snippet, if any."""
    if snippet.expect_failure:
        if outcome is None:
            return Problem(snippet.path, snippet.line, snippet.label,
                           "the checks pass with this bug planted: add a check that catches it")
        return None
    if outcome is None:
        return None
    line, message = outcome
    return Problem(snippet.path, line, snippet.label, message)


class SnippetCheck:
    """Started with the build; `problems()` waits for every snippet's verdict.

    With a `cache` file, snippets whose program has not changed since an earlier run are not run
    again; the rest run `workers` at a time (default: one per core) in threads that each wait on
    one child process, while the build links and renders.
    """

    def __init__(self, snippets: list[Snippet], cache: Path | None = None, workers: int | None = None):
        self.snippets = snippets
        self.cache = cache
        self.known: dict[str, list | None] = _load(cache) if cache else {}
        self.keys = [cache_key(s) for s in snippets] if snippets else []
        self.outcomes: dict[str, tuple[int, str] | None] = {}
        todo = [(k, s) for k, s in zip(self.keys, snippets) if k not in self.known]
        self.ran = len(todo)
        self._threads: list[threading.Thread] = []
        if todo:
            queue = list(reversed(todo))
            lock = threading.Lock()

            def work() -> None:
                while True:
                    with lock:
                        if not queue:
                            return
                        key, snippet = queue.pop()
                    self.outcomes[key] = run(snippet)

            for _ in range(max(1, min(workers or os.cpu_count() or 1, len(todo)))):
                thread = threading.Thread(target=work, daemon=True)
                thread.start()
                self._threads.append(thread)

    def problems(self) -> list[Problem]:
        for thread in self._threads:
            thread.join()
        found = []
        for key, snippet in zip(self.keys, self.snippets):
            outcome = self.outcomes[key] if key in self.outcomes else _outcome(self.known[key])
            problem = verdict(snippet, outcome)
            if problem is not None:
                found.append(problem)
        if self.cache is not None and self.outcomes:
            merged = {k: (self.outcomes[k] if k in self.outcomes else _outcome(self.known.get(k))) for k in set(self.keys)}
            _save(self.cache, {k: (list(v) if v else None) for k, v in merged.items()})
        return found


def _outcome(stored: list | None) -> tuple[int, str] | None:
    return (int(stored[0]), str(stored[1])) if stored else None


def _load(path: Path) -> dict[str, list | None]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _save(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, sort_keys=True), encoding="utf-8")
    tmp.replace(path)
