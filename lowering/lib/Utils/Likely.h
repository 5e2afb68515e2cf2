//===- Likely.h - Tests expected true -------------------------*- C++ -*-===//
//
// A bilinear sample's inside test is an `scf.if` on `llvm.intr.expect(%c,
// true)` (convert-arvr-to-loops): what arvr-merge-likely-branches merges
// and arvr-gpu-block-proofs proves per block.
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_LOWERING_UTILS_LIKELY_H
#define ARVR_LOWERING_UTILS_LIKELY_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

namespace mlir::arvr {

/// The test `op` is expected to pass (`op` is `scf.if` on
/// `llvm.intr.expect %c, true`), or null.
inline Value likelyTest(scf::IfOp op) {
  auto expect = op.getCondition().getDefiningOp<LLVM::ExpectOp>();
  if (!expect || !matchPattern(expect.getExpected(), m_One()))
    return {};
  return expect.getVal();
}

} // namespace mlir::arvr

#endif // ARVR_LOWERING_UTILS_LIKELY_H
