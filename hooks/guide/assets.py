"""What the site serves besides its pages: KaTeX's files and the vendored study libraries, from
node_modules (package.json pins them)."""
from __future__ import annotations

from pathlib import Path


class AssetError(RuntimeError):
    """A library the site serves is not installed; the message says how to install it."""


KATEX_FILES = ("katex.min.js", "katex.min.css")
"""KaTeX is served from the site itself (no CDN); fonts are added as woff2 only."""

VENDOR_FILES = {
    "assets/vendor/ts-fsrs.umd.js": "ts-fsrs/dist/index.umd.js",
    "assets/vendor/workbox-window.umd.js": "workbox-window/build/workbox-window.prod.umd.js",
}
"""Libraries the study pages load from the site (FSRS scheduling; the offline copy's service worker
registration), by the site path each is served at and its file in node_modules (package.json pins them)."""



def vendor_assets(root: Path) -> dict[str, Path]:
    """KaTeX's files and the study libraries, by the site path each is served at."""
    dist = katex_dir(root)
    found = {f"assets/katex/{asset.relative_to(dist).as_posix()}": asset for asset in katex_assets(root)}
    for src, path in VENDOR_FILES.items():
        library = root / "node_modules" / path
        if not library.is_file():
            raise AssetError(f"{path.split('/')[0]} is not installed ({library} is missing): run 'make site', which runs 'npm ci'")
        found[src] = library
    return found


def katex_dir(root: Path) -> Path:
    return root / "node_modules" / "katex" / "dist"


def katex_assets(root: Path) -> list[Path]:
    dist = katex_dir(root)
    if not (dist / "katex.min.js").is_file():
        raise AssetError(f"KaTeX is not installed ({dist} is missing): run 'make site', which runs 'npm ci'")
    return [dist / name for name in KATEX_FILES] + sorted((dist / "fonts").glob("*.woff2"))
