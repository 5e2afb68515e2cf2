//===- Pipelines.cpp - From arvr to PTX and to CPU code -------------------===//
//
// The whole lowering of arvrc, one function per target, in the order the
// passes run. `arvrc --print-ir-after-all` shows the IR between any two.
//
//===----------------------------------------------------------------------===//

#include "arvr/Lowering/Pipelines.h"

#include "arvr/Dialect/ArvrDialect.h"
#include "arvr/Lowering/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::arvr;

/// The canonicaliser with its worklist seeded bottom-up (uses before
/// definitions). On a launch's unrolled body it does the same work much
/// faster: after arvr-map-to-gpu, the Gaussian's 18 000 ops took 3.2 s
/// top-down (the canonicaliser pass's default) and 0.4 s bottom-up, to the
/// same result. Without region simplification (erasing unreachable blocks,
/// merging blocks), which the launches' one-block bodies do not need and
/// the canonicaliser at the end of the device pipeline does once.
static std::unique_ptr<Pass> createBottomUpCanonicalizer() {
  GreedyRewriteConfig config;
  config.setUseTopDownTraversal(false);
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  return createCanonicalizerPass(config);
}

void mlir::arvr::buildArvrPipeline(OpPassManager &pm,
                                   ArrayRef<std::string> specialize) {
  // Known values as constants, stages of constants inlined where they fold.
  ArvrSpecializeOptions known;
  known.values.assign(specialize.begin(), specialize.end());
  pm.addPass(createArvrSpecialize(known));
  // A kernel written without a schedule gets one (parameter tables at the
  // root, a costly stencil's function in shared memory), for those values.
  pm.addPass(createArvrAutoSchedule());
  pm.addPass(createArvrInlineStages());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createArvrCheckBounds());
  pm.addPass(createArvrSplitPlanes());
}

/// Stage 3 of buildCudaPipeline: the gpu.modules' code -> NVVM/LLVM
/// dialect, for the chosen chip.
static void buildDevicePasses(OpPassManager &pm,
                              const CudaPipelineOptions &options) {
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  // What a loop's iterations share (the boundary handling of a row every
  // tap of a horizontal reduction reads, say) is computed once, before it.
  // In the kernels only: hoisted out of a launch, it would land on the host.
  device.addPass(createLoopInvariantCodeMotionPass());
  device.addPass(createSCFToControlFlowPass());
  // Index arithmetic in 32 bits, as hand-written CUDA does: 64-bit integer
  // multiplies take several instructions on the GPU. The runner refuses
  // images of 2^31 elements or more.
  ConvertGpuOpsToNVVMOpsOptions toNVVM;
  toNVVM.indexBitwidth = 32;
  device.addPass(createConvertGpuOpsToNVVMOps(toNVVM));
  // Tables read at a run-time place from a global, not copied to local
  // memory for each read.
  device.addPass(createArvrGpuConstantTables());
  // libdevice calls PTX does in one instruction (roundeven, fmax, ...)
  // become those instructions: the PTX needs no CUDA toolkit to link.
  ArvrNativeGpuMathOptions nativeMath;
  nativeMath.libdevice = !options.cudaPath.empty();
  device.addPass(createArvrNativeGpuMath(nativeMath));
  // u8_sat as one rounding, saturating conversion and a min.
  device.addPass(createArvrGpuSaturatingConvert());
  // A byte that meets only constants or other bytes in sums and
  // differences: an integer `or`, not a conversion.
  device.addPass(createArvrGpuBiasedIntToFloat());
  // Neighbouring taps addressed from one address: immediate offsets.
  device.addPass(createArvrRebaseAddresses());
  // Images never overlap: inputs are read through the read-only cache.
  device.addPass(createArvrKernelArgAliasing());
  // 1152 threads resident (56% of an SM): registers within 56.
  device.addPass(createArvrOccupancyBounds());
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  device.addPass(createReconcileUnrealizedCastsPass());
}

