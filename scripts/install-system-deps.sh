#!/usr/bin/env bash
# Install the Debian packages the build and the tests need, only where missing:
# chromium (prints the cheat sheets; Playwright drives it at /usr/bin/chromium), the two font
# packages the print fonts are cut from (hooks/guide/printfonts.py names the exact files), and
# poppler-utils (the print tests read the PDFs).
# With the argument `audit`, also a Java runtime for the Nu HTML Checker (make audit).
set -euo pipefail

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
# The exact files the print fonts are subset from, not "some CJK font": a different font would
# print different pages.
[ -f /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ] && [ -f /usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc ] \
  || need+=(fonts-noto-cjk)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] && [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf ] \
  || need+=(fonts-dejavu-core)
command -v pdftotext >/dev/null 2>&1 || need+=(poppler-utils)
if [ "${1:-}" = "audit" ]; then
  command -v java >/dev/null 2>&1 || need+=(default-jre-headless)
fi

if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
echo "installing Debian packages: ${need[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
