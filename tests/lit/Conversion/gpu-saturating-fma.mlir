// arvr-gpu-saturating-fma: u8_sat (clamp at 0 then 255, round to nearest
// even, convert to i8) of a value the f32 ranges put at 0 or above, or NaN,
// becomes a saturating FMA by f32's least subnormal (0x1p-149, printed
// 1.401298e-45) and an integer min of its bits. A bilinear lerp of bytes
// with the weight u - floor(u) (in [0, 1], NaN for an infinite u) is such
// a value, also through an scf.if; a value that may be negative is left.
// RUN: arvr-opt %s --arvr-gpu-saturating-fma | FileCheck %s

// CHECK-LABEL: func.func @lerp
// CHECK: %[[T:.+]] = arith.subf %[[U:.+]], %{{.+}} : f32
// CHECK: %[[X:.+]] = math.fma %[[T]], %{{.+}}, %{{.+}} : f32
// CHECK: %[[S:.+]] = llvm.call_intrinsic "llvm.nvvm.fma.rn.sat.f"(%[[X]], %{{.+}}, %{{.+}}) : (f32, f32, f32) -> f32
// CHECK: %[[B:.+]] = arith.bitcast %[[S]] : f32 to i32
// CHECK: %[[M:.+]] = arith.minui %[[B]], %{{.+}} : i32
// CHECK: %[[Y:.+]] = arith.trunci %[[M]] : i32 to i8
// CHECK: memref.store %[[Y]]
// CHECK-NOT: arith.fptoui
// CHECK: gpu.terminator
func.func @lerp(%in: memref<?xi8>, %out: memref<?xi8>, %u: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %max = arith.constant 255.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %f = math.floor %u : f32
    %t = arith.subf %u, %f : f32
    %pa = memref.load %in[%c0] : memref<?xi8>
    %pb = memref.load %in[%c1] : memref<?xi8>
    %a = arith.uitofp %pa : i8 to f32
    %b = arith.uitofp %pb : i8 to f32
    %d = arith.subf %b, %a : f32
    %x = math.fma %t, %d, %a : f32
    %lo = arith.maxnumf %x, %zero : f32
    %hi = arith.minnumf %lo, %max : f32
    %r = math.roundeven %hi : f32
    %y = arith.fptoui %r : f32 to i8
    memref.store %y, %out[%c0] : memref<?xi8>
    gpu.terminator
  }
  return
}

// The pixels come out of an if (a sample's plain or bounded reads): the
// range is what either branch yields. The clamp at 255 may be gone.
// CHECK-LABEL: func.func @through_if
// CHECK: scf.if
// CHECK: llvm.call_intrinsic "llvm.nvvm.fma.rn.sat.f"
// CHECK: arith.minui
// CHECK-NOT: arith.fptoui
// CHECK: gpu.terminator
func.func @through_if(%in: memref<?xi8>, %out: memref<?xi8>, %u: f32,
                      %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %f = math.floor %u : f32
    %t = arith.subf %u, %f : f32
    %a, %b = scf.if %c -> (f32, f32) {
      %pa = memref.load %in[%c0] : memref<?xi8>
      %pb = memref.load %in[%c1] : memref<?xi8>
      %fa = arith.uitofp %pa : i8 to f32
      %fb = arith.uitofp %pb : i8 to f32
      scf.yield %fa, %fb : f32, f32
    } else {
      scf.yield %zero, %zero : f32, f32
    }
    %d = arith.subf %b, %a : f32
    %x = math.fma %t, %d, %a : f32
    %lo = arith.maxnumf %x, %zero : f32
    %r = math.roundeven %lo : f32
    %y = arith.fptoui %r : f32 to i8
    memref.store %y, %out[%c0] : memref<?xi8>
    gpu.terminator
  }
  return
}

// A parameter, or a difference of bytes, may be negative (a negative value
// could give -0, whose bits are not 0): both left.
// CHECK-LABEL: func.func @left
// CHECK-NOT: llvm.call_intrinsic
// CHECK: arith.fptoui
// CHECK-NOT: llvm.call_intrinsic
// CHECK: arith.fptoui
// CHECK-NOT: llvm.call_intrinsic
// CHECK: gpu.terminator
func.func @left(%in: memref<?xi8>, %out: memref<?xi8>, %p: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %max = arith.constant 255.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %lo = arith.maxnumf %p, %zero : f32
    %hi = arith.minnumf %lo, %max : f32
    %r = math.roundeven %hi : f32
    %y = arith.fptoui %r : f32 to i8
    memref.store %y, %out[%c0] : memref<?xi8>
    %pa = memref.load %in[%c0] : memref<?xi8>
    %pb = memref.load %in[%c1] : memref<?xi8>
    %a = arith.uitofp %pa : i8 to f32
    %b = arith.uitofp %pb : i8 to f32
    %x = arith.subf %a, %b : f32
    %lo2 = arith.maxnumf %x, %zero : f32
    %hi2 = arith.minnumf %lo2, %max : f32
    %r2 = math.roundeven %hi2 : f32
    %y2 = arith.fptoui %r2 : f32 to i8
    memref.store %y2, %out[%c1] : memref<?xi8>
    gpu.terminator
  }
  return
}
