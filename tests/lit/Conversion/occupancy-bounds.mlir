// arvr-occupancy-bounds: kernels of 512 and 256 threads get 2 and 4 as
// their minimum of resident blocks; a kernel of 1024 threads, and a
// function that is not a kernel, get nothing.
// RUN: arvr-opt %s --pass-pipeline='builtin.module(gpu.module(arvr-occupancy-bounds))' | FileCheck %s

// CHECK-LABEL: llvm.func @k512
// CHECK-SAME: nvvm.minctasm = 2 : i32
// CHECK-LABEL: llvm.func @k256
// CHECK-SAME: nvvm.minctasm = 4 : i32
// CHECK-LABEL: llvm.func @k1024
// CHECK-NOT: nvvm.minctasm
// CHECK-LABEL: llvm.func @helper
// CHECK-NOT: nvvm.minctasm
gpu.module @kernels {
  llvm.func @k512() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 16, 1>} {
    llvm.return
  }
  llvm.func @k256() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 8, 1>} {
    llvm.return
  }
  llvm.func @k1024() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 32, 1>} {
    llvm.return
  }
  llvm.func @helper() attributes {nvvm.maxntid = array<i32: 32, 8, 1>} {
    llvm.return
  }
}
