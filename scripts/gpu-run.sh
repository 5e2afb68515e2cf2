#!/usr/bin/env bash
# On the GPU machine: unpacks dist/arvrc-gpu.tar.xz, records the machine,
# and runs the GPU tests, writing everything under $OUT (or ./gpu-results).
#
#   scripts/gpu-run.sh [BUNDLE] [--bench | --bench-only]
#
# With --bench, then runs the benchmark (bench/run.sh) into $OUT/bench;
# with --bench-only, only the benchmark.
set -uo pipefail
bundle=${1:-dist/arvrc-gpu.tar.xz}
bench=${2:-}
out=${OUT:-$PWD/gpu-results}
mkdir -p "$out"
work=$(mktemp -d)
tar -C "$work" -xJf "$bundle" || { echo "cannot unpack $bundle"; exit 1; }
root="$work/arvrc"
{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "commit: $(cat "$root/COMMIT")"
  echo "host: $(uname -srm); $(. /etc/os-release && echo "$PRETTY_NAME")"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,power.draw \
    --format=csv,noheader 2>&1 | sed 's/^/gpu: /'
  echo "compute-sanitizer: $(command -v compute-sanitizer || echo none)"
} | tee "$out/machine.txt"
status=0
if [ "$bench" != "--bench-only" ]; then
  "$root/scripts/gpu-tests.sh" "$root/bin/arvrc" "$root" "$work/out" 2>&1 | tee "$out/gpu-tests.log"
  status=${PIPESTATUS[0]}
fi
# Keep one pair of outputs to look at.
cp "$work/out/brightness_contrast-1-cpu.png" "$work/out/brightness_contrast-1-cuda.png" "$out/" 2>/dev/null
echo "gpu-tests exit status: $status" | tee -a "$out/gpu-tests.log"
if [ "$bench" = "--bench" ] || [ "$bench" = "--bench-only" ]; then
  "$root/bench/run.sh" "$root/bin/arvrc" "$root" "$out/bench" 2>&1 | tee "$out/bench-run.log"
  bench_status=${PIPESTATUS[0]}
  echo "bench exit status: $bench_status" | tee -a "$out/bench-run.log"
  [ "$bench_status" -eq 0 ] || status=1
fi
exit "$status"
