// arvr-gpu-saturating-convert: the lowered u8_sat (clamp to [0, 255],
// round to nearest even, convert) becomes f2ui.rn, a min and a truncation;
// a rounding converted without clamps, or with the clamp at 0 alone
// (arvr-redundant-clamps proved the others idle), f2ui.rn and a
// truncation; other conversions stay.
// RUN: arvr-opt %s --pass-pipeline='builtin.module(gpu.module(arvr-gpu-saturating-convert))' | FileCheck %s

gpu.module @kernels {
  // CHECK-LABEL: llvm.func @u8_sat
  // CHECK-SAME: (%[[X:.+]]: f32)
  // CHECK: %[[R:.+]] = llvm.call_intrinsic "llvm.nvvm.f2ui.rn"(%[[X]]) : (f32) -> i32
  // CHECK: %[[M:.+]] = llvm.intr.umin(%[[R]], %{{.+}}) : (i32, i32) -> i32
  // CHECK: %[[T:.+]] = llvm.trunc %[[M]] : i32 to i8
  // CHECK: llvm.return %[[T]]
  llvm.func @u8_sat(%x: f32) -> i8 {
    %zero = llvm.mlir.constant(0.0 : f32) : f32
    %max = llvm.mlir.constant(255.0 : f32) : f32
    %a = llvm.intr.maxnum(%x, %zero) : (f32, f32) -> f32
    %b = llvm.intr.minnum(%a, %max) : (f32, f32) -> f32
    %c = llvm.intr.roundeven(%b) : (f32) -> f32
    %d = llvm.fptoui %c : f32 to i8
    llvm.return %d : i8
  }

  // CHECK-LABEL: llvm.func @bare
  // CHECK-SAME: (%[[X:.+]]: f32)
  // CHECK: %[[R:.+]] = llvm.call_intrinsic "llvm.nvvm.f2ui.rn"(%[[X]]) : (f32) -> i32
  // CHECK-NOT: umin
  // CHECK: %[[T:.+]] = llvm.trunc %[[R]] : i32 to i8
  // CHECK: llvm.return %[[T]]
  llvm.func @bare(%x: f32) -> i8 {
    %c = llvm.intr.roundeven(%x) : (f32) -> f32
    %d = llvm.fptoui %c : f32 to i8
    llvm.return %d : i8
  }

  // Only the clamp at 0 left (arvr-redundant-clamps proved the value below
  // 255.5 or NaN): f2ui.rn of what it clamps, which gives NaN and
  // negatives 0 as the clamp would, and no min.
  // CHECK-LABEL: llvm.func @floored
  // CHECK-SAME: (%[[X:.+]]: f32)
  // CHECK: %[[R:.+]] = llvm.call_intrinsic "llvm.nvvm.f2ui.rn"(%[[X]]) : (f32) -> i32
  // CHECK-NOT: umin
  // CHECK: %[[T:.+]] = llvm.trunc %[[R]] : i32 to i8
  // CHECK: llvm.return %[[T]]
  llvm.func @floored(%x: f32) -> i8 {
    %zero = llvm.mlir.constant(0.0 : f32) : f32
    %a = llvm.intr.maxnum(%x, %zero) : (f32, f32) -> f32
    %c = llvm.intr.roundeven(%a) : (f32) -> f32
    %d = llvm.fptoui %c : f32 to i8
    llvm.return %d : i8
  }

  // A clamp to another range, or a conversion without rounding, is left.
  // CHECK-LABEL: llvm.func @other_range
  // CHECK-NOT: f2ui
  // CHECK: llvm.fptoui
  // CHECK-LABEL: llvm.func @no_rounding
  // CHECK-NOT: f2ui
  // CHECK: llvm.fptoui
  llvm.func @other_range(%x: f32) -> i8 {
    %zero = llvm.mlir.constant(0.0 : f32) : f32
    %max = llvm.mlir.constant(127.0 : f32) : f32
    %a = llvm.intr.maxnum(%x, %zero) : (f32, f32) -> f32
    %b = llvm.intr.minnum(%a, %max) : (f32, f32) -> f32
    %c = llvm.intr.roundeven(%b) : (f32) -> f32
    %d = llvm.fptoui %c : f32 to i8
    llvm.return %d : i8
  }
  llvm.func @no_rounding(%x: f32) -> i8 {
    %zero = llvm.mlir.constant(0.0 : f32) : f32
    %max = llvm.mlir.constant(255.0 : f32) : f32
    %a = llvm.intr.maxnum(%x, %zero) : (f32, f32) -> f32
    %b = llvm.intr.minnum(%a, %max) : (f32, f32) -> f32
    %d = llvm.fptoui %b : f32 to i8
    llvm.return %d : i8
  }
}
