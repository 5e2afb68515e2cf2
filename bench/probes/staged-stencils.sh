#!/usr/bin/env bash
# A probe, on the GPU machine: is staging the stencil input of a stored
# stage in a kernel without a schedule (arvr-stage-inputs) worth it? The
# bench with two extra Gaussians, the example's arithmetic as one 81-tap
# stencil of `src`, with its input staged (no schedule block) and not (an
# empty one). The outputs of the kernels it stages are checked by
# scripts/gpu-tests.sh (CUDA against CPU, racecheck).
#
#   bench/probes/staged-stencils.sh BUNDLE OUT [BENCH_SECONDS]
set -u
bundle=${1:?usage: staged-stencils.sh BUNDLE OUT [BENCH_SECONDS]}
out=${2:?output dir}
limit=${3:-200}
export XDG_CACHE_HOME=/tmp/staged-cache
mkdir -p /tmp/w "$out/t" "$out/extra" && tar -C /tmp/w -xJf "$bundle" || exit 1
r=/tmp/w/arvrc
a=$r/bin/arvrc
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader >"$out/machine.txt"
# The extras: one 81-tap stencil, staged (no schedule) and not (empty).
cat >"$out/t/direct.arvr" <<'ARVR'
kernel gaussian_blur(src: image<u8> mirror, sigma: f32 = 2.0, radius: i32 = 4)
    -> image<u8> {
  func weight(i) = exp(-f32(i * i) / (2.0 * sigma * sigma));
  func norm() = sum(i in -radius..radius, weight(i));
  func coef(i) = weight(i) / norm();
  func out(x, y, c) =
      u8_sat(sum(j in -radius..radius, coef(j) *
                 sum(i in -radius..radius, coef(i) * f32(src(x + i, y + j, c)))));
}
ARVR
sed 's|^}$|  schedule {\n  }\n}|' "$out/t/direct.arvr" >"$out/t/direct-plain.arvr"
# shellcheck disable=SC1091
source "$r/bench/known-values.sh"
# shellcheck disable=SC2086,SC2154
"$a" build "$out/t/direct.arvr" ${known[gaussian_blur]} -o "$out/extra/gaussian_blur@direct-staged.ptx" &&
  "$a" build "$out/t/direct-plain.arvr" ${known[gaussian_blur]} \
    -o "$out/extra/gaussian_blur@direct-plain.ptx" 2>/dev/null || exit 1
# The bench's first set (with "arvrc no schedule"); the second is cut by
# the limit.
ARVR_BENCH_EXTRA=$out/extra timeout "$limit" "$r/bench/run.sh" "$a" "$r" "$out/bench" >"$out/bench-run.log" 2>&1
rm -rf "$out/bench/ptx" "$out/bench/ptx-more" "$out/bench/arvr_bench" "$out/bench/"*.ppm
