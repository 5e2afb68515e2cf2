// arvr-gpu-module-to-ptx: each gpu.module to a gpu.binary of PTX, as
// gpu-module-to-binary (format isa) makes it; a module whose only
// definitions are kernels, with no globals (@apart), has each kernel
// optimised, and taken through the backend's IR passes, in a module of
// its own, the kernels linked back in their order and the backend started
// at instruction selection; one with a global (@whole) is optimised
// whole. The PTX is gpu-module-to-binary's, byte for byte (its objects
// also carry the time the backend took, which this pass leaves out: the
// cache's entries stay the same from one build to the next), with
// `backend-level=3`; by default the backend runs at -O2 (@level below).
// RUN: arvr-opt %s --pass-pipeline='builtin.module(arvr-gpu-module-to-ptx{backend-level=3})' > %t.apart
// RUN: FileCheck %s < %t.apart
// RUN: arvr-opt %s --pass-pipeline='builtin.module(gpu-module-to-binary{format=isa})' | sed -e 's/LLVMIRToISATimeInMs = [0-9]* : i64, //' > %t.whole
// RUN: diff %t.apart %t.whole

// CHECK-NOT: gpu.module
// CHECK: gpu.binary @apart {{ *}}[#gpu.object<#nvvm.target<O = 3, chip = "sm_90">, properties = {O = 3 : i32}, assembly = "
// CHECK-SAME: .target sm_90
// CHECK-SAME: .visible .entry scale(
// CHECK-SAME: mul.rn.f32
// CHECK-SAME: .visible .entry negate(
// CHECK-SAME: neg.f32
// CHECK: gpu.binary @whole {{ *}}[#gpu.object<#nvvm.target<O = 3, chip = "sm_90">, properties = {O = 3 : i32}, assembly = "
// CHECK-SAME: .global .align 4 .b8 table
// CHECK-SAME: .visible .entry lookup(
// CHECK-SAME: .visible .entry copy(

