#!/usr/bin/env bash
# The part of the sanitizer suite CI runs (the whole suite, a full
# AddressSanitizer + UndefinedBehaviorSanitizer build of arvrc, takes longer
# than a CI run should: scripts/sanitizer-tests.sh, results in
# docs/sanitizers.md). Builds the doctest unit tests (lexer, parser, Sema:
# every construct and every diagnostic they test; the block proofs'
# interval arithmetic, header-only, against brute force) with the frontend's
# sources under ASan + UBSan (Debian's clang), against the normal build's
# dialect library and the uninstrumented MLIR/LLVM, and runs them with leak
# detection; then the runtime library's tests the same way. With fuzz-smoke, which runs every .arvr file of the repository
# and every test image (the bad-input corpus too) through instrumented
# frontend, MLIRGen, lowering to loops and image reading, this is CI's
# sanitizer coverage.
#
#   scripts/sanitizer-unit-tests.sh   (after scripts/build.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if ! command -v clang++ >/dev/null; then
  echo "SKIPPED: no clang++ (scripts/setup.sh installs clang)"
  exit 77
fi
if [ ! -f build/dialect/libArvrDialect.a ]; then
  echo "error: build the project first (scripts/build.sh)" >&2
  exit 1
fi
llvm=/usr/lib/llvm-22
out=build-asan-unit
mkdir -p "$out"
sources=(tests/unit/*.cpp frontend/lib/*.cpp)
newest=$(ls -t "${sources[@]}" frontend/include/arvr/Frontend/*.h tests/unit/*.h \
         lowering/lib/Utils/*.h build/dialect/libArvrDialect.a | head -1)
if [ ! -x "$out/arvr-unit-tests" ] || [ "$newest" -nt "$out/arvr-unit-tests" ]; then
  echo "building $out/arvr-unit-tests (ASan + UBSan)"
  clang++ -g -O1 -std=c++17 -fsanitize=address,undefined -fno-sanitize-recover=undefined \
    -fno-omit-frame-pointer -Ifrontend/include -Idialect/include -Ibuild/dialect/include \
    -Ilowering/include -Ibuild/lowering/include \
    -isystem "$llvm/include" "${sources[@]}" -o "$out/arvr-unit-tests" \
    build/dialect/libArvrDialect.a -L"$llvm/lib" -lMLIR -lLLVM -Wl,-rpath,"$llvm/lib"
fi
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  "$out/arvr-unit-tests"

# The runtime library's tests (tests/golden/RuntimeTest.cpp and
# PlanTest.cpp: plans read and evaluated, every misuse of the C API) with the runtime's sources under
# ASan + UBSan, against the normal build's arvrc for the plans.
runtime_sources=(tests/golden/RuntimeTest.cpp tests/golden/PlanTest.cpp runtime/lib/Plan.cpp
                 runtime/lib/Runtime.cpp runtime/lib/CudaDriver.cpp)
newest=$(ls -t "${runtime_sources[@]}" runtime/lib/*.h runtime/include/arvr/* | head -1)
if [ ! -x "$out/arvr-runtime-tests" ] || [ "$newest" -nt "$out/arvr-runtime-tests" ]; then
  echo "building $out/arvr-runtime-tests (ASan + UBSan)"
  printf '#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN\n#include <doctest/doctest.h>\n' \
    >"$out/runtime-tests-main.cpp"
  clang++ -g -O1 -std=c++17 -fsanitize=address,undefined -fno-sanitize-recover=undefined \
    -fno-omit-frame-pointer \
    -DARVRC_BINARY="\"$root/build/bin/arvrc\"" -DARVRC_SOURCE_DIR="\"$root\"" \
    -Iruntime/lib -Iruntime/include -isystem "$llvm/include" "${runtime_sources[@]}" \
    "$out/runtime-tests-main.cpp" \
    -o "$out/arvr-runtime-tests" -L"$llvm/lib" -lLLVM -ldl -Wl,-rpath,"$llvm/lib"
fi
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  "$out/arvr-runtime-tests" -tc="runtime*,plan*"
