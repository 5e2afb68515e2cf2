// arvr-gpu-byte-floats: a byte of a loaded vector converted to f32 becomes
// a byte permute under the exponent of 2^23 and a subtraction of 2^23 (or
// of 2^23 plus the whole constant its one user subtracts); other
// conversions stay.
// RUN: arvr-opt %s --pass-pipeline='builtin.module(gpu.module(arvr-gpu-byte-floats))' | FileCheck %s

gpu.module @kernels {
  // Byte 2 of a word: selector 0x7542 (byte 2, two zero bytes, 0x4B).
  // CHECK-LABEL: llvm.func @of_word
  // CHECK-SAME: (%[[V:.+]]: vector<4xi8>)
  // CHECK-DAG: %[[BIAS:.+]] = llvm.mlir.constant(0x4B000000 : f32) : f32
  // CHECK-DAG: %[[HI:.+]] = llvm.mlir.constant(1258291200 : i32) : i32
  // CHECK-DAG: %[[SEL:.+]] = llvm.mlir.constant(30018 : i32) : i32
  // CHECK-DAG: %[[W:.+]] = llvm.bitcast %[[V]] : vector<4xi8> to i32
  // CHECK: %[[P:.+]] = nvvm.prmt <default> %[[SEL]], %[[W]], %[[HI]] : i32
  // CHECK: %[[F:.+]] = llvm.bitcast %[[P]] : i32 to f32
  // CHECK: %[[R:.+]] = llvm.fsub %[[F]], %[[BIAS]] : f32
  // CHECK-NOT: llvm.uitofp
  // CHECK: llvm.return %[[R]]
  llvm.func @of_word(%v: vector<4xi8>) -> f32 {
    %k = llvm.mlir.constant(2 : i64) : i64
    %b = llvm.extractelement %v[%k : i64] : vector<4xi8>
    %f = llvm.uitofp %b : i8 to f32
    llvm.return %f : f32
  }

  // Byte 13 of 16: word 3, byte 1 of it.
  // CHECK-LABEL: llvm.func @of_four_words
  // CHECK-SAME: (%[[V:.+]]: vector<16xi8>)
  // CHECK-DAG: %[[SEL:.+]] = llvm.mlir.constant(30017 : i32) : i32
  // CHECK-DAG: %[[THREE:.+]] = llvm.mlir.constant(3 : i32) : i32
  // CHECK-DAG: %[[WS:.+]] = llvm.bitcast %[[V]] : vector<16xi8> to vector<4xi32>
  // CHECK: %[[W:.+]] = llvm.extractelement %[[WS]][%[[THREE]] : i32] : vector<4xi32>
  // CHECK: nvvm.prmt <default> %[[SEL]], %[[W]], %{{.+}} : i32
  llvm.func @of_four_words(%v: vector<16xi8>) -> f32 {
    %k = llvm.mlir.constant(13 : i64) : i64
    %b = llvm.extractelement %v[%k : i64] : vector<16xi8>
    %f = llvm.uitofp %b : i8 to f32
    llvm.return %f : f32
  }

  // A whole constant subtracted (16) or added (-128) by the one user: the
  // bias joins it, 2^23 + 16 and -128 - 2^23; no other subtraction.
  // CHECK-LABEL: llvm.func @folded
  // CHECK-DAG: %[[C16:.+]] = llvm.mlir.constant(0x4B000010 : f32) : f32
  // CHECK-DAG: %[[C128:.+]] = llvm.mlir.constant(0xCB000080 : f32) : f32
  // CHECK: %[[F:.+]] = llvm.bitcast %{{.+}} : i32 to f32
  // CHECK-NEXT: %[[Y:.+]] = llvm.fsub %[[F]], %[[C16]] : f32
  // CHECK: %[[G:.+]] = llvm.bitcast %{{.+}} : i32 to f32
  // CHECK-NEXT: %[[U:.+]] = llvm.fadd %[[G]], %[[C128]] : f32
  // CHECK-NEXT: llvm.fmul %[[Y]], %[[U]]
  llvm.func @folded(%v: vector<4xi8>) -> f32 {
    %k0 = llvm.mlir.constant(0 : i64) : i64
    %k1 = llvm.mlir.constant(1 : i64) : i64
    %c16 = llvm.mlir.constant(16.0 : f32) : f32
    %cm128 = llvm.mlir.constant(-128.0 : f32) : f32
    %b0 = llvm.extractelement %v[%k0 : i64] : vector<4xi8>
    %f0 = llvm.uitofp %b0 : i8 to f32
    %y = llvm.fsub %f0, %c16 : f32
    %b1 = llvm.extractelement %v[%k1 : i64] : vector<4xi8>
    %f1 = llvm.uitofp %b1 : i8 to f32
    %u = llvm.fadd %cm128, %f1 : f32
    %r = llvm.fmul %y, %u : f32
    llvm.return %r : f32
  }

  // Not folded: a constant that is not whole, one above 2^22, a
  // subtraction from the constant, two users: each keeps its operation
  // after the subtraction of 2^23.
  // CHECK-LABEL: llvm.func @not_folded
  // CHECK-DAG: %[[HALF:.+]] = llvm.mlir.constant(5.000000e-01 : f32) : f32
  // CHECK-DAG: %[[BIAS:.+]] = llvm.mlir.constant(0x4B000000 : f32) : f32
  // CHECK: %[[A0:.+]] = llvm.fsub %{{.+}}, %[[BIAS]] : f32
  // CHECK-NEXT: llvm.fsub %[[A0]], %[[HALF]] : f32
  // CHECK: %[[B0:.+]] = llvm.fsub %{{.+}}, %[[BIAS]] : f32
  // CHECK-NEXT: llvm.fsub %[[B0]], %[[BIAS]] : f32
  // CHECK: %[[C0:.+]] = llvm.fsub %{{.+}}, %[[BIAS]] : f32
  // CHECK-NEXT: llvm.fsub %[[HALF]], %[[C0]] : f32
  // CHECK: %[[D0:.+]] = llvm.fsub %{{.+}}, %[[BIAS]] : f32
  // CHECK-NEXT: llvm.fmul %[[D0]], %[[D0]] : f32
  // CHECK-NOT: llvm.uitofp
  llvm.func @not_folded(%v: vector<4xi8>) -> f32 {
    %k0 = llvm.mlir.constant(0 : i64) : i64
    %k1 = llvm.mlir.constant(1 : i64) : i64
    %k2 = llvm.mlir.constant(2 : i64) : i64
    %k3 = llvm.mlir.constant(3 : i64) : i64
    %half = llvm.mlir.constant(0.5 : f32) : f32
    %big = llvm.mlir.constant(8388608.0 : f32) : f32
    %b0 = llvm.extractelement %v[%k0 : i64] : vector<4xi8>
    %f0 = llvm.uitofp %b0 : i8 to f32
    %a = llvm.fsub %f0, %half : f32
    %b1 = llvm.extractelement %v[%k1 : i64] : vector<4xi8>
    %f1 = llvm.uitofp %b1 : i8 to f32
    %b = llvm.fsub %f1, %big : f32
    %b2 = llvm.extractelement %v[%k2 : i64] : vector<4xi8>
    %f2 = llvm.uitofp %b2 : i8 to f32
    %c = llvm.fsub %half, %f2 : f32
    %b3 = llvm.extractelement %v[%k3 : i64] : vector<4xi8>
    %f3 = llvm.uitofp %b3 : i8 to f32
    %d = llvm.fmul %f3, %f3 : f32
    %s1 = llvm.fadd %a, %b : f32
    %s2 = llvm.fadd %c, %d : f32
    %s = llvm.fadd %s1, %s2 : f32
    llvm.return %s : f32
  }

  // Left alone: a byte loaded alone, a non-constant position, a vector of
  // 3 bytes, a conversion to f64.
  // CHECK-LABEL: llvm.func @left
  // CHECK-NOT: nvvm.prmt
  // CHECK-COUNT-4: llvm.uitofp
  llvm.func @left(%p: !llvm.ptr, %v: vector<4xi8>, %i: i64, %w: vector<3xi8>) -> f64 {
    %k = llvm.mlir.constant(1 : i64) : i64
    %b0 = llvm.load %p : !llvm.ptr -> i8
    %f0 = llvm.uitofp %b0 : i8 to f32
    %b1 = llvm.extractelement %v[%i : i64] : vector<4xi8>
    %f1 = llvm.uitofp %b1 : i8 to f32
    %b2 = llvm.extractelement %w[%k : i64] : vector<3xi8>
    %f2 = llvm.uitofp %b2 : i8 to f32
    %b3 = llvm.extractelement %v[%k : i64] : vector<4xi8>
    %f3 = llvm.uitofp %b3 : i8 to f64
    %s = llvm.fadd %f0, %f1 : f32
    %t = llvm.fadd %s, %f2 : f32
    %e = llvm.fpext %t : f32 to f64
    %r = llvm.fadd %e, %f3 : f64
    llvm.return %r : f64
  }
}
