#!/usr/bin/env bash
# Configures (once) and builds arvrc into build/ with Ninja.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if [ ! -f build/build.ninja ]; then
  cmake -G Ninja -S . -B build -DCMAKE_BUILD_TYPE=Release
fi
ninja -C build -j"${ARVRC_JOBS:-2}"
# `import arvr` (the Python module, build/python) for Debian's python3 and
# the python3 on PATH: a .pth file in their site-packages naming it, where
# they can load the module built (the same Python version).
for python in /usr/bin/python3 "$(command -v python3 || true)"; do
  [ -x "$python" ] || continue
  "$python" - "$root/build/python" <<'PY' || true
import glob, os, site, sys, sysconfig
folder = sys.argv[1]
suffix = sysconfig.get_config_var("EXT_SUFFIX")
if glob.glob(os.path.join(folder, "arvr", "_arvr" + suffix)):
    for target in site.getsitepackages() + [site.getusersitepackages()]:
        try:
            os.makedirs(target, exist_ok=True)
            with open(os.path.join(target, "arvr.pth"), "w") as f:
                f.write(folder + "\n")
            break
        except OSError:
            continue
PY
done
