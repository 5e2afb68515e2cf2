// arvr-occupancy-bounds: kernels of 512, 256 and 128 threads get 2, 4 and
// 9 (1152 threads) as their minimum of resident blocks, one of 32 threads
// sm_90's most, 32; a kernel of 128 threads with a block-wide barrier
// (tiles computed together in shared memory) 8 (1024 threads); a kernel of
// 1024 threads, and a function that is not a kernel, get nothing. A kernel
// that gathers (a load at an address computed from a float converted to an
// integer: a sample's taps) gets the same as any other, 9 blocks of 128
// threads (1280 threads' worth until 2026-12-07, now slower for the lens).
// RUN: arvr-opt %s --pass-pipeline='builtin.module(gpu.module(arvr-occupancy-bounds))' | FileCheck %s

// CHECK-LABEL: llvm.func @k512
// CHECK-SAME: nvvm.minctasm = 2 : i32
// CHECK-LABEL: llvm.func @k256
// CHECK-SAME: nvvm.minctasm = 4 : i32
// CHECK-LABEL: llvm.func @k128
// CHECK-SAME: nvvm.minctasm = 9 : i32
// CHECK-LABEL: llvm.func @k128_tiles
// CHECK-SAME: nvvm.minctasm = 8 : i32
// CHECK-LABEL: llvm.func @k32
// CHECK-SAME: nvvm.minctasm = 32 : i32
// CHECK-LABEL: llvm.func @k128_sample
// CHECK-SAME: nvvm.minctasm = 9 : i32
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
  llvm.func @k128() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 4, 1>} {
    llvm.return
  }
  llvm.func @k128_tiles() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 4, 1>} {
    nvvm.barrier0
    llvm.return
  }
  llvm.func @k32() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 1, 1>} {
    llvm.return
  }
  llvm.func @k128_sample(%src: !llvm.ptr, %u: f32) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 4, 1>} {
    %x = llvm.fptosi %u : f32 to i32
    %x1 = llvm.add %x, %x : i32
    %p = llvm.getelementptr %src[%x1] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    %v = llvm.load %p : !llvm.ptr -> i8
    llvm.return
  }
  llvm.func @k1024() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 32, 1>} {
    llvm.return
  }
  llvm.func @helper() attributes {nvvm.maxntid = array<i32: 32, 8, 1>} {
    llvm.return
  }
}
