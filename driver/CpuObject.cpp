//===- CpuObject.cpp - A kernel as a host object file and header ----------===//
//
// Translates the CPU pipeline's LLVM-dialect module to LLVM IR, adds the
// packed entry and the plan, makes the rest internal, optimises it as the
// JIT does (O3, for the same CPU the JIT would target when `cpu` is
// "host": the same bits as `arvrc run --target cpu`) and writes an ELF
// object; and writes the header that declares it.
//
//===----------------------------------------------------------------------===//

#include "CpuObject.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"

using namespace arvrc;

namespace {

/// The target machine for `cpu` on this host's triple; null with `error`.
std::unique_ptr<llvm::TargetMachine> targetMachine(const std::string &cpu,
                                                   std::string &error) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::Triple triple(llvm::sys::getProcessTriple());
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  std::string name = cpu, features;
  if (cpu == "host") {
    name = llvm::sys::getHostCPUName().str();
    for (const auto &feature : llvm::sys::getHostCPUFeatures())
      features += (features.empty() ? "" : ",") +
                  std::string(feature.getValue() ? "+" : "-") +
                  feature.getKey().str();
  } else if (std::unique_ptr<llvm::MCSubtargetInfo> info(
                 target->createMCSubtargetInfo(triple, cpu, ""));
             !info || !info->isCPUStringValid(cpu)) {
    error = "unknown CPU '" + cpu + "' for " + triple.str();
    return nullptr;
  }
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, name, features, llvm::TargetOptions(), llvm::Reloc::PIC_,
      std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  if (!machine)
    error = "no target machine for " + triple.str();
  return machine;
}

/// `void arvr_cpu_<kernel>(void **args)`: calls the kernel's C interface
/// with *args[i] as its argument i.
void addPackedEntry(llvm::Module &module, llvm::Function &ciface,
                    const std::string &name) {
  llvm::LLVMContext &context = module.getContext();
  auto *ptr = llvm::PointerType::getUnqual(context);
  auto *type =
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), {ptr}, false);
  auto *entry = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                                       name, module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "entry", entry));
  std::vector<llvm::Value *> args;
  for (llvm::Argument &arg : ciface.args()) {
    llvm::Value *slot =
        b.CreateLoad(ptr, b.CreateConstInBoundsGEP1_64(ptr, entry->getArg(0),
                                                       arg.getArgNo()));
    args.push_back(b.CreateLoad(arg.getType(), slot));
  }
  b.CreateCall(&ciface, args);
  b.CreateRetVoid();
}

} // namespace

bool arvrc::emitCpuObject(mlir::ModuleOp lowered, const std::string &kernel,
                          const std::string &planJson, const std::string &cpu,
                          std::string &object, std::string &error) {
  std::unique_ptr<llvm::TargetMachine> machine = targetMachine(cpu, error);
  if (!machine)
    return false;
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module =
      mlir::translateModuleToLLVMIR(lowered, context, kernel);
  llvm::Function *ciface =
      module ? module->getFunction("_mlir_ciface_" + kernel) : nullptr;
  if (!ciface || ciface->isDeclaration()) {
    error = "internal compiler error: no CPU entry for kernel '" + kernel + "'";
    return false;
  }
  // Only the entry and the plan are seen from outside: two kernels' objects
  // link into one program.
  for (llvm::Function &f : *module)
    if (!f.isDeclaration())
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  for (llvm::GlobalVariable &g : module->globals())
    if (!g.isDeclaration())
      g.setLinkage(llvm::GlobalValue::InternalLinkage);
  addPackedEntry(*module, *ciface, "arvr_cpu_" + kernel);
  llvm::Constant *text = llvm::ConstantDataArray::getString(context, planJson);
  new llvm::GlobalVariable(*module, text->getType(), /*isConstant=*/true,
                           llvm::GlobalValue::ExternalLinkage, text,
                           "arvr_plan_" + kernel);

  module->setDataLayout(machine->createDataLayout());
  module->setTargetTriple(machine->getTargetTriple());
  if (llvm::Error e = mlir::makeOptimizingTransformer(
          /*optLevel=*/3, /*sizeLevel=*/0, machine.get())(module.get())) {
    error = "cannot optimise the kernel: " + llvm::toString(std::move(e));
    return false;
  }
  llvm::raw_string_ostream os(object);
  llvm::buffer_ostream buffer(os);
  llvm::legacy::PassManager passes;
  if (machine->addPassesToEmitFile(passes, buffer, nullptr,
                                   llvm::CodeGenFileType::ObjectFile)) {
    error = "this host's target cannot write object files";
    return false;
  }
  passes.run(*module);
  return true;
}

std::string arvrc::cpuObjectHeader(const std::string &kernel,
                                   const std::string &objectFile) {
  std::string guard = "ARVR_KERNEL_" + llvm::StringRef(kernel).upper() + "_H";
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "/* Generated by arvrc build --target cpu --emit=obj: kernel '"
     << kernel << "', machine code in " << objectFile
     << ".\n * Link the object and the arvr runtime; run it with the calls of "
        "arvr/runtime.h\n * on host memory (docs/runtime.md). */\n"
     << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include <arvr/runtime.h>\n\n"
     << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
     << "/* The kernel's entry: a pointer to each argument, as the plan lists "
        "them. */\n"
     << "void arvr_cpu_" << kernel << "(void **args);\n"
     << "/* Its launch plan (docs/launch-plan.md), NUL-terminated. */\n"
     << "extern const char arvr_plan_" << kernel << "[];\n\n"
     << "/* Opens the kernel: bind host images, launch on the calling thread. "
        "*/\n"
     << "static inline arvr_status arvr_open_" << kernel
     << "(arvr_kernel **kernel) {\n"
     << "  return arvr_kernel_open_cpu(arvr_plan_" << kernel << ", arvr_cpu_"
     << kernel << ", kernel);\n}\n\n"
     << "#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n"
     << "#endif /* " << guard << " */\n";
  return s;
}
