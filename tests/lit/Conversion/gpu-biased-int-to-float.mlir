// arvr-gpu-biased-int-to-float: a u8/u16 converted to f32 that only meets
// integral constants in sums and differences, or another such conversion
// in a difference, becomes 0x4B000000 | x (2^23 + x) and each use one
// subtraction of biased values; conversions with any other use stay. A
// constant element of a vector of bytes is biased by one `prmt`.
// RUN: arvr-opt %s --pass-pipeline='builtin.module(gpu.module(arvr-gpu-biased-int-to-float))' | FileCheck %s

gpu.module @kernels {
  // x - 16 is (2^23 + x) - (2^23 + 16): no conversion left.
  // CHECK-LABEL: llvm.func @minus_constant
  // CHECK-SAME: (%[[X:.+]]: i8)
  // CHECK-NOT: llvm.uitofp
  // CHECK: %[[W:.+]] = llvm.zext %[[X]] : i8 to i32
  // CHECK: %[[BITS:.+]] = llvm.mlir.constant(1258291200 : i32) : i32
  // CHECK: %[[O:.+]] = llvm.or %[[W]], %[[BITS]] : i32
  // CHECK: %[[B:.+]] = llvm.bitcast %[[O]] : i32 to f32
  // CHECK: %[[K:.+]] = llvm.mlir.constant(0x4B000010 : f32) : f32
  // CHECK: %[[D:.+]] = llvm.fsub %[[B]], %[[K]] : f32
  // CHECK: llvm.return %[[D]]
  llvm.func @minus_constant(%x: i8) -> f32 {
    %k = llvm.mlir.constant(16.0 : f32) : f32
    %f = llvm.uitofp %x : i8 to f32
    %d = llvm.fsub %f, %k : f32
    llvm.return %d : f32
  }

  // K + x is x - (-K): (2^23 + x) - (2^23 + 128) for K = -128; the
  // constant on the left of a subtraction stays there (2^23 + 255).
  // CHECK-LABEL: llvm.func @plus_and_reversed
  // CHECK-NOT: llvm.uitofp
  // CHECK: %[[B:.+]] = llvm.bitcast
  // CHECK: %[[K1:.+]] = llvm.mlir.constant(0x4B000080 : f32) : f32
  // CHECK: llvm.fsub %[[B]], %[[K1]] : f32
  // CHECK: %[[K2:.+]] = llvm.mlir.constant(0x4B0000FF : f32) : f32
  // CHECK: llvm.fsub %[[K2]], %[[B]] : f32
  llvm.func @plus_and_reversed(%x: i16) -> f32 {
    %k1 = llvm.mlir.constant(-128.0 : f32) : f32
    %k2 = llvm.mlir.constant(255.0 : f32) : f32
    %f = llvm.uitofp %x : i16 to f32
    %a = llvm.fadd %k1, %f : f32
    %b = llvm.fsub %k2, %f : f32
    %s = llvm.fmul %a, %b : f32
    llvm.return %s : f32
  }

  // A difference of two conversions: both biased, one subtraction; the
  // flags of the subtraction are kept.
  // CHECK-LABEL: llvm.func @difference
  // CHECK-NOT: llvm.uitofp
  // CHECK: %[[A:.+]] = llvm.bitcast %{{.+}} : i32 to f32
  // CHECK: %[[B:.+]] = llvm.bitcast %{{.+}} : i32 to f32
  // CHECK: llvm.fsub %[[A]], %[[B]] {fastmathFlags = #llvm.fastmath<contract>} : f32
  llvm.func @difference(%x: i8, %y: i8) -> f32 {
    %a = llvm.uitofp %x : i8 to f32
    %b = llvm.uitofp %y : i8 to f32
    %d = llvm.fsub %a, %b {fastmathFlags = #llvm.fastmath<contract>} : f32
    llvm.return %d : f32
  }

  // Vectors: the constants are splats.
  // CHECK-LABEL: llvm.func @vector
  // CHECK-NOT: llvm.uitofp
  // CHECK: llvm.zext %{{.+}} : vector<4xi8> to vector<4xi32>
  // CHECK: llvm.mlir.constant(dense<1258291200> : vector<4xi32>) : vector<4xi32>
  // CHECK: llvm.bitcast %{{.+}} : vector<4xi32> to vector<4xf32>
  // CHECK: llvm.mlir.constant(dense<0x4B000080> : vector<4xf32>) : vector<4xf32>
  llvm.func @vector(%x: vector<4xi8>) -> vector<4xf32> {
    %k = llvm.mlir.constant(dense<128.0> : vector<4xf32>) : vector<4xf32>
    %f = llvm.uitofp %x : vector<4xi8> to vector<4xf32>
    %d = llvm.fsub %f, %k : vector<4xf32>
    llvm.return %d : vector<4xf32>
  }

  // A constant element of a vector load's bytes: one `prmt` of its word
  // with the exponent's word (x's byte, then 0x00, 0x00, 0x4B: selector
  // 0x7540 | k % 4 for bytes, 0x74 (2j+1) (2j) for half j of a word of
  // u16s); an element at a run-time index keeps the zero-extension and
  // the `or`.
  // CHECK-LABEL: llvm.func @vector_elements
  // CHECK-SAME: (%[[V:[^:]+]]: vector<16xi8>, %[[H:[^:]+]]: vector<8xi16>, %{{[^:]+}}: i32)
  // CHECK-NOT: llvm.uitofp
  // CHECK: %[[WS:.+]] = llvm.bitcast %[[V]] : vector<16xi8> to vector<4xi32>
  // CHECK: %[[ONE:.+]] = llvm.mlir.constant(1 : i64) : i64
  // CHECK: %[[W:.+]] = llvm.extractelement %[[WS]][%[[ONE]] : i64] : vector<4xi32>
  // CHECK: %[[BIAS:.+]] = llvm.mlir.constant(1258291200 : i32) : i32
  // CHECK: %[[SEL:.+]] = llvm.mlir.constant(30017 : i32) : i32
  // CHECK: %[[P:.+]] = llvm.call_intrinsic "llvm.nvvm.prmt"(%[[W]], %[[BIAS]], %[[SEL]]) : (i32, i32, i32) -> i32
  // CHECK: llvm.bitcast %[[P]] : i32 to f32
  // CHECK: llvm.bitcast %[[H]] : vector<8xi16> to vector<4xi32>
  // CHECK: llvm.mlir.constant(29746 : i32) : i32
  // CHECK: llvm.call_intrinsic "llvm.nvvm.prmt"
  // CHECK: %[[Z:.+]] = llvm.zext %{{.+}} : i8 to i32
  // CHECK: llvm.or %[[Z]]
  llvm.func @vector_elements(%v: vector<16xi8>, %h: vector<8xi16>, %i: i32) -> f32 {
    %k = llvm.mlir.constant(16.0 : f32) : f32
    %five = llvm.mlir.constant(5 : i64) : i64
    %three = llvm.mlir.constant(3 : i64) : i64
    %x = llvm.extractelement %v[%five : i64] : vector<16xi8>
    %y = llvm.extractelement %h[%three : i64] : vector<8xi16>
    %z = llvm.extractelement %v[%i : i32] : vector<16xi8>
    %fx = llvm.uitofp %x : i8 to f32
    %fy = llvm.uitofp %y : i16 to f32
    %fz = llvm.uitofp %z : i8 to f32
    %a = llvm.fsub %fx, %k : f32
    %b = llvm.fsub %fy, %k : f32
    %c = llvm.fsub %fz, %k : f32
    %s = llvm.fmul %a, %b : f32
    %t = llvm.fmul %s, %c : f32
    llvm.return %t : f32
  }

  // Left alone: a product (the bias does not fold), a constant that is
  // not an integer, one of 2^23 (2^23 + K is not exact), a sum of two
  // conversions, a wider integer, the partner of a conversion that stays
  // (x - y needs y's bias too), and -0 - x (-0 for x = 0, where the biased
  // difference is +0).
  // CHECK-LABEL: llvm.func @kept
  // CHECK-COUNT-8: llvm.uitofp
  // CHECK-NOT: llvm.or
  llvm.func @kept(%x: i8, %y: i8, %z: i32, %w: f32) -> f32 {
    %half = llvm.mlir.constant(0.5 : f32) : f32
    %big = llvm.mlir.constant(8388608.0 : f32) : f32
    %a = llvm.uitofp %x : i8 to f32
    %p = llvm.fmul %a, %w : f32
    %b = llvm.uitofp %x : i8 to f32
    %q = llvm.fsub %b, %half : f32
    %c = llvm.uitofp %x : i8 to f32
    %r = llvm.fadd %c, %big : f32
    %d = llvm.uitofp %x : i8 to f32
    %e = llvm.uitofp %y : i8 to f32
    %s = llvm.fadd %d, %e : f32
    %g = llvm.uitofp %z : i32 to f32
    %t = llvm.fsub %g, %half : f32
    %h = llvm.uitofp %y : i8 to f32
    %u = llvm.fsub %h, %a : f32
    %mz = llvm.mlir.constant(-0.0 : f32) : f32
    %n = llvm.uitofp %y : i8 to f32
    %v = llvm.fsub %mz, %n : f32
    %s1 = llvm.fadd %p, %q : f32
    %s2 = llvm.fadd %r, %s : f32
    %s3 = llvm.fadd %t, %u : f32
    %s4 = llvm.fadd %s1, %s2 : f32
    %s5 = llvm.fadd %s4, %s3 : f32
    %s6 = llvm.fadd %s5, %v : f32
    llvm.return %s6 : f32
  }
}
