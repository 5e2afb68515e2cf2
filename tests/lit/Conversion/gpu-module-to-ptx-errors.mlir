// arvr-gpu-module-to-ptx refuses a gpu.module without a target (arvr-opt
// registers no other GPU target than #nvvm.target, so the pass's refusal of
// one is not reachable here).
// RUN: arvr-opt %s --verify-diagnostics --pass-pipeline='builtin.module(arvr-gpu-module-to-ptx)'

module attributes {gpu.container_module} {
  // expected-error @+1 {{arvr-gpu-module-to-ptx: a gpu.module without a target}}
  gpu.module @untargeted {
    llvm.func @k() attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
}

