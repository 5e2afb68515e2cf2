#!/usr/bin/env bash
# Configures (once) and builds arvrc into build/ with Ninja.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if [ ! -f build/build.ninja ]; then
  cmake -G Ninja -S . -B build -DCMAKE_BUILD_TYPE=Release
fi
ninja -C build -j"${ARVRC_JOBS:-2}"