/// Loops -> gpu.launch (mapped, specialised, their accesses and branches
/// shaped for the GPU) -> outlined kernels in one gpu.module.
static void buildLaunchPasses(OpPassManager &pm,
                              const CudaPipelineOptions &options) {
  // Mapped before any canonicalisation, which would fold away the loops
  // of a stage of one row or one point (a table, a single value) and leave
  // their work on the host.
  ArvrMapToGPUOptions mapping;
  mapping.blockX = options.blockX;
  mapping.blockY = options.blockY;
  pm.addPass(createArvrMapToGPU(mapping));
  pm.addPass(createBottomUpCanonicalizer());
  // Values computed alike as one: stages' extents written alike (a level's
  // (w + 1) / 2 and its reader's), the loads and arithmetic a stage's
  // channels repeat. The bounds analysis compares values: a read of a
  // stage at its reader's own point is then tested against the bound the
  // loop already tests, and a repeated mirror computation is done once.
  pm.addPass(createCSEPass());
  // Clamps proved idle go (u8_sat of normalised weights over bytes), once
  // the weights are constants; the values do not change.
  pm.addPass(createArvrRedundantClamps());
  // Sample tests on coordinates computed from floats, proved per block by
  // a launch before the kernel (a byte a block).
  pm.addPass(createArvrGpuBlockProofs());
  // Blocks whose every read is inside run a version without boundary
  // handling; the others keep it.
  pm.addPass(createArvrSpecializeInterior());
  // There, opt-in (an experiment): proved blocks' sample reads from a box
  // staged in shared memory. Without it the box's table and ends are dead
  // and go.
  if (options.stageSamples)
    pm.addPass(createArvrGpuStageSamples());
  pm.addPass(createBottomUpCanonicalizer());
  // A thread's points' run-time loops with equal bounds (taps over a
  // radius known at run time) as one loop: a tap's weight loaded once.
  pm.addPass(createArvrFuseSiblingLoops());
  // There, what a thread reads twice (neighbouring points' taps) is read
  // once.
  pm.addPass(createArvrReuseLoads());
  // There, a thread's neighbouring bytes are read and written as aligned
  // vectors (rows checked aligned once per block).
  pm.addPass(createArvrWideAccess());
  // A warp's 16-byte stores of runs of columns, exchanged through shared
  // memory so that each store instruction writes contiguous bytes.
  pm.addPass(createArvrStageStores());
  pm.addPass(createBottomUpCanonicalizer());
  // A point's samples (its channels) behind one test that all read
  // inside the image, not one each.
  pm.addPass(createArvrMergeLikelyBranches());
  // A thread's next point's loads before its previous point's stores,
  // where those are behind control flow.
  pm.addPass(createArvrSinkGuardedStores());
  // In border versions, what a loop repeats (a tap column's mirror) once
  // before it.
  pm.addPass(createArvrCompactBorders());
  // u8_sat as a saturating FMA and a min rather than a conversion (the
  // narrow pipe) and a min; after the passes that move ops past others, as
  // the FMA is a call.
  pm.addPass(createArvrGpuSaturatingFma());
  // What the fused loops repeat (a border neighbour's mirrored coordinates,
  // computed for each of a point's sums) once, before it is hoisted.
  pm.addPass(createCSEPass());
  // What is computed from parameters alone, once per thread rather than
  // once per point, channel and version (interior, border).
  pm.addPass(createArvrHoistUniform());
  // Opt-in: divisions by a value fixed for all points as products, once
  // constants are folded (as at the end of the CPU's loops).
  if (options.fastMath)
    pm.addPass(createArvrFastReciprocal());
  // Of that, the f32 arithmetic the plan computes exactly: on the host,
  // once a launch; the kernel takes the results as arguments.
  pm.addPass(createArvrHostUniforms());
  // What two launches moved out alike (a kernel's and its proof launch's
  // inverse focal lengths), one value of the plan.
  pm.addPass(createCSEPass());
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  // Frames of a batch stacked, the grid's z the frame: one launch a batch.
  // After the sinking, so that every memref.dim a kernel computes is in its
  // launch (and gets the frame's height).
  pm.addPass(createArvrBatchFrames());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createArvrMergeGpuModules());
  pm.addPass(createBottomUpCanonicalizer());
}

void mlir::arvr::buildCudaPipeline(OpPassManager &pm,
                                   const CudaPipelineOptions &options,
                                   LoweringStage stopAfter, bool arvrPasses) {
  // 1. The dialect passes; the window of each intermediate stage; then
  //    arvr -> scf.parallel over memrefs, reductions unrolled as the
  //    schedule asks.
  if (arvrPasses)
    buildArvrPipeline(pm);
  pm.addPass(createCanonicalizerPass());
  // A stencil's input read once per block into shared memory, so that its
  // taps need no boundary handling.
  pm.addPass(createArvrStageInputs());
  pm.addPass(createArvrInferBounds());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createConvertArvrToLoops());
  // A histogram written as gathers: one scatter over its domain.
  pm.addPass(createArvrScatterReductions());
  // Math of a loop's index alone from a table folded when compiling, as
  // unrolling would fold it: the same bits however the loop is unrolled.
  pm.addPass(createArvrIndexTables());
  pm.addPass(createArvrUnrollReductions());
  // a * b + c as one rounding, as in the CPU pipeline (same point, same
  // pairs: the same bits).
  pm.addPass(createArvrContractFma());
  if (stopAfter == LoweringStage::Loops) {
    pm.addPass(createCanonicalizerPass());
    return;
  }

  // A stage's readers at its own point (a pyramid level stored as an
  // output) in its loop: one launch, the values stored read from registers.
  pm.addPass(createArvrFusePointConsumers());

  // 2. Loops -> gpu.launch -> outlined kernels in a gpu.module.
  buildLaunchPasses(pm, options);
  if (stopAfter == LoweringStage::Gpu)
    return;

  // 3. The device code -> NVVM/LLVM dialect, for the chosen chip.
  buildDevicePasses(pm, options);
  if (stopAfter == LoweringStage::Llvm)
    return;

  // 4. NVVM -> PTX, held in a gpu.binary (format isa: ptxas is not needed;
  //    libdevice is linked when the kernel calls it), or a cubin assembled
  //    by the toolkit's ptxas (format bin).
  if (options.cubin) {
    GpuModuleToBinaryPassOptions binary;
    binary.compilationTarget = "bin";
    binary.toolkitPath = options.cudaPath; // Where libdevice is linked from.
    pm.addPass(createGpuModuleToBinaryPass(binary));
    return;
  }
  // PTX: the same, a program's independent kernels optimised in parallel.
  ArvrGpuModuleToPtxOptions ptx;
  ptx.toolkit = options.cudaPath;
  pm.addPass(createArvrGpuModuleToPtx(ptx));
}

