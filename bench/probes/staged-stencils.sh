#!/usr/bin/env bash
# A probe, on the GPU machine: the GPU code of kernels written without a
# schedule (arvr-auto-schedule; arvr-stage-inputs' staged stencil inputs
# for them). The test kernels whose stencil inputs are staged, CUDA against
# the CPU (racecheck on some); the Gaussian without its schedule block
# against the example; then the bench with two extra Gaussians, the
# example's arithmetic as one 81-tap stencil of `src`, with and without
# its input staged (no schedule block, and an empty one): is the staging
# of a stored stage's stencil input worth it?
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
san=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader >"$out/machine.txt"
sed '/^  schedule {/,/^  }/d' "$r/examples/gaussian_blur.arvr" >"$out/t/gaussian_auto.arvr"
n=0 bad=0
check() { # FILE "KERNEL OPTIONS" IMAGE RACECHECK(0|1)
  local f=$1 k=$2 img=$3 race=$4 res
  n=$((n + 1))
  # shellcheck disable=SC2086
  if "$a" run "$f" $k -i "$img" -o "$out/t/c$n.png" --target cuda >/dev/null 2>"$out/t/e$n.txt" &&
     "$a" run "$f" $k -i "$img" -o "$out/t/p$n.png" --target cpu >/dev/null 2>>"$out/t/e$n.txt" &&
     cmp -s "$out/t/c$n.png" "$out/t/p$n.png"; then
    res=identical
  else
    res="FAILED $(head -c 200 "$out/t/e$n.txt")"
    bad=$((bad + 1))
  fi
  if [ "$race" = 1 ] && [ -n "$san" ] && [ "$res" = identical ]; then
    # shellcheck disable=SC2086
    if "$san" --tool racecheck --error-exitcode 99 "$a" run "$f" $k -i "$img" \
         -o "$out/t/s$n.png" --target cuda >"$out/t/racecheck$n.log" 2>&1; then
      res="$res; racecheck clean"
    else
      res="$res; racecheck FAILED"
      bad=$((bad + 1))
    fi
  fi
  echo "$(basename "$f") $k $(basename "$img"): $res" | tee -a "$out/checks.txt"
}
odd=$r/tests/data/odd-641x479.png tiny=$r/tests/data/odd-7x3.png photo=$r/tests/data/baboon.jpg
inputs=$r/tests/lit/Driver/Inputs
for k in box3 gauss15 light9; do
  check "$inputs/nested-reduction.arvr" "--kernel $k" "$odd" 1
  check "$inputs/nested-reduction.arvr" "--kernel $k" "$tiny" 0
done
check "$inputs/reduction-lets.arvr" "--kernel nested" "$odd" 0
check "$inputs/function-extents.arvr" "--kernel mirror_image" "$odd" 0
check "$inputs/shared-chain.arvr" "" "$odd" 1
check "$r/tests/lit/Frontend/in-bounds.arvr" "--kernel shared_ref" "$odd" 0
check "$out/t/gaussian_auto.arvr" "" "$odd" 1
check "$out/t/gaussian_auto.arvr" "" "$photo" 0
"$a" run "$r/examples/gaussian_blur.arvr" -i "$photo" -o "$out/t/example.png" --target cuda >/dev/null 2>&1
if cmp -s "$out/t/example.png" "$out/t/c$n.png"; then
  echo "gaussian_auto: the example's output on the GPU" | tee -a "$out/checks.txt"
else
  echo "gaussian_auto: DIFFERS from the example on the GPU" | tee -a "$out/checks.txt"
  bad=$((bad + 1))
fi
echo "$n checks, $bad failed" | tee -a "$out/checks.txt"

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
rm -rf "$out/bench/ptx" "$out/bench/ptx-more" "$out/bench/arvr_bench" "$out/bench/"*.ppm "$out/t/"*.png
[ "$bad" = 0 ]
