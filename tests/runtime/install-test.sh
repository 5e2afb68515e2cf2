#!/usr/bin/env bash
# The runtime as installed: `cmake --install` of BUILD into a fresh prefix,
# then tests/runtime/consumer (a C program, find_package(arvr), a kernel
# compiled at its build by arvr_add_kernel) configured, built and run there
# on that plan and on one the installed arvrc builds.
# Checks the header, the library and the CMake package a user gets.
#
#   tests/runtime/install-test.sh SOURCE_DIR BUILD_DIR WORK_DIR
set -euo pipefail
src=${1:?usage: install-test.sh SOURCE_DIR BUILD_DIR WORK_DIR}
build=${2:?build dir}
work=${3:?work dir}
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"
test -f "$work/prefix/include/arvr/runtime.h"
test -f "$work/prefix/include/arvr/runtime.hpp"
test -f "$work/prefix/lib/cmake/arvr/arvrConfig.cmake"
cmake -S "$src/tests/runtime/consumer" -B "$work/consumer" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DARVR_EXAMPLES="$src/examples" >"$work/configure.log"
cmake --build "$work/consumer" >"$work/build.log"
"$work/prefix/bin/arvrc" build "$src/examples/gaussian_blur.arvr" -o "$work/blur.ptx"
"$work/consumer/consumer" "$work/blur.plan.json" 641 479 3 | tee "$work/out.txt"
grep -qx "kernel gaussian_blur" "$work/out.txt"
grep -qx "arg 0 src input image u8" "$work/out.txt"
grep -qx "arg 2 radius input scalar i32" "$work/out.txt"
grep -qx "output out0 641x479x3" "$work/out.txt"
# The kernel arvr_add_kernel compiled when the consumer was built.
test -f "$work/consumer/blur_kernel/blur.ptx"
"$work/consumer/consumer" - 64 48 3 | tee "$work/out-built.txt"
grep -qx "output out0 64x48x3" "$work/out-built.txt"
# A plan that is not one: an error, exit 1.
echo '{"format": "x"}' >"$work/bad.plan.json"
if "$work/consumer/consumer" "$work/bad.plan.json" 1 1 1 2>"$work/err.txt"; then
  echo "a bad plan was accepted"; exit 1
fi
grep -q "not an arvrc launch plan" "$work/err.txt"
echo "runtime installed and used: ok"
