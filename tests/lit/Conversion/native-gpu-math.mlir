// arvr-native-gpu-math: libdevice calls PTX does in one instruction become
// LLVM intrinsics; their declarations go; other calls stay.
// RUN: arvr-opt %s --pass-pipeline='builtin.module(gpu.module(arvr-native-gpu-math))' | FileCheck %s

// CHECK-LABEL: gpu.module @kernels
// CHECK-NOT: llvm.func @__nv_rintf
// CHECK-NOT: llvm.func @__nv_fmaxf
// CHECK-NOT: llvm.func @__nv_abs(
// CHECK: llvm.func @__nv_expf(f32) -> f32
gpu.module @kernels {
  llvm.func @__nv_rintf(f32) -> f32
  llvm.func @__nv_fmaxf(f32, f32) -> f32
  llvm.func @__nv_abs(i32) -> i32
  llvm.func @__nv_expf(f32) -> f32

  // CHECK-LABEL: llvm.func @math
  // CHECK-SAME: (%[[A:.+]]: f32, %[[B:.+]]: f32, %[[I:.+]]: i32)
  llvm.func @math(%a: f32, %b: f32, %i: i32) -> f32 {
    // CHECK: %[[R:.+]] = llvm.intr.roundeven(%[[A]]) : (f32) -> f32
    %r = llvm.call @__nv_rintf(%a) : (f32) -> f32
    // CHECK: %[[M:.+]] = llvm.intr.maxnum(%[[R]], %[[B]]) : (f32, f32) -> f32
    %m = llvm.call @__nv_fmaxf(%r, %b) : (f32, f32) -> f32
    // CHECK: "llvm.intr.abs"(%[[I]]) <{is_int_min_poison = false}> : (i32) -> i32
    %n = llvm.call @__nv_abs(%i) : (i32) -> i32
    // CHECK: llvm.call @__nv_expf(%[[M]])
    %e = llvm.call @__nv_expf(%m) : (f32) -> f32
    %nf = llvm.sitofp %n : i32 to f32
    %sum = llvm.fadd %e, %nf : f32
    llvm.return %sum : f32
  }
}
