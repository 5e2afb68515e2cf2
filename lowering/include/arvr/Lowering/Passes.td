//===- Passes.td - arvr lowering passes -------------------*- tablegen -*-===//
//
// The passes that take an arvr kernel down to loops and onto the GPU.
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_LOWERING_PASSES_TD
#define ARVR_LOWERING_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertArvrToLoops : Pass<"convert-arvr-to-loops", "::mlir::ModuleOp"> {
  let summary = "Lower arvr kernels to scf.parallel loops over memrefs";
  let description = [{
    Each `arvr.kernel` becomes a `func.func` of the same name taking its
    images as `memref<height x width x channels x T>` (row-major, channels
    innermost), its scalars as they are, and then one memref per output
    (destination-passing style). Each output stage becomes an `scf.parallel`
    over `(y, x)` with a sequential `scf.for` over channels, storing the
    value its region yields; accesses become `memref.load`s after their
    boundary handling, as index arithmetic (clamp: `max(0, min(i, size -
    1))`; wrap: `i mod size`; mirror: reflect-101 with period `2 size - 2`;
    constant: a select between the clamped load and the padding). Samples
    become one (nearest, ties to even) or four (bilinear) such loads,
    weighed in f32. Reductions become `scf.for` loops carrying their
    accumulator. The function is marked `llvm.emit_c_interface` for the CPU
    runner.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::math::MathDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"];
}

def ArvrMapToGPU : Pass<"arvr-map-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Map the outermost 2-D scf.parallel loops onto gpu.launch";
  let description = [{
    Replaces every outermost `scf.parallel` over `(y, x)` in a `func.func`
    with a `gpu.launch` of 2-D blocks of `block-x` x `block-y` threads and a
    grid covering the loop's range: thread `(tx, ty)` of block `(bx, by)`
    computes the iteration `x = bx * block-x + tx`, `y = by * block-y + ty`
    when it lies inside the range. The innermost loop dimension goes to
    `threadIdx.x`, so neighbouring threads touch neighbouring pixels.
    Marks the module as a `gpu.container_module`.
  }];
  let options = [
    Option<"blockX", "block-x", "int64_t", "32", "threads per block along x">,
    Option<"blockY", "block-y", "int64_t", "8", "threads per block along y">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect"];
}

def ArvrCpuRowBands : Pass<"arvr-cpu-row-bands", "::mlir::ModuleOp"> {
  let summary = "Let each CPU kernel compute a band of output rows";
  let description = [{
    Appends two `index` arguments, `row_begin` and `row_end`, to every
    kernel function (those marked `llvm.emit_c_interface`) and narrows the
    row range of its outermost `scf.parallel` (over `(y, x)`) to
    `[max(0, row_begin), min(height, row_end))`. The CPU runner then calls
    the function from several threads with disjoint bands, whose union is
    the whole image. Valid while each kernel's loops write only their own
    rows, as the single-stage kernels of convert-arvr-to-loops do.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def ArvrNativeGpuMath : Pass<"arvr-native-gpu-math", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Replace libdevice calls that PTX does in one instruction";
  let description = [{
    convert-gpu-to-nvvm turns math ops (and f32 min/max) into calls to
    CUDA's libdevice (`__nv_rintf`, `__nv_fmaxf`, ...), which must then be
    linked from the CUDA toolkit. For the functions PTX executes in one
    instruction this pass puts back the LLVM intrinsic (roundeven:
    `cvt.rni`, floor, ceil, trunc, fabs, sqrt: `sqrt.rn`, fma, fmin/fmax),
    with libdevice's semantics, and drops the declarations no longer used,
    so kernels that need nothing else compile to self-contained PTX. Run it
    on the gpu.module after convert-gpu-to-nvvm; other calls are left alone,
    for libdevice to resolve, unless `libdevice=false` says it will not be
    linked: then each remaining call is an error at its source location.
  }];
  let options = [
    Option<"libdevice", "libdevice", "bool", "true",
           "libdevice will be linked (CUDA toolkit found)">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // ARVR_LOWERING_PASSES_TD
