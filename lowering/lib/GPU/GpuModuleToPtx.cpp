//===- GpuModuleToPtx.cpp - gpu.modules to PTX, kernels optimised apart ---===//
//
// gpu-module-to-binary (format isa) translates a gpu.module to LLVM IR,
// runs LLVM's O-level pipeline over it and compiles it with the NVPTX
// backend, as one module: a program of several kernels (a pyramid's
// levels) pays their optimisation one after another, a third of its
// build for pyr_down.
//
// This pass does the same, to the same gpu.binary, with one difference:
// where the module's only definitions are two or more kernels and it has
// no global variables, so that no kernel calls or reads anything another
// one defines, each kernel is optimised in a module of its own (a clone
// with the other kernels declared), on an LLVMContext and a target
// machine of its own, on the MLIRContext's threads, and then goes through
// the backend's IR passes there too (the codegen pipeline built to stop
// before NVPTX's instruction selection, as `llc -stop-before=nvptx-isel`;
// straight-line strength reduction, the costliest of them, was half of
// the backend's time for pyr_down); the kernels are linked back into the
// module in their order and the backend compiles it from instruction
// selection on (`llc -start-before=nvptx-isel`). The passes work on one
// function at a time or on what a function calls, and a kernel calls
// nothing, so each kernel comes out as the whole-module run gives it: the
// examples' PTX is byte for byte that of gpu-module-to-binary (linked
// back just before instruction selection, a kernel's values may list
// their uses in another order, which reorders a few instructions of 3 of
// the 117 kernels of the examples and the tests' inputs). A module
// with any other definition (libdevice's functions, linked in for exp
// and the like) or a global (a constant table) is compiled whole, as
// there. LLVM's TargetPassConfig takes where to stop or start from its
// command-line options, the process's: this pass sets them while it
// builds those pipelines (one serialisation at a time), and empties them
// after. A codegen pipeline another thread of the process built
// meanwhile, for another target, would be cut too: arvrc builds none
// then (its CPU code is compiled in other runs, and the runtime library
// compiles nothing).
//
// The backend runs at `backend-level` (llc's -O; default 2), the IR
// pipeline at the target's O: NVPTX at -O3 differs from -O2 mainly in
// running GVN instead of EarlyCSE after its straight-line strength
// reduction (and in some scheduling choices), a fifth of the backend's
// time for pyr_down, for no fewer instructions (the examples' PTX is the same
// but for pyr_down's, 15 instructions shorter at -O2, and brightness_contrast's
// register numbers). `backend-level=3` gives gpu-module-to-binary's PTX.
//
// Preconditions: each gpu.module is in the LLVM/NVVM dialects with an
// #nvvm.target. Produces PTX only (a cubin goes through
// gpu-module-to-binary).
//
//===----------------------------------------------------------------------===//

#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Threading.h"
#include "mlir/Target/LLVM/NVVM/Utils.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <mutex>

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRGPUMODULETOPTX
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

using Bitcode = SmallVector<char, 0>;

/// The backend's pipeline cut at NVPTX's instruction selection. LLVM's
/// TargetPassConfig reads its -stop-before and -start-before options (the
/// process's, as llc's command line sets them) when a codegen pipeline is
/// built; while an IselCut lives, pipelines built stop before instruction
/// selection (`Part::IrPasses`: the backend's IR passes, each a function
/// at a time) or start there (`Part::FromIsel`), as `llc -stop-before` /
/// `-start-before=nvptx-isel` do. The options are the process's: cuts are
/// taken one at a time (`guard`), and each leaves its option empty again.
class IselCut {
public:
  enum class Part { IrPasses, FromIsel };

  explicit IselCut(Part part)
      : option(find(part == Part::IrPasses ? "stop-before" : "start-before")) {
    if (option)
      option->addOccurrence(0, option->ArgStr, "nvptx-isel");
  }
  ~IselCut() {
    if (option)
      option->addOccurrence(0, option->ArgStr, "");
  }
  IselCut(const IselCut &) = delete;
  IselCut &operator=(const IselCut &) = delete;

  /// Whether LLVM has the option (a build without it cuts nothing).
  bool available() const { return option; }

  /// Held while a cut lives (a module's two cuts, one after the other:
  /// its kernels' IR passes, then its backend from instruction selection).
  static std::mutex &guard() {
    static std::mutex mutex;
    return mutex;
  }

private:
  static llvm::cl::Option *find(StringRef name) {
    DenseMap<StringRef, llvm::cl::Option *> &options =
        llvm::cl::getRegisteredOptions();
    auto it = options.find(name);
    return it == options.end() ? nullptr : it->second;
  }

