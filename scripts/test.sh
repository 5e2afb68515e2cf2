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
exit "$status"
