//===- KernelArgAliasing.cpp - noalias/readonly on kernels' image pointers
//-===//
//
// Each image a kernel reads or writes comes as its own pointer argument (the
// aligned pointer of its memref descriptor), and the images of one launch
// never overlap: the runner and the launch manifest (docs/manifest.md) give
// every image and intermediate stage a buffer of its own. This pass says so
// to LLVM: every pointer argument the kernel accesses gets `llvm.noalias`,
// and one it only reads also `llvm.readonly`. The NVPTX backend then loads
// those through the read-only data cache (`ld.global.nc`, CUDA's __ldg) and
// may reorder loads of inputs across stores to outputs.
//
// Preconditions: the gpu.module is in the LLVM/NVVM dialects (after
// convert-gpu-to-nvvm). A pointer argument used other than as the address
// of loads and stores (directly or through GEPs and address-space casts)
// or as a number (ptrtoint, as an alignment test; not made a pointer
// again) is left alone.
//
//===----------------------------------------------------------------------===//

#include "arvr/Lowering/Passes.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRKERNELARGALIASING
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

/// How a pointer argument is used: read, written, or in a way this pass
/// does not follow (passed to a call, stored as a value, ...).
struct PointerUse {
  bool read = false, written = false, escapes = false;
};

/// Follows the uses of `pointer` through GEPs and address-space casts.
static void collectUses(Value pointer, PointerUse &use) {
  for (OpOperand &operand : pointer.getUses()) {
    Operation *user = operand.getOwner();
    if (auto gep = dyn_cast<LLVM::GEPOp>(user);
        gep && gep.getBase() == pointer) {
      collectUses(gep.getResult(), use);
    } else if (auto cast = dyn_cast<LLVM::AddrSpaceCastOp>(user)) {
      collectUses(cast.getResult(), use);
    } else if (isa<LLVM::LoadOp>(user)) {
      use.read = true;
    } else if (auto address = dyn_cast<LLVM::PtrToIntOp>(user)) {
      // An address as a number (arvr-wide-access tests its alignment) is
      // no access, unless it is made a pointer again.
      for (Operation *numberUser : address->getUsers())
        use.escapes |= isa<LLVM::IntToPtrOp>(numberUser);
    } else if (auto store = dyn_cast<LLVM::StoreOp>(user);
               store && store.getAddr() == pointer &&
               store.getValue() != pointer) {
      use.written = true;
    } else {
      use.escapes = true;
    }
  }
}

struct ArvrKernelArgAliasingPass
    : public arvr::impl::ArvrKernelArgAliasingBase<ArvrKernelArgAliasingPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    for (auto func : getOperation().getOps<LLVM::LLVMFuncOp>()) {
      if (func.isExternal() || !func->hasAttr("nvvm.kernel"))
        continue;
      for (BlockArgument arg : func.getArguments()) {
        if (!isa<LLVM::LLVMPointerType>(arg.getType()))
          continue;
        PointerUse use;
        collectUses(arg, use);
        if (use.escapes || (!use.read && !use.written))
          continue;
        unsigned index = arg.getArgNumber();
        func.setArgAttr(index, LLVM::LLVMDialect::getNoAliasAttrName(),
                        UnitAttr::get(context));
        if (!use.written)
          func.setArgAttr(index, LLVM::LLVMDialect::getReadonlyAttrName(),
                          UnitAttr::get(context));
      }
    }
  }
};

} // namespace
