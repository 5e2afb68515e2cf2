#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz/ with Debian's clang (libFuzzer,
# AddressSanitizer, UndefinedBehaviorSanitizer) and runs each one, from a
# seed corpus (the examples, the test kernels, the test images), for a time
# or a number of runs. Needs the normal build (scripts/build.sh) for the
# dialect and lowering libraries. A crash leaves its input in build-fuzz/
# and fails the script; turn it into a regression test in tests/.
#
#   scripts/fuzz.sh [SECONDS [RUNS [TARGETS]]]
#     default 60 s per target; with RUNS (-1: no limit), stop after that
#     many executions; TARGETS: "fuzz-source fuzz-image fuzz-plan" (all,
#     default)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
seconds=${1:-60}
runs=${2:--1}
targets=${3:-fuzz-source fuzz-image fuzz-plan}
out=build-fuzz
mkdir -p "$out"

if ! command -v clang++ >/dev/null; then
  echo "SKIPPED: no clang++ for libFuzzer (scripts/setup.sh installs clang)"
  exit 77
fi
if [ ! -f build/lowering/libArvrLowering.a ]; then
  echo "error: build the project first (scripts/build.sh)" >&2
  exit 1
fi

llvm=/usr/lib/llvm-22
flags=(-g -O1 -std=c++17 -fsanitize=fuzzer,address,undefined
       -fno-sanitize-recover=undefined -fno-omit-frame-pointer
       -Ifrontend/include -Idialect/include -Ilowering/include -Idriver
       -Ibuild/dialect/include -Ibuild/lowering/include -isystem "$llvm/include")

# Rebuilt only when a source is newer than the binary.
build_target() {
  local target=$1; shift
  local newest
  newest=$(ls -t "$@" build/lowering/libArvrLowering.a 2>/dev/null | head -1)
  if [ ! -x "$out/$target" ] || [ "$newest" -nt "$out/$target" ]; then
    echo "building $out/$target"
    clang++ "${flags[@]}" "$@" -o "$out/$target" "${libs[@]}"
  fi
}
libs=(build/lowering/libArvrLowering.a build/dialect/libArvrDialect.a
      -L"$llvm/lib" -lMLIR -lLLVM -Wl,-rpath,"$llvm/lib")
build_target fuzz-source tests/fuzz/FuzzSource.cpp frontend/lib/*.cpp
# Debian's stb calls memcpy(NULL, p, 0) on some truncated files: undefined
# in the letter of C, harmless in fact, and not arvrc's code: that one
# check is off for the image target.
libs=(-fno-sanitize=nonnull-attribute -lpng -ljpeg)
build_target fuzz-image tests/fuzz/FuzzImage.cpp driver/Image.cpp driver/Codecs.cpp
# The runtime's launch plan reader.
flags+=(-Iruntime/lib)
libs=(-L"$llvm/lib" -lLLVM -Wl,-rpath,"$llvm/lib")
build_target fuzz-plan tests/fuzz/FuzzPlan.cpp runtime/lib/Plan.cpp

# Seeds: every kernel the tests and examples hold; small real images.
mkdir -p "$out/corpus-source" "$out/corpus-image"
find examples tests -name '*.arvr' -exec cp {} "$out/corpus-source/" \;
cp tests/data/odd-1x1.png tests/data/odd-7x3.png tests/data/pattern_7x3.nv12 \
   tests/data/pattern_1x1.nv12 "$out/corpus-image/" 2>/dev/null || true
find tests/fuzz/corpus-image -type f -exec cp {} "$out/corpus-image/" \; 2>/dev/null || true
# The bad-input corpus's images (corrupt, truncated, lying headers) too.
find tests/bad-inputs -type f \( -name '*.png' -o -name '*.jpg' -o -name '*.nv12' -o -name '*.pfm' -o -name '*.ppm' \) \
  -exec cp {} "$out/corpus-image/" \; 2>/dev/null || true

# Plans: those of the examples, as arvrc writes them.
mkdir -p "$out/corpus-plan"
for k in examples/*.arvr; do
  name=$(basename "$k" .arvr)
  [ -f "$out/corpus-plan/$name.plan.json" ] ||
    build/bin/arvrc build "$k" -o "$out/corpus-plan/$name.ptx" >/dev/null 2>&1 || true
  # And its CPU object's plan (a CPU entry, no launches).
  [ -f "$out/corpus-plan/$name-cpu.plan.json" ] ||
    build/bin/arvrc build "$k" --target cpu --emit=obj \
      -o "$out/corpus-plan/$name-cpu.o" >/dev/null 2>&1 || true
done
rm -f "$out"/corpus-plan/*.ptx "$out"/corpus-plan/*.manifest "$out"/corpus-plan/*.o \
  "$out"/corpus-plan/*.h

status=0
for target in $targets; do
  corpus="$out/corpus-${target#fuzz-}"
  extra=()
  [ "$target" = fuzz-source ] && extra=(-dict=tests/fuzz/arvr.dict -max_len=4096)
  [ "$target" = fuzz-image ] && extra=(-max_len=65536)
  [ "$target" = fuzz-plan ] && extra=(-max_len=65536)
  echo "== $target: ${seconds}s${runs:+, at most $runs runs}"
  if ! (cd "$out" && "./$target" "${corpus#$out/}" "${extra[@]/#-dict=/-dict=$root/}" \
        -max_total_time="$seconds" -runs="$runs" -timeout=20 -rss_limit_mb=4096 \
        -print_final_stats=1 -artifact_prefix="$target-") >"$out/$target.log" 2>&1; then
    echo "$target FOUND A PROBLEM: see $out/$target.log and $out/$target-*"
    status=1
  fi
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb|^Done|DONE" "$out/$target.log" | tail -3 || true
done
exit "$status"
