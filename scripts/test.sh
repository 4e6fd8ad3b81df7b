#!/usr/bin/env bash
# Set up a fresh machine and run the whole test suite: Debian's SAT/LP solvers and cairo, the package, pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
# libcairo2 and fonts-dejavu-core: cairosvg renders the SVG pictures (tests/test_drawing.py)
debs=(minisat cadical glpk-utils libcairo2 fonts-dejavu-core)
missing=()
for p in "${debs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
python3 -m pip install -q -e '.[test,all]'
python3 -m pytest -q "$@"
