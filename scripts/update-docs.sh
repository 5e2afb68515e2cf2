#!/usr/bin/env bash
# Regenerates docs/generated/ (the arvr dialect's and passes' references,
# from their TableGen files, through add_mlir_doc).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/build.sh
ninja -C build mlir-doc
cp build/docs/Dialects/ArvrDialect.md docs/generated/ArvrDialect.md
cp build/docs/ArvrPasses.md docs/generated/ArvrPasses.md
echo "docs/generated/ is up to date"
