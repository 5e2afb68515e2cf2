#!/usr/bin/env bash
# The scatter kernels on the H200: CPU = CUDA (window from 64, one range,
# equalize_hist on a 4K grey frame: atomics under contention), memcheck.
set -u
O=$1
mkdir -p /tmp/w && tar -C /tmp/w -xJf dist/arvrc-gpu.tar.xz; R=/tmp/w/arvrc; cd $R
export XDG_CACHE_HOME=/tmp/cc
python3 -c "import cv2; g=cv2.imread('tests/data/golden/aloeL-320x277.png', 0); cv2.imwrite('/tmp/grey4k.png', cv2.resize(g, (3840, 2160)))"
check() { # name kernel-file kernel-args image
  bin/arvrc run $2 $3 -i $4 -o /tmp/$1-cpu.png --target cpu > /dev/null 2>>$O/err.txt
  bin/arvrc run $2 $3 -i $4 -o /tmp/$1-cuda.png --target cuda > /dev/null 2>>$O/err.txt
  if cmp -s /tmp/$1-cpu.png /tmp/$1-cuda.png; then echo "$1: identical"; else echo "$1: DIFFER"; fi
}
{
check scatter_i32 tests/lit/Driver/Inputs/scatter.arvr "--kernel scatter_i32" tests/data/golden/aloeL-320x277.png
check row_i32 tests/lit/Driver/Inputs/scatter.arvr "--kernel row_i32" tests/data/golden/aloeL-320x277.png
check eq4k examples/equalize_hist.arvr "" /tmp/grey4k.png
check eqleft examples/equalize_hist.arvr "" tests/data/golden/left01-241x181.png
python3 -c "import cv2,numpy as np; s=cv2.imread('/tmp/grey4k.png',0); o=cv2.imread('/tmp/eq4k-cuda.png',0); print('eq4k cuda vs cv2.equalizeHist max abs diff', int(np.abs(o.astype(int)-cv2.equalizeHist(s)).max()))"
/usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 bin/arvrc run examples/equalize_hist.arvr -i tests/data/golden/left01-241x181.png -o /tmp/m.png --target cuda > /tmp/mc.txt 2>&1; echo "memcheck equalize_hist rc $? $(grep -c 'ERROR SUMMARY: 0 errors' /tmp/mc.txt)"
/usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 9 bin/arvrc run tests/lit/Driver/Inputs/scatter.arvr --kernel scatter_i32 -i tests/data/golden/aloeL-320x277.png -o /tmp/m2.png --target cuda > /tmp/rc.txt 2>&1; echo "racecheck scatter_i32 rc $?"
for i in 1 2 3; do /usr/bin/time -f "equalize_hist 4K arvrc run (CLI, wall) %e s" bin/arvrc run examples/equalize_hist.arvr -i /tmp/grey4k.png -o /tmp/e.png --target cuda 2>&1 | grep wall; done
} > $O/check.txt 2>&1
cat $O/check.txt
