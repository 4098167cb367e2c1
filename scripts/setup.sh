#!/usr/bin/env bash
# Create .venv and install pageindex-platform with its test tools. Safe to run again.
# torch is pinned first: 2.13.0 is the CPU build; an open range would pull a multi-GB CUDA build.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip
.venv/bin/python -m pip install -q --disable-pip-version-check torch==2.13.0
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[dev]'
# The web page's tests run in a real headless browser: Debian's chromium and its driver.
if ! command -v chromedriver >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then apt_get="apt-get"; else apt_get="sudo apt-get"; fi
  export DEBIAN_FRONTEND=noninteractive
  $apt_get install -y -q chromium chromium-driver >/dev/null \
    || { $apt_get update -q >/dev/null && $apt_get install -y -q chromium chromium-driver >/dev/null; } \
    || { echo "setup: chromium and chromium-driver could not be installed (the web tests need them)" >&2; exit 1; }
fi
