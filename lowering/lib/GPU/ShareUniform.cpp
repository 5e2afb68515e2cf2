//===- ShareUniform.cpp - Costly values of the parameters, once a block ---===//
//
// After arvr-hoist-uniform every thread computes the values of the
// kernel's parameters alone once, at the top of the launch. Some of them
// are costly on the GPU: an IEEE division is about ten instructions (a
// reciprocal, its refinement, a range check), `exp` or `sin` more; the
// lens's six products by `s / fx` cost each thread ~50 instructions, an
// eighth of its work at four points a thread.
//
// This pass has the block's first thread compute them and hand them to the
// others through shared memory:
//
//   scf.if (thread (0, 0, 0)) { v_i = ...; shared[i] = v_i }
//   gpu.barrier
//   v_i = shared[i]           // for every thread
//
// The same operations on the same operands: the values do not change. The
// barrier is at the top level of the launch body, which every thread of
// the block reaches. Applies where a launch computes at least two such f32
// values (one costs about what the load and the barrier save).
//
//===----------------------------------------------------------------------===//

#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRSHAREUNIFORM
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

/// Whether `op` is worth computing once a block: a floating-point division
/// or remainder, or a math function other than the one-instruction ones.
bool isCostly(Operation *op) {
  if (isa<arith::DivFOp, arith::RemFOp>(op))
    return true;
  if (op->getDialect() == nullptr ||
      op->getDialect()->getNamespace() !=
          math::MathDialect::getDialectNamespace())
    return false;
  return !isa<math::FmaOp, math::AbsFOp, math::CopySignOp, math::FloorOp,
              math::CeilOp, math::RoundOp, math::RoundEvenOp, math::TruncOp,
              math::AbsIOp>(op);
}

/// Whether `value` is the same for every thread of `launch` and computed
/// from the parameters alone, without memory effects: defined outside the
/// body, a constant, or the result of such an operation of the entry
/// block on such operands. Fills `slice` with the operations of the body
/// it needs, in order.
bool isParameterValue(Value value, gpu::LaunchOp launch,
                      llvm::SetVector<Operation *> &slice) {
  if (!launch.getBody().isAncestor(value.getParentRegion()))
    return true;
  Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != &launch.getBody().front() ||
      def->getNumRegions() || !isMemoryEffectFree(def) || !isSpeculatable(def))
    return false;
  if (slice.contains(def))
    return true;
  if (!matchPattern(def, m_Constant()))
    for (Value operand : def->getOperands())
      if (!isParameterValue(operand, launch, slice))
        return false;
  slice.insert(def);
  return true;
}

/// Moves the costly f32 parameter values of `launch` to its first thread;
/// returns how many.
unsigned share(gpu::LaunchOp launch) {
  Block &entry = launch.getBody().front();
  llvm::SetVector<Operation *> slice;
  SmallVector<Operation *> costly;
  for (Operation &op : entry) {
    if (!isCostly(&op) || op.getNumResults() != 1 ||
        !op.getResult(0).getType().isF32())
      continue;
    llvm::SetVector<Operation *> mine(slice.begin(), slice.end());
    if (!isParameterValue(op.getResult(0), launch, mine))
      continue;
    slice = std::move(mine);
    costly.push_back(&op);
  }
  if (costly.size() < 2)
    return 0;

  Location loc = launch.getLoc();
  MLIRContext *context = launch.getContext();
  auto workgroup = gpu::AddressSpaceAttr::get(
      context, gpu::GPUDialect::getWorkgroupAddressSpace());
  Value shared = launch.addWorkgroupAttribution(
      MemRefType::get({int64_t(costly.size())}, Float32Type::get(context),
                      MemRefLayoutAttrInterface(), workgroup),
      loc);

  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value first;
  for (gpu::Dimension dim :
       {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z}) {
    Value isZero =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                              gpu::ThreadIdOp::create(b, loc, dim), zero);
    first = first ? arith::AndIOp::create(b, loc, first, isZero) : isZero;
  }
  auto ifFirst = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
  {
    // The slice in its order (definitions before uses), copied.
    OpBuilder inside = ifFirst.getThenBodyBuilder();
    IRMapping copies;
    for (Operation &op : entry)
      if (slice.contains(&op))
        inside.clone(op, copies);
    for (auto [i, op] : llvm::enumerate(costly)) {
      Value index = arith::ConstantIndexOp::create(inside, loc, i);
      memref::StoreOp::create(inside, loc, copies.lookup(op->getResult(0)),
                              shared, index);
    }
  }
  gpu::BarrierOp::create(b, loc);
  // The builder inserts before what was the block's first operation,
  // maybe a costly one: erased only once everything is built.
  for (auto [i, op] : llvm::enumerate(costly)) {
    Value index = arith::ConstantIndexOp::create(b, loc, i);
    Value value = memref::LoadOp::create(b, loc, shared, index);
    op->getResult(0).replaceAllUsesWith(value);
  }
  for (Operation *op : costly)
    op->erase();
  return costly.size();
}

struct ArvrShareUniformPass
    : public arvr::impl::ArvrShareUniformBase<ArvrShareUniformPass> {
  void runOnOperation() override {
    getOperation().walk([&](gpu::LaunchOp launch) { share(launch); });
  }
};

} // namespace
