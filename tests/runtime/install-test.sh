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

# examples/embed, built as a user's project: the Gaussian compiled into it
# for the CPU (arvr_add_kernel ... CPU), run on two frames in one call;
# each must be `arvrc run --target cpu`'s output, bit for bit.
cmake -S "$src/examples/embed" -B "$work/embed" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix" >"$work/embed-configure.log"
cmake --build "$work/embed" >"$work/embed-build.log"
test -f "$work/embed/blur_cpu/gaussian_blur.h"
arvrc="$work/prefix/bin/arvrc"
printf 'kernel copy(src: image<u8>) -> image<u8> {\n  func out(x, y, c) = src(x, y, c);\n}\n' \
  >"$work/copy.arvr"
"$arvrc" run "$work/copy.arvr" -i "$src/tests/data/odd-641x479.png" -o "$work/f0.ppm" --target cpu >/dev/null
"$arvrc" run "$work/copy.arvr" -i "$src/tests/data/baboon.jpg" -o "$work/f1.ppm" --target cpu >/dev/null
"$arvrc" run "$work/copy.arvr" -i "$src/tests/data/odd-7x3.png" -o "$work/tiny.ppm" --target cpu >/dev/null
"$work/embed/embed" --sigma 1.5 "$work/f0.ppm" "$work/e0.ppm" "$work/f0.ppm" "$work/e1.ppm" |
  tee "$work/embed.txt"
grep -q "2 frame(s) of 641x479x3 on the CPU" "$work/embed.txt"
"$arvrc" run "$src/examples/gaussian_blur.arvr" -i "$work/f0.ppm" -p sigma=1.5 \
  -o "$work/ref0.png" --target cpu >/dev/null
"$arvrc" compare "$work/e0.ppm" "$work/ref0.png" --max-abs 0 >/dev/null
"$arvrc" compare "$work/e1.ppm" "$work/ref0.png" --max-abs 0 >/dev/null
"$work/embed/embed" "$work/tiny.ppm" "$work/e2.ppm" >/dev/null
"$arvrc" run "$src/examples/gaussian_blur.arvr" -i "$work/tiny.ppm" -o "$work/ref2.png" \
  --target cpu >/dev/null
"$arvrc" compare "$work/e2.ppm" "$work/ref2.png" --max-abs 0 >/dev/null
# Bad input: an error naming the file, exit 1, nothing written.
expect_failure() { # MESSAGE ARGS...
  local message=$1
  shift
  if "$work/embed/embed" "$@" 2>"$work/err.txt"; then
    echo "embed accepted: $*"; exit 1
  fi
  grep -q "$message" "$work/err.txt" || { cat "$work/err.txt"; exit 1; }
}
head -c 1000 "$work/f1.ppm" >"$work/truncated.ppm"
expect_failure "truncated.ppm: truncated" "$work/truncated.ppm" "$work/bad.ppm"
expect_failure "copy.arvr: not a binary PPM" "$work/copy.arvr" "$work/bad.ppm"
expect_failure "f1.ppm: not the size of" "$work/f0.ppm" "$work/bad.ppm" "$work/f1.ppm" "$work/bad2.ppm"
expect_failure "ranges over 80001 values" --radius 40000 "$work/f0.ppm" "$work/bad.ppm"
test ! -e "$work/bad.ppm" && test ! -e "$work/bad2.ppm"
# The CPU object's plan is not a GPU plan.
if "$work/consumer/consumer" "$work/embed/blur_cpu/gaussian_blur.plan.json" 1 1 1 2>"$work/err.txt"; then
  echo "a CPU object's plan was opened as a GPU one"; exit 1
fi
grep -q "arvr_open_gaussian_blur" "$work/err.txt"
echo "runtime installed and used: ok"
