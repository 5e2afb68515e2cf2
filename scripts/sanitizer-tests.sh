#!/usr/bin/env bash
# Builds arvrc and its tests with AddressSanitizer and UndefinedBehavior-
# Sanitizer (build-asan/) and runs the unit, golden and lit tests there.
# MLIR and LLVM themselves are the uninstrumented Debian libraries.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/setup.sh
if [ ! -f build-asan/build.ninja ]; then
  cmake -G Ninja -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined"
fi
ninja -C build-asan -j"${ARVRC_JOBS:-2}"
export ASAN_OPTIONS=detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
build-asan/bin/arvr-unit-tests
build-asan/bin/arvr-golden-tests
"${ARVRC_LLVM_ROOT:-/usr/lib/llvm-22}/bin/lit" -s build-asan/tests/lit
