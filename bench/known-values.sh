# Sourced by bench/run.sh and bench/sass.sh: what each example is compiled
# for in the benchmark (arvrc build --specialize), the frames it runs on
# and the values the hand kernels are written for: 3-channel frames, and
# the Gaussian's sigma 2 and radius 4.
# shellcheck disable=SC2034
declare -A known=(
  [lens_undistort]="--specialize src.channels=3"
  [gaussian_blur]="--specialize src.channels=3 --specialize sigma=2 --specialize radius=4"
  [nv12_to_rgb]=""
)
