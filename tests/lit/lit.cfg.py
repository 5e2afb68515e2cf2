# lit configuration of arvrc's FileCheck tests.
import os

import lit.formats

config.name = "arvrc"
# External shell (bash): tests check exact exit codes with `$?`.
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir", ".arvr", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.arvrc_obj_root, "tests", "lit")
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in"]

config.environment["PATH"] = os.pathsep.join(
    [config.arvrc_tools_dir, config.llvm_tools_dir,
     config.environment.get("PATH", os.environ.get("PATH", ""))])
# arvrc's compile cache: one folder for this test run, not the user's.
config.environment["XDG_CACHE_HOME"] = os.path.join(config.test_exec_root,
                                                    "Output", "cache")
config.substitutions.append(("%examples",
                             os.path.join(config.arvrc_src_root, "examples")))
config.substitutions.append(("%data",
                             os.path.join(config.arvrc_src_root, "tests", "data")))

# ptxas (CUDA toolkit) checks that the PTX is valid; tests needing it say
# `REQUIRES: ptxas` and are reported UNSUPPORTED where it is missing.
if config.ptxas and os.path.exists(config.ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas))
else:
    lit_config.note("ptxas not found: PTX assembly tests are unsupported")

# A CUDA driver (a GPU machine): tests of the no-GPU messages do not apply.
try:
    import ctypes
    ctypes.CDLL("libcuda.so.1")
    config.available_features.add("cuda-driver")
except OSError:
    pass

import sys
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%arvrc_src", config.arvrc_src_root))

# CUDA's libdevice (exp, sin, ... on the GPU), found as arvrc finds it.
for root in [os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"),
             "/usr/local/cuda"]:
    if root and os.path.isdir(os.path.join(root, "nvvm", "libdevice")):
        config.available_features.add("libdevice")
        break
