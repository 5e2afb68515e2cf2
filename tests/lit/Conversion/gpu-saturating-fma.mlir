// arvr-gpu-saturating-fma: u8_sat (clamp at 0 then 255, round to nearest
// even, convert to i8) in a launch becomes a saturating FMA by f32's least
// subnormal (0x1p-149, printed 1.401298e-45) and an integer min of its
// bits, for any value (a lerp of bytes, a parameter), and where one clamp
// is gone (with the clamp at 255 gone, an integer move for the min); a
// rounding converted with no clamp (one conversion), a clamp to another
// bound and a conversion to another width are left.
// RUN: arvr-opt %s --arvr-gpu-saturating-fma | FileCheck %s

// CHECK-LABEL: func.func @lerp
// CHECK: %[[X:.+]] = math.fma %{{.+}}, %{{.+}}, %{{.+}} : f32
// CHECK: %[[S:.+]] = llvm.call_intrinsic "llvm.nvvm.fma.rn.sat.f"(%[[X]], %[[K:.+]], %[[Z:.+]]) : (f32, f32, f32) -> f32
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

// A parameter, any f32; a chain whose clamp at 0 arvr-redundant-clamps
// dropped (x above -1/2), the FMA on x itself; one clamped at 255 before 0
// (NaN gives 255): the FMA takes the value clamped at 255.
// CHECK-LABEL: func.func @chains
// CHECK: llvm.call_intrinsic "llvm.nvvm.fma.rn.sat.f"(%arg1,
// CHECK: llvm.call_intrinsic "llvm.nvvm.fma.rn.sat.f"(%arg1,
// CHECK: %[[FIRST:.+]] = arith.minnumf %arg1, %{{.+}} : f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.fma.rn.sat.f"(%[[FIRST]],
// CHECK-NOT: arith.fptoui
// CHECK: gpu.terminator
func.func @chains(%out: memref<?xi8>, %p: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %max = arith.constant 255.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %lo = arith.maxnumf %p, %zero : f32
    %hi = arith.minnumf %lo, %max : f32
    %r = math.roundeven %hi : f32
    %y = arith.fptoui %r : f32 to i8
    memref.store %y, %out[%c0] : memref<?xi8>
    %hi2 = arith.minnumf %p, %max : f32
    %r2 = math.roundeven %hi2 : f32
    %y2 = arith.fptoui %r2 : f32 to i8
    memref.store %y2, %out[%c1] : memref<?xi8>
    %hi3 = arith.minnumf %p, %max : f32
    %lo3 = arith.maxnumf %hi3, %zero : f32
    %r3 = math.roundeven %lo3 : f32
    %y3 = arith.fptoui %r3 : f32 to i8
    memref.store %y3, %out[%c2] : memref<?xi8>
    gpu.terminator
  }
  return
}

// The clamp at 255 gone (arvr-redundant-clamps proved the value below
// 255.5, or NaN: a bilinear sample's lerp of bytes): the FMA's bits are at
// most 255, and no min follows; they pass through an integer move (a byte
// store of the FMA's own register, ptxas compiles as a conversion of its
// value).
// CHECK-LABEL: func.func @uncapped
// CHECK: %[[S:.+]] = llvm.call_intrinsic "llvm.nvvm.fma.rn.sat.f"(%arg1,
// CHECK-NEXT: %[[B:.+]] = arith.bitcast %[[S]] : f32 to i32
// CHECK-NEXT: %[[M:.+]] = llvm.call_intrinsic "llvm.nvvm.move.i32"(%[[B]]) : (i32) -> i32
// CHECK-NEXT: %[[Y:.+]] = arith.trunci %[[M]] : i32 to i8
// CHECK-NEXT: memref.store %[[Y]]
// CHECK-NOT: arith.minui
// CHECK: gpu.terminator
func.func @uncapped(%out: memref<?xi8>, %p: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %lo = arith.maxnumf %p, %zero : f32
    %r = math.roundeven %lo : f32
    %y = arith.fptoui %r : f32 to i8
    memref.store %y, %out[%c0] : memref<?xi8>
    gpu.terminator
  }
  return
}

// No clamp left (one conversion already), a clamp at 254, a conversion to
// i16, and a chain outside any launch (the CPU's): left.
// CHECK-LABEL: func.func @left
// CHECK-NOT: llvm.call_intrinsic
// CHECK: arith.fptoui %{{.+}} : f32 to i8
// CHECK: arith.fptoui %{{.+}} : f32 to i8
// CHECK: arith.fptoui %{{.+}} : f32 to i16
// CHECK: gpu.terminator
// CHECK: arith.fptoui %{{.+}} : f32 to i8
// CHECK-NOT: llvm.call_intrinsic
// CHECK: return
func.func @left(%out: memref<?xi8>, %wide: memref<?xi16>, %p: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %max = arith.constant 255.0 : f32
  %other = arith.constant 254.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %r = math.roundeven %p : f32
    %y = arith.fptoui %r : f32 to i8
    memref.store %y, %out[%c0] : memref<?xi8>
    %lo = arith.maxnumf %p, %zero : f32
    %hi = arith.minnumf %lo, %other : f32
    %r2 = math.roundeven %hi : f32
    %y2 = arith.fptoui %r2 : f32 to i8
    memref.store %y2, %out[%c1] : memref<?xi8>
    %hi3 = arith.minnumf %lo, %max : f32
    %r3 = math.roundeven %hi3 : f32
    %y3 = arith.fptoui %r3 : f32 to i16
    memref.store %y3, %wide[%c0] : memref<?xi16>
    gpu.terminator
  }
  %lo4 = arith.maxnumf %p, %zero : f32
  %hi4 = arith.minnumf %lo4, %max : f32
  %r4 = math.roundeven %hi4 : f32
  %y4 = arith.fptoui %r4 : f32 to i8
  memref.store %y4, %out[%c0] : memref<?xi8>
  return
}
