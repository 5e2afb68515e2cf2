// arvr-contract-fma: a product used once, added or subtracted, becomes one
// math.fma; a product used twice, and f64 or integer arithmetic, stay.
// RUN: arvr-opt %s --arvr-contract-fma | FileCheck %s

// CHECK-LABEL: func.func @add
// CHECK-SAME: (%[[A:.+]]: f32, %[[B:.+]]: f32, %[[C:.+]]: f32)
// CHECK-NEXT: %[[R:.+]] = math.fma %[[A]], %[[B]], %[[C]] : f32
// CHECK-NEXT: return %[[R]]
func.func @add(%a: f32, %b: f32, %c: f32) -> f32 {
  %p = arith.mulf %a, %b : f32
  %s = arith.addf %c, %p : f32
  return %s : f32
}

// CHECK-LABEL: func.func @sub_product_first
// CHECK-SAME: (%[[A:.+]]: f32, %[[B:.+]]: f32, %[[C:.+]]: f32)
// CHECK-NEXT: %[[N:.+]] = arith.negf %[[C]] : f32
// CHECK-NEXT: %[[R:.+]] = math.fma %[[A]], %[[B]], %[[N]] : f32
func.func @sub_product_first(%a: f32, %b: f32, %c: f32) -> f32 {
  %p = arith.mulf %a, %b : f32
  %s = arith.subf %p, %c : f32
  return %s : f32
}

// CHECK-LABEL: func.func @sub_product_second
// CHECK-SAME: (%[[A:.+]]: f32, %[[B:.+]]: f32, %[[C:.+]]: f32)
// CHECK-NEXT: %[[N:.+]] = arith.negf %[[A]] : f32
// CHECK-NEXT: %[[R:.+]] = math.fma %[[N]], %[[B]], %[[C]] : f32
func.func @sub_product_second(%a: f32, %b: f32, %c: f32) -> f32 {
  %p = arith.mulf %a, %b : f32
  %s = arith.subf %c, %p : f32
  return %s : f32
}

// A chain of taps: each term fused into the running sum.
// CHECK-LABEL: func.func @taps
// CHECK: %[[S0:.+]] = math.fma %{{.+}}, %{{.+}}, %{{.+}} : f32
// CHECK-NEXT: %[[S1:.+]] = math.fma %{{.+}}, %{{.+}}, %[[S0]] : f32
// CHECK-NEXT: return %[[S1]]
func.func @taps(%w0: f32, %v0: f32, %w1: f32, %v1: f32, %acc: f32) -> f32 {
  %p0 = arith.mulf %w0, %v0 : f32
  %s0 = arith.addf %acc, %p0 : f32
  %p1 = arith.mulf %w1, %v1 : f32
  %s1 = arith.addf %s0, %p1 : f32
  return %s1 : f32
}

// A product used twice is computed once, rounded: not fused.
// CHECK-LABEL: func.func @shared_product
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: arith.addf
// CHECK-NOT: math.fma
func.func @shared_product(%a: f32, %b: f32, %c: f32) -> (f32, f32) {
  %p = arith.mulf %a, %b : f32
  %s = arith.addf %p, %c : f32
  %t = arith.addf %p, %a : f32
  return %s, %t : f32, f32
}

// Vectors of f32 too; f64 is left alone.
// CHECK-LABEL: func.func @vector_and_f64
// CHECK: math.fma %{{.+}}, %{{.+}}, %{{.+}} : vector<4xf32>
// CHECK: arith.mulf %{{.+}}, %{{.+}} : f64
// CHECK: arith.addf %{{.+}}, %{{.+}} : f64
func.func @vector_and_f64(%a: vector<4xf32>, %b: vector<4xf32>, %x: f64, %y: f64) -> (vector<4xf32>, f64) {
  %p = arith.mulf %a, %b : vector<4xf32>
  %s = arith.addf %p, %a : vector<4xf32>
  %q = arith.mulf %x, %y : f64
  %t = arith.addf %q, %x : f64
  return %s, %t : vector<4xf32>, f64
}
