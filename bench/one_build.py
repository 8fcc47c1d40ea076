"""Run one MkDocs build in this process and print its wall time and peak memory as JSON.

Used by bench/run.py so each measurement has a process (and a peak RSS) of its own.
"""
from __future__ import annotations

import json
import logging
import resource
import sys
import time

from mkdocs.commands.build import build
from mkdocs.config import load_config


def main(config_file: str, site_dir: str) -> None:
    logging.getLogger("mkdocs").setLevel(logging.ERROR)
    start = time.perf_counter()
    config = load_config(config_file=config_file, site_dir=site_dir, strict=False)
    build(config)
    seconds = time.perf_counter() - start
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"seconds": seconds, "peak_mib": peak_kib / 1024}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
