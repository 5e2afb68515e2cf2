// arvr-merge-gpu-modules: the kernels of several gpu.modules move into the
// first one; a name taken there is renamed, and every launch points at the
// kernel's new place.
// RUN: arvr-opt %s --arvr-merge-gpu-modules | FileCheck %s

// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: func.func @host(%[[N:.+]]: index)
// CHECK: gpu.launch_func @first::@k blocks
// CHECK: gpu.launch_func @first::@k_0 blocks
// CHECK: gpu.launch_func @first::@other blocks
// CHECK: gpu.module @first {
// CHECK-DAG: gpu.func @k(%{{.+}}: index) kernel
// CHECK-DAG: gpu.func @k_0(%{{.+}}: index) kernel
// CHECK-DAG: gpu.func @other(%{{.+}}: index) kernel
// CHECK-NOT: gpu.module
module attributes {gpu.container_module} {
  func.func @host(%n: index) {
    %one = arith.constant 1 : index
    gpu.launch_func @first::@k blocks in (%one, %one, %one) threads in (%one, %one, %one) args(%n : index)
    gpu.launch_func @second::@k blocks in (%one, %one, %one) threads in (%one, %one, %one) args(%n : index)
    gpu.launch_func @third::@other blocks in (%one, %one, %one) threads in (%one, %one, %one) args(%n : index)
    return
  }
  gpu.module @first {
    gpu.func @k(%n: index) kernel {
      gpu.return
    }
  }
  gpu.module @second {
    gpu.func @k(%n: index) kernel {
      gpu.return
    }
  }
  gpu.module @third {
    gpu.func @other(%n: index) kernel {
      gpu.return
    }
  }
}
