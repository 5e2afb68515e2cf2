#!/usr/bin/env bash
# Installs what is missing, builds arvrc and its tests, and runs the whole
# test suite (unit, lit/FileCheck, golden images; the GPU test runs where
# there is a GPU and is reported as skipped elsewhere).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/setup.sh
scripts/build.sh
ctest --test-dir build --output-on-failure
