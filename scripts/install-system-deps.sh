#!/usr/bin/env bash
# Install the Debian packages the browser and PDF tests need, only where missing:
# chromium (driven by Playwright at /usr/bin/chromium), Noto CJK fonts, poppler-utils.
# With the argument `audit`, also a Java runtime for the Nu HTML Checker (make audit).
set -euo pipefail

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v fc-list >/dev/null 2>&1 || need+=(fontconfig)
# grep without -q: an early exit would SIGPIPE fc-list and fail the pipeline under pipefail.
{ command -v fc-list >/dev/null 2>&1 && fc-list : family | grep -i "Noto Sans CJK" >/dev/null; } || need+=(fonts-noto-cjk)
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