  llvm::cl::Option *option;
};

/// The backend's IR passes (up to instruction selection) at `level` over
/// `module`, within an IselCut of Part::IrPasses.
static LogicalResult runBackendIrPasses(llvm::Module &module,
                                        llvm::TargetMachine &machine,
                                        int level) {
  machine.setOptLevel(static_cast<llvm::CodeGenOptLevel>(level));
  llvm::legacy::PassManager passes;
  llvm::raw_null_ostream nothing;
  if (machine.addPassesToEmitFile(passes, nothing, nullptr,
                                  llvm::CodeGenFileType::Null))
    return failure();
  passes.run(module);
  return success();
}

/// The module in `bitcode` optimised at `level` for the target, and where
/// `backendLevel` is set, through the backend's IR passes at that level
/// (within an IselCut of Part::IrPasses), written back into `bitcode`; on
/// its own LLVMContext and target machine, so that several run at once.
static LogicalResult optimizeApart(Bitcode &bitcode, int level,
                                   std::optional<int> backendLevel,
                                   StringRef triple, StringRef chip,
                                   StringRef features) {
  llvm::LLVMContext context;
  llvm::Expected<std::unique_ptr<llvm::Module>> module = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(StringRef(bitcode.data(), bitcode.size()),
                            "kernel"),
      context);
  if (!module) {
    llvm::consumeError(module.takeError());
    return failure();
  }
  std::string error;
  llvm::Triple parsedTriple(triple);
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(parsedTriple, error);
  if (!target)
    return failure();
  std::unique_ptr<llvm::TargetMachine> machine(
      target->createTargetMachine(parsedTriple, chip, features, {}, {}));
  if (!machine)
    return failure();
  machine->setOptLevel(static_cast<llvm::CodeGenOptLevel>(level));
  if (llvm::Error failed = makeOptimizingTransformer(
          level, /*sizeLevel=*/0, machine.get())(module->get())) {
    llvm::consumeError(std::move(failed));
    return failure();
  }
  if (backendLevel &&
      failed(runBackendIrPasses(**module, *machine, *backendLevel)))
    return failure();
  bitcode.clear();
  llvm::raw_svector_ostream os(bitcode);
  llvm::WriteBitcodeToFile(**module, os);
  return success();
}

/// NVVM's serialisation to PTX, its kernels optimised apart where they
/// share nothing.
class KernelsApartSerializer : public NVVM::SerializeGPUModuleBase {
public:
  KernelsApartSerializer(Operation &module, NVVM::NVVMTargetAttr target,
                         const gpu::TargetOptions &options, int backendLevel)
      : SerializeGPUModuleBase(module, target, options),
        backendLevel(backendLevel) {}

  /// How many kernels were optimised apart.
  unsigned apart = 0;

private:
  /// The backend's optimisation level (llc's -O).
  int backendLevel;
  /// Whether the kernels went through the backend's IR passes apart, so
  /// that the backend starts at instruction selection.
  bool startAtIsel = false;

protected:
  LogicalResult optimizeModule(llvm::Module &module, int level) override {
    SmallVector<llvm::Function *> kernels;
    bool independent =
        module.global_empty() && module.alias_empty() && module.ifunc_empty();
    for (llvm::Function &function : module) {
      if (function.isDeclaration())
        continue;
      if (function.getCallingConv() == llvm::CallingConv::PTX_Kernel)
        kernels.push_back(&function);
      else
        independent = false;
    }
    if (!independent || kernels.size() < 2)
      return ModuleToObject::optimizeModule(module, level);

    // The backend compiles at this level, as the whole-module run sets.
    FailureOr<llvm::TargetMachine *> machine = getOrCreateTargetMachine();
    if (failed(machine))
      return failure();
    (*machine)->setOptLevel(static_cast<llvm::CodeGenOptLevel>(level));

    // Each kernel's module: its definition, the other kernels declared.
    SmallVector<Bitcode> parts(kernels.size());
    for (auto [kernel, bitcode] : llvm::zip_equal(kernels, parts)) {
      llvm::ValueToValueMapTy map;
      std::unique_ptr<llvm::Module> part = llvm::CloneModule(
          module, map,
          [kernel](const llvm::GlobalValue *value) { return value == kernel; });
      llvm::raw_svector_ostream os(bitcode);
      llvm::WriteBitcodeToFile(*part, os);
    }
    // Each kernel also goes through the backend's IR passes, which take
    // most of its time (straight-line strength reduction above all), here
    // in parallel; the backend then starts at instruction selection.
    std::lock_guard<std::mutex> lock(IselCut::guard());
    IselCut cut(IselCut::Part::IrPasses);
    std::optional<int> backendIr;
    if (cut.available())
      backendIr = backendLevel;
    if (failed(failableParallelForEach(
            getOperation().getContext(), parts, [&](Bitcode &bitcode) {
              return optimizeApart(bitcode, level, backendIr, triple, chip,
                                   features);
            })))
      return getOperation().emitError()
             << "could not optimise a kernel's LLVM IR";
    startAtIsel = cut.available();

    // Back in order: each definition takes its declaration's place.
    for (llvm::Function *kernel : kernels)
      kernel->deleteBody();
    for (Bitcode &bitcode : parts) {
      llvm::Expected<std::unique_ptr<llvm::Module>> part =
          llvm::parseBitcodeFile(
              llvm::MemoryBufferRef(StringRef(bitcode.data(), bitcode.size()),
                                    "kernel"),
              module.getContext());
      if (!part) {
        llvm::consumeError(part.takeError());
        return getOperation().emitError() << "could not read a kernel back";
      }
      if (llvm::Linker::linkModules(module, std::move(*part)))
        return getOperation().emitError() << "could not link a kernel back";
    }
    apart = kernels.size();
    return success();
  }