void mlir::arvr::buildCpuPipeline(OpPassManager &pm, LoweringStage stopAfter,
                                  bool arvrPasses, bool fastMath) {
  // 1. The dialect passes; each kernel computes the band of rows its caller
  //    (one thread of the runner) asks for, and the windows of its
  //    intermediate stages that band needs; then arvr -> scf.parallel over
  //    memrefs.
  if (arvrPasses)
    buildArvrPipeline(pm);
  pm.addPass(createArvrCpuRowBands());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createArvrInferBounds());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createConvertArvrToLoops());
  // A histogram written as gathers: one scatter over its domain, with plain
  // adds: one thread runs a kernel call, its stage buffers its own.
  ArvrScatterReductionsOptions scatter;
  scatter.atomic = false;
  pm.addPass(createArvrScatterReductions(scatter));
  // Math of a loop's index alone from a table folded when compiling, as
  // unrolling would fold it: the same bits however the loop is unrolled.
  pm.addPass(createArvrIndexTables());
  pm.addPass(createArvrUnrollReductions());
  pm.addPass(createArvrContractFma());
  // Runs of columns whose every read is inside, without boundary handling
  // (after folding, so that the loops' bounds and steps are constants).
  pm.addPass(createCanonicalizerPass());
  // As in the GPU pipeline, once the weights are constants.
  pm.addPass(createArvrRedundantClamps());
  // A point's loops over the same taps as one, where they share work (a
  // bilateral neighbour's weight, once for the three channels).
  pm.addPass(createArvrFuseSiblingLoops());
  pm.addNestedPass<func::FuncOp>(createArvrCpuInterior());
  pm.addPass(createLoopInvariantCodeMotionPass());
  pm.addPass(createCanonicalizerPass());
  if (fastMath) {
    pm.addPass(createArvrFastReciprocal());
    pm.addPass(createLoopInvariantCodeMotionPass());
  }
  // The interior runs' columns as vector lanes (the channels of a pixel
  // written by one pixel-wise store need their index values shared).
  pm.addPass(createCSEPass());
  pm.addNestedPass<func::FuncOp>(createArvrCpuVectorize());
  pm.addPass(createCSEPass());
  pm.addPass(createLoopInvariantCodeMotionPass());
  pm.addPass(createCanonicalizerPass());
  if (stopAfter <= LoweringStage::Gpu)
    return;

  // 2. Loops -> LLVM dialect, with C-interface wrappers for the runner.
  // The vector loops' collapsed views, as strided metadata (affine maps).
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  // Tables of arvr-index-tables (constant vectors read at an index).
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

std::string mlir::arvr::findCudaToolkit() {
  SmallVector<std::string, 3> candidates;
  for (const char *variable : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *value = std::getenv(variable); value && *value)
      candidates.push_back(value);
  candidates.push_back("/usr/local/cuda");
  for (const std::string &root : candidates) {
    SmallString<128> libdevice(root);
    llvm::sys::path::append(libdevice, "nvvm", "libdevice");
    if (llvm::sys::fs::is_directory(libdevice))
      return root;
  }
  return "";
}

void mlir::arvr::registerPipelineDialects(DialectRegistry &registry) {
  registry.insert<ArvrDialect, arith::ArithDialect, cf::ControlFlowDialect,
                  func::FuncDialect, gpu::GPUDialect, index::IndexDialect,
                  LLVM::LLVMDialect, math::MathDialect, memref::MemRefDialect,
                  NVVM::NVVMDialect, scf::SCFDialect, ub::UBDialect,
                  vector::VectorDialect>();
  // Lowering to LLVM: what convert-gpu-to-nvvm asks each dialect for.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  // Serialising to PTX, and translating to LLVM IR for the JIT.
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

void mlir::arvr::registerArvrPipelines() {
  PassPipelineRegistration<>("arvr-cuda-pipeline",
                             "Lower arvr kernels to PTX (sm_90)",
                             [](OpPassManager &pm) {
                               CudaPipelineOptions options;
                               options.cudaPath = findCudaToolkit();
                               buildCudaPipeline(pm, options);
                             });
  PassPipelineRegistration<>("arvr-cpu-pipeline",
                             "Lower arvr kernels to the LLVM dialect",
                             [](OpPassManager &pm) { buildCpuPipeline(pm); });
}
