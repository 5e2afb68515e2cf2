// arvr-gpu-byte-conversions: small unsigned integers become floats through
// the bits of 2^23 + n, the lowered u8_sat (clamp to [0, 255], round to
// nearest even, convert) becomes the clamped value plus 2^23 (its bits
// through an integer min, so that ptxas stores them), and a whole
// constant added to a converted byte joins its 2^23; other conversions
// stay.
// RUN: arvr-opt %s --pass-pipeline='builtin.module(gpu.module(arvr-gpu-byte-conversions))' | FileCheck %s

gpu.module @kernels {
  // CHECK-LABEL: llvm.func @u8_sat
  // CHECK-SAME: (%[[X:.+]]: f32)
  // CHECK: %[[A:.+]] = llvm.intr.maxnum(%[[X]], %{{.+}})
  // CHECK: %[[B:.+]] = llvm.intr.minnum(%[[A]], %{{.+}})
  // CHECK: %[[S:.+]] = llvm.fadd %[[B]], %{{.+}} : f32
  // CHECK: %[[I:.+]] = llvm.bitcast %[[S]] : f32 to i32
  // CHECK: %[[M:.+]] = llvm.intr.umin(%[[I]], %{{.+}}) : (i32, i32) -> i32
  // CHECK: %[[T:.+]] = llvm.trunc %[[M]] : i32 to i8
  // CHECK: llvm.return %[[T]]
  // CHECK-NOT: fptoui
  llvm.func @u8_sat(%x: f32) -> i8 {
    %zero = llvm.mlir.constant(0.0 : f32) : f32
    %max = llvm.mlir.constant(255.0 : f32) : f32
    %a = llvm.intr.maxnum(%x, %zero) : (f32, f32) -> f32
    %b = llvm.intr.minnum(%a, %max) : (f32, f32) -> f32
    %c = llvm.intr.roundeven(%b) : (f32) -> f32
    %d = llvm.fptoui %c : f32 to i8
    llvm.return %d : i8
  }

  // A clamp to another range, or a conversion without rounding, is left.
  // CHECK-LABEL: llvm.func @other_range
  // CHECK: llvm.fptoui
  // CHECK-LABEL: llvm.func @no_rounding
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

  // A byte: zero-extended, its bits joined to those of 2^23 (0x4B000000),
  // read as a float, less 2^23. The same for a vector of u16.
  // CHECK-LABEL: llvm.func @byte
  // CHECK-SAME: (%[[B:.+]]: i8)
  // CHECK-DAG: %[[BIAS:.+]] = llvm.mlir.constant(0x4B000000 : f32)
  // CHECK-DAG: %[[BITS:.+]] = llvm.mlir.constant(1258291200 : i32)
  // CHECK: %[[W:.+]] = llvm.zext %[[B]] : i8 to i32
  // CHECK: %[[O:.+]] = llvm.or %[[W]], %[[BITS]] : i32
  // CHECK: %[[F:.+]] = llvm.bitcast %[[O]] : i32 to f32
  // CHECK: %[[R:.+]] = llvm.fsub %[[F]], %[[BIAS]] : f32
  // CHECK: llvm.return %[[R]]
  llvm.func @byte(%b: i8) -> f32 {
    %f = llvm.uitofp %b : i8 to f32
    llvm.return %f : f32
  }
  // CHECK-LABEL: llvm.func @halves
  // CHECK: llvm.zext %{{.+}} : vector<4xi16> to vector<4xi32>
  // CHECK: llvm.or %{{.+}}, %{{.+}} : vector<4xi32>
  // CHECK: llvm.bitcast %{{.+}} : vector<4xi32> to vector<4xf32>
  // CHECK: llvm.fsub %{{.+}}, %{{.+}} : vector<4xf32>
  // CHECK-NOT: uitofp
  llvm.func @halves(%h: vector<4xi16>) -> vector<4xf32> {
    %f = llvm.uitofp %h : vector<4xi16> to vector<4xf32>
    llvm.return %f : vector<4xf32>
  }

  // Wider integers, signed ones, and f64 results keep their conversion.
  // CHECK-LABEL: llvm.func @kept
  // CHECK: llvm.uitofp %{{.+}} : i32 to f32
  // CHECK: llvm.sitofp %{{.+}} : i8 to f32
  // CHECK: llvm.uitofp %{{.+}} : i8 to f64
  llvm.func @kept(%w: i32, %s: i8) -> f32 {
    %a = llvm.uitofp %w : i32 to f32
    %b = llvm.sitofp %s : i8 to f32
    %c = llvm.uitofp %s : i8 to f64
    %d = llvm.fptrunc %c : f64 to f32
    %e = llvm.fadd %a, %b : f32
    %f = llvm.fadd %e, %d : f32
    llvm.return %f : f32
  }

  // byte - 128 (NV12's chroma): one subtraction of 2^23 + 128; 128 + byte
  // alike; 0.5 is not whole, 2^24 too large: both stay.
  // CHECK-LABEL: llvm.func @chroma
  // CHECK-DAG: %[[K2:.+]] = llvm.mlir.constant(-8.388480e+06 : f32)
  // CHECK-DAG: %[[K:.+]] = llvm.mlir.constant(0x4B000080 : f32)
  // CHECK: %[[F:.+]] = llvm.bitcast %{{.+}} : i32 to f32
  // CHECK-DAG: %[[U:.+]] = llvm.fsub %[[F]], %{{.+}} : f32
  // CHECK-DAG: llvm.fsub %[[F]], %[[K]] : f32
  // CHECK-DAG: llvm.fadd %[[F]], %[[K2]] : f32
  // CHECK-DAG: llvm.fadd %[[U]], %{{.+}} : f32
  // CHECK-DAG: llvm.fsub %[[U]], %{{.+}} : f32
  llvm.func @chroma(%b: i8) -> f32 {
    %c128 = llvm.mlir.constant(128.0 : f32) : f32
    %half = llvm.mlir.constant(0.5 : f32) : f32
    %big = llvm.mlir.constant(16777216.0 : f32) : f32
    %f = llvm.uitofp %b : i8 to f32
    %a = llvm.fsub %f, %c128 : f32
    %p = llvm.fadd %c128, %f : f32
    %h = llvm.fadd %f, %half : f32
    %g = llvm.fsub %f, %big : f32
    %s1 = llvm.fadd %a, %p : f32
    %s2 = llvm.fadd %h, %g : f32
    %s = llvm.fadd %s1, %s2 : f32
    llvm.return %s : f32
  }
}
