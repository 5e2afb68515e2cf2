#!/usr/bin/env bash
# Installs what is missing, builds arvrc and its tests, and runs the whole
# test suite (unit, lit/FileCheck, golden images; the GPU test runs where
# there is a GPU and is reported as skipped elsewhere).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/setup.sh
scripts/build.sh
status=0
ctest --test-dir build --output-on-failure || status=$?
# ctest does not show why a test was skipped: say it here.
grep -h "^SKIPPED:" build/Testing/Temporary/LastTest.log 2>/dev/null | sed 's/^/note: gpu-parity /' || true
# A report, not a test: arvrc's CPU target against OpenCV on this machine
# (bench/cpu/bench.py; Debian's python3, which has python3-opencv).
echo "== CPU bench (a report; times are not asserted)"
/usr/bin/python3 bench/cpu/bench.py build/bin/arvrc . build/cpu-bench || status=1
exit "$status"
