//===- ConstantTables.cpp - Constant vectors read at a varying place ------===//
//
// arvr-index-tables reads the values of a loop's index alone from a
// constant vector (`vector.extract %table[%i]`), which unrolling folds
// away. Where the place stays a run-time value (each point of a stage
// reading its own entry of a table of 766 colour weights), the NVPTX back
// end lowers the `extractelement` by storing the whole vector to the
// thread's local memory and loading the one element back: 3 KB of stores
// for each read (the bilateral's table kernel: a 16 KB stack frame a
// thread). This pass puts each such constant in a global of the gpu.module,
// constant, in the global address space, and reads the element from there:
// one invariant load (through the read-only cache). The values, and so the
// results, are the same.
//
// Preconditions: the gpu.module is in the LLVM/NVVM dialects (after
// convert-gpu-to-nvvm). Constants left unused are erased by the
// canonicaliser that follows.
//
//===----------------------------------------------------------------------===//

#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRGPUCONSTANTTABLES
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

/// The address space of global memory in NVVM.
constexpr unsigned kGlobalAddressSpace = 1;

/// The constant vector `read` reads at a place known only at run time, or
/// null.
DenseElementsAttr tableOf(LLVM::ExtractElementOp read) {
  if (matchPattern(read.getPosition(), m_Constant()))
    return {};
  auto constant = read.getVector().getDefiningOp<LLVM::ConstantOp>();
  if (!constant)
    return {};
  auto values = dyn_cast<DenseElementsAttr>(constant.getValue());
  auto type = dyn_cast<VectorType>(read.getVector().getType());
  if (!values || !type || type.isScalable() || type.getRank() != 1 ||
      !type.getElementType().isIntOrFloat())
    return {};
  return values;
}

struct ArvrGpuConstantTablesPass
    : public arvr::impl::ArvrGpuConstantTablesBase<ArvrGpuConstantTablesPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    SmallVector<std::pair<LLVM::ExtractElementOp, DenseElementsAttr>> reads;
    module.walk([&](LLVM::ExtractElementOp read) {
      if (DenseElementsAttr values = tableOf(read))
        reads.push_back({read, values});
    });
    if (reads.empty())
      return;
    MLIRContext *context = &getContext();
    SymbolTable symbols(module);
    // One global a table, however many reads.
    DenseMap<Attribute, LLVM::GlobalOp> globals;
    auto pointer = LLVM::LLVMPointerType::get(context, kGlobalAddressSpace);
    OpBuilder b(context);
    for (auto [read, values] : reads) {
      Location loc = read.getLoc();
      auto type = cast<VectorType>(read.getVector().getType());
      Type element = type.getElementType();
      auto array = LLVM::LLVMArrayType::get(element, type.getNumElements());
      LLVM::GlobalOp &global = globals[values];
      if (!global) {
        b.setInsertionPointToStart(module.getBody());
        global = LLVM::GlobalOp::create(
            b, loc, array, /*isConstant=*/true, LLVM::Linkage::Internal,
            "arvr_table",
            values.reshape(RankedTensorType::get(type.getShape(), element)),
            /*alignment=*/0, kGlobalAddressSpace);
        symbols.insert(global); // A name of its own.
      }
      b.setInsertionPoint(read);
      Value base = LLVM::AddressOfOp::create(b, loc, global);
      Value place =
          LLVM::GEPOp::create(b, loc, pointer, array, base,
                              ArrayRef<LLVM::GEPArg>{0, read.getPosition()},
                              LLVM::GEPNoWrapFlags::inbounds);
      unsigned bytes =
          std::max<unsigned>(1, element.getIntOrFloatBitWidth() / 8);
      Value value = LLVM::LoadOp::create(b, loc, element, place, bytes,
                                         /*isVolatile=*/false,
                                         /*isNonTemporal=*/false,
                                         /*isInvariant=*/true);
      read.replaceAllUsesWith(value);
      read.erase();
    }
  }
};

} // namespace