  /// PTX text, as gpu-module-to-binary's `isa` format gives it.
  FailureOr<SmallVector<char, 0>>
  moduleToObject(llvm::Module &module) override {
    FailureOr<llvm::TargetMachine *> machine = getOrCreateTargetMachine();
    if (failed(machine))
      return failure();
    (*machine)->setOptLevel(static_cast<llvm::CodeGenOptLevel>(backendLevel));
    std::unique_lock<std::mutex> lock(IselCut::guard(), std::defer_lock);
    std::optional<IselCut> cut;
    if (startAtIsel) {
      lock.lock();
      cut.emplace(IselCut::Part::FromIsel);
    }
    FailureOr<SmallString<0>> ptx = translateModuleToISA(
        module, **machine, [&] { return getOperation().emitError(); });
    if (failed(ptx))
      return failure();
    if (isaCallback)
      isaCallback(*ptx);
    return SmallVector<char, 0>(ptx->begin(), ptx->end());
  }
};

struct ArvrGpuModuleToPtxPass
    : public arvr::impl::ArvrGpuModuleToPtxBase<ArvrGpuModuleToPtxPass> {
  using Base::Base;

  void runOnOperation() override {
    int level = backendLevel;
    if (level < 0 || level > 3) {
      getOperation().emitError("arvr-gpu-module-to-ptx: backend-level must be "
                               "0 to 3, not ")
          << level;
      return signalPassFailure();
    }
    gpu::TargetOptions options(toolkit, /*librariesToLink=*/{},
                               /*cmdOptions=*/{}, /*elfSection=*/{},
                               gpu::CompilationTarget::Assembly);
    SmallVector<gpu::GPUModuleOp> modules(
        getOperation().getOps<gpu::GPUModuleOp>());
    for (gpu::GPUModuleOp module : modules) {
      SmallVector<Attribute> objects;
      ArrayAttr targets = module.getTargetsAttr();
      if (!targets || targets.empty()) {
        module.emitError("arvr-gpu-module-to-ptx: a gpu.module without a "
                         "target");
        return signalPassFailure();
      }
      for (Attribute attr : targets) {
        auto target = dyn_cast<NVVM::NVVMTargetAttr>(attr);
        if (!target) {
          module.emitError("arvr-gpu-module-to-ptx: a target other than "
                           "#nvvm.target");
          return signalPassFailure();
        }
        KernelsApartSerializer serializer(*module, target, options, level);
        serializer.init();
        std::optional<SmallVector<char, 0>> ptx = serializer.run();
        if (!ptx) {
          module.emitError("arvr-gpu-module-to-ptx: no PTX");
          return signalPassFailure();
        }
        kernelsApart += serializer.apart;
        objects.push_back(cast<gpu::TargetAttrInterface>(attr).createObject(
            module, *ptx, options));
      }
      OpBuilder builder(module);
      gpu::BinaryOp::create(builder, module.getLoc(), module.getName(),
                            /*offloadingHandler=*/Attribute(),
                            builder.getArrayAttr(objects));
      module.erase();
    }
  }
};

} // namespace