module attributes {gpu.container_module} {
  gpu.module @apart [#nvvm.target<O = 3, chip = "sm_90">] {
    llvm.func @scale(%p: !llvm.ptr, %k: f32) attributes {gpu.kernel, nvvm.kernel} {
      %x = llvm.load %p : !llvm.ptr -> f32
      %y = llvm.fmul %x, %k : f32
      llvm.store %y, %p : f32, !llvm.ptr
      llvm.return
    }
    llvm.func @negate(%p: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %x = llvm.load %p : !llvm.ptr -> f32
      %y = llvm.fneg %x : f32
      llvm.store %y, %p : f32, !llvm.ptr
      llvm.return
    }
  }
  gpu.module @whole [#nvvm.target<O = 3, chip = "sm_90">] {
    llvm.mlir.global internal constant @table(dense<[1.0, 2.0, 4.0, 8.0]> : tensor<4xf32>) {addr_space = 1 : i32} : !llvm.array<4 x f32>
    llvm.func @lookup(%p: !llvm.ptr, %i: i32) attributes {gpu.kernel, nvvm.kernel} {
      %t = llvm.mlir.addressof @table : !llvm.ptr<1>
      %e = llvm.getelementptr %t[0, %i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, !llvm.array<4 x f32>
      %x = llvm.load %e : !llvm.ptr<1> -> f32
      llvm.store %x, %p : f32, !llvm.ptr
      llvm.return
    }
    llvm.func @copy(%p: !llvm.ptr, %q: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %x = llvm.load %q : !llvm.ptr -> f32
      llvm.store %x, %p : f32, !llvm.ptr
      llvm.return
    }
  }
  // A loop reduced from brightness_contrast's kernel (llvm-reduce) whose
  // PTX differs at -O2 and -O3: -O3's GVN after strength reduction folds
  // the second store's address, p + zext(n + 1), to a 64-bit add of the
  // constant 2^31 (the index is only stored to when n + 1 wraps).
  gpu.module @level [#nvvm.target<O = 3, chip = "sm_90">] {
    llvm.func @fill(%p: !llvm.ptr, %n: i32) attributes {gpu.kernel, nvvm.kernel} {
      %zero = llvm.mlir.constant(0 : i32) : i32
      %byte = llvm.mlir.constant(0 : i8) : i8
      %one = llvm.mlir.constant(1 : i32) : i32
      llvm.br ^head(%zero : i32)
    ^head(%i: i32):
      %more = llvm.icmp "slt" %i, %n : i32
      llvm.cond_br %more, ^body, ^done
    ^body:
      %wide = llvm.zext %i : i32 to i64
      %at = llvm.getelementptr %p[%wide] : (!llvm.ptr, i64) -> !llvm.ptr, i8
      llvm.store %byte, %at : i8, !llvm.ptr
      %next = llvm.add %n, %one : i32
      llvm.br ^head(%next : i32)
    ^done:
      llvm.return
    }
  }
  // The same loop in two kernels: optimised apart, they go through the
  // backend's IR passes apart too, at its level (-O2's EarlyCSE or -O3's
  // GVN after strength reduction, as @level shows), and the backend
  // starts at instruction selection.
  gpu.module @level_apart [#nvvm.target<O = 3, chip = "sm_90">] {
    llvm.func @fill(%p: !llvm.ptr, %n: i32) attributes {gpu.kernel, nvvm.kernel} {
      %zero = llvm.mlir.constant(0 : i32) : i32
      %byte = llvm.mlir.constant(0 : i8) : i8
      %one = llvm.mlir.constant(1 : i32) : i32
      llvm.br ^head(%zero : i32)
    ^head(%i: i32):
      %more = llvm.icmp "slt" %i, %n : i32
      llvm.cond_br %more, ^body, ^done
    ^body:
      %wide = llvm.zext %i : i32 to i64
      %at = llvm.getelementptr %p[%wide] : (!llvm.ptr, i64) -> !llvm.ptr, i8
      llvm.store %byte, %at : i8, !llvm.ptr
      %next = llvm.add %n, %one : i32
      llvm.br ^head(%next : i32)
    ^done:
      llvm.return
    }
    llvm.func @fill_again(%p: !llvm.ptr, %n: i32) attributes {gpu.kernel, nvvm.kernel} {
      %zero = llvm.mlir.constant(0 : i32) : i32
      %byte = llvm.mlir.constant(0 : i8) : i8
      %one = llvm.mlir.constant(1 : i32) : i32
      llvm.br ^head(%zero : i32)
    ^head(%i: i32):
      %more = llvm.icmp "slt" %i, %n : i32
      llvm.cond_br %more, ^body, ^done
    ^body:
      %wide = llvm.zext %i : i32 to i64
      %at = llvm.getelementptr %p[%wide] : (!llvm.ptr, i64) -> !llvm.ptr, i8
      llvm.store %byte, %at : i8, !llvm.ptr
      %next = llvm.add %n, %one : i32
      llvm.br ^head(%next : i32)
    ^done:
      llvm.return
    }
  }
}

// RUN: arvr-opt %s --pass-pipeline='builtin.module(arvr-gpu-module-to-ptx)' | FileCheck %s --check-prefix=O2
// RUN: arvr-opt %s --pass-pipeline='builtin.module(arvr-gpu-module-to-ptx{backend-level=3})' | FileCheck %s --check-prefix=O3
// RUN: not arvr-opt %s --pass-pipeline='builtin.module(arvr-gpu-module-to-ptx{backend-level=4})' 2>&1 | FileCheck %s --check-prefix=BAD
// O2: gpu.binary @level
// O2-SAME: cvt.u64.u32
// O2-NOT: 2147483648
// O2: gpu.binary @level_apart
// O2-SAME: .entry fill(
// O2-SAME: cvt.u64.u32
// O2-SAME: .entry fill_again(
// O2-SAME: cvt.u64.u32
// O2-NOT: 2147483648
// O3: gpu.binary @level
// O3-NOT: cvt.u64.u32
// O3-SAME: add.s64 {{.*}}, 2147483648;
// O3: gpu.binary @level_apart
// O3-NOT: cvt.u64.u32
// O3-SAME: .entry fill(
// O3-SAME: add.s64 {{[^;]*}}, 2147483648;
// O3-SAME: .entry fill_again(
// O3-SAME: add.s64 {{[^;]*}}, 2147483648;
// O3-NOT: cvt.u64.u32
// BAD: backend-level must be 0 to 3, not 4
