//===- InteriorBounds.h - Versions without boundary handling ----*- C++ -*-===//
//
// What arvr-specialize-interior (the GPU's blocks) and arvr-cpu-interior
// (the CPU's runs of columns) share: bounds of the integers a region
// computes, over all the points it runs for, as values computed once
// before it; the conditions under which the boundary handling
// convert-arvr-to-loops and arvr-map-to-gpu mark `arvr.boundary` (the clamp
// of an index, the test of an index before a mirror or wrap, the choice
// between a pixel and the padding, a point's guard) passes for all of
// them; and versionInterior(), which puts
//
//   scf.if (every provable test holds) {
//     the ops, each proved one replaced by its value inside
//   } else {
//     the ops as they were
//   }
//
// For each marked op, every integer it tests is bounded over the region, by
// the rules of Ranges.h (the bounds analysis arvr-infer-bounds and
// arvr-check-bounds use too), the ends values of the integer's own type:
// what is defined above it and its entry block's arguments are fixed, but
// thread ids, which range over [0, block size - 1], and the variable of an
// scf.for with a positive constant step, over [lower, upper - 1]; the marked
// ops themselves have no range, nor has a truncation; an unsigned division
// by a fixed value is bounded only where the dividend is >= 0, which the
// condition then checks. A test `a < b` (or <=, >, >=, unsigned <) with one
// side fixed holds for the whole region when the other side's bound does; a
// test built with `and` when both parts do. In the interior version, a
// signed division or remainder by a positive constant of a value >= 0
// becomes the unsigned one. Values do not change: an op replaced computes,
// for the points it is proved for, what it computed before.
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_LOWERING_UTILS_INTERIORBOUNDS_H
#define ARVR_LOWERING_UTILS_INTERIORBOUNDS_H

#include "Ranges.h"
#include "arvr/Dialect/ArvrDialect.h"
#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <optional>
#include <tuple>

namespace mlir::arvr::interior {

/// The low and high ends of an integer over a block (both included).
struct Range {
  Value low, high;
};

/// Builds, at the start of a launch body, the values that bound integers
/// of the body over one block (by the rules of Ranges.h), and the
/// conditions under which tests of the body hold for every thread of it.
class InteriorBounds : public ranges::IrRanges {
public:
  /// Over `region` (a launch's body, a loop's): what is defined above it
  /// and its entry block's arguments are fixed, but `threads` (thread ids,
  /// each ranging over [0, its size - 1]); with `perThread`, thread ids are
  /// fixed too: the bounds and conditions are a thread's, not its block's.
  InteriorBounds(Region &region, Location loc, OpBuilder &builder,
                 SmallVector<std::pair<Value, Value>> threads = {},
                 bool perThread = false)
      : IrRanges(builder, loc,
                 {/*asIndex=*/false, /*oneSidedClamps=*/false,
                  /*truncationsKeepRanges=*/false}),
        region(region), threads(std::move(threads)), perThread(perThread) {}

  /// The value of `v` for the whole block, when it is the same for every
  /// thread (materialised at the builder's point), or null.
  Value uniform(Value v) {
    if (auto it = uniforms.find(v); it != uniforms.end())
      return it->second;
    Value result = computeUniform(v);
    uniforms[v] = result;
    return result;
  }

  /// The range of `v` over the block, or nothing.
  std::optional<Range> range(Value v) {
    RangeT r = rangeOf(v);
    if (!r.lo || !r.hi)
      return std::nullopt;
    return Range{r.lo, r.hi};
  }

  /// A condition, computed once per block, under which the i1 `cond`
  /// holds for every thread of the block; null when none can be built.
  /// `test`, where given, is asked first for each test `and`, `or` and
  /// `llvm.intr.expect` combine (FloatIntervals' tests of f32 values).
  Value alwaysTrue(Value cond, function_ref<Value(Value)> test = {}) {
    if (Value fixed = uniform(cond))
      return fixed;
    // A test expected true (llvm.intr.expect) is its operand.
    if (auto expect = cond.getDefiningOp<LLVM::ExpectOp>())
      return alwaysTrue(expect.getVal(), test);
    if (auto either = cond.getDefiningOp<arith::OrIOp>()) {
      Value lhs = alwaysTrue(either.getLhs(), test);
      Value rhs = alwaysTrue(either.getRhs(), test);
      if (lhs && rhs)
        return arith::OrIOp::create(b, either.getLoc(), lhs, rhs);
      return lhs ? lhs : rhs;
    }
    if (auto both = cond.getDefiningOp<arith::AndIOp>()) {
      Value lhs = alwaysTrue(both.getLhs(), test);
      Value rhs = alwaysTrue(both.getRhs(), test);
      if (!lhs || !rhs)
        return {};
      return arith::AndIOp::create(b, both.getLoc(), lhs, rhs);
    }
    if (test)
      if (Value holds = test(cond))
        return holds;
    auto cmp = cond.getDefiningOp<arith::CmpIOp>();
    if (!cmp)
      return {};
    arith::CmpIPredicate pred = cmp.getPredicate();
    Value varying = cmp.getLhs(), fixed = uniform(cmp.getRhs());
    if (!fixed) {
      // `fixed pred varying` is `varying swapped(pred) fixed`.
      fixed = uniform(cmp.getLhs());
      varying = cmp.getRhs();
      pred = swapped(pred);
    }
    std::optional<Range> r = fixed ? range(varying) : std::nullopt;
    if (!r)
      return {};
    return holdsOver(*r, pred, fixed, cmp.getLoc());
  }

  /// Conditions the ranges found so far rely on (a dividend >= 0): the
  /// interior version runs only where they hold.
  SmallVector<Value> assumptions;

private:
  /// The predicate of the same test with its operands swapped.
  arith::CmpIPredicate swapped(arith::CmpIPredicate pred) {
    using P = arith::CmpIPredicate;
    switch (pred) {
    case P::slt:
      return P::sgt;
    case P::sle:
      return P::sge;
    case P::sgt:
      return P::slt;
    case P::sge:
      return P::sle;
    case P::ult:
      return P::ugt;
    case P::ule:
      return P::uge;
    case P::ugt:
      return P::ult;
    case P::uge:
      return P::ule;
    case P::eq:
    case P::ne:
      return pred;
    }
    llvm_unreachable("unknown predicate");
  }

  /// Whether `x pred fixed` holds for every x in `r`, as a value.
  Value holdsOver(Range r, arith::CmpIPredicate pred, Value fixed,
                  Location loc) {
    using P = arith::CmpIPredicate;
    auto cmp = [&](P p, Value lhs, Value rhs) -> Value {
      return arith::CmpIOp::create(b, loc, p, lhs, rhs);
    };
    switch (pred) {
    case P::slt:
    case P::sle:
      return cmp(pred, r.high, fixed);
    case P::sgt:
    case P::sge:
      return cmp(pred, r.low, fixed);
    case P::ult:
    case P::ule: {
      // 0 <= low and high < fixed (as signed values).
      Value zero =
          arith::ConstantOp::create(b, loc, b.getZeroAttr(r.low.getType()));
      return arith::AndIOp::create(
          b, loc, cmp(P::sge, r.low, zero),
          cmp(pred == P::ult ? P::slt : P::sle, r.high, fixed));
    }
    default:
      return {};
    }
  }

  Value computeUniform(Value v) {
    if (!region.isAncestor(v.getParentRegion()))
      return v; // Defined above the region.
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() != &region.front())
        return {};
      if (!perThread && isThread(v))
        return {};
      return v; // A block id, a grid or block size (or a thread id).
    }
    Operation *op = v.getDefiningOp();
    // A block's proof (arvr-gpu-block-proofs: a byte an earlier launch
    // wrote) is read again where it is needed.
    bool proof = op->hasAttr(arvr::ArvrDialect::kBlockProofAttrName);
    if (op->getNumRegions() || (!isMemoryEffectFree(op) && !proof) ||
        op->hasAttr(arvr::kBoundaryAttrName))
      return {};
    // A thread's own values are followed through integer arithmetic only:
    // a test of a coordinate computed from floats (a sample's tap) would
    // put that computation before the versions, its values live across
    // them (the lens kernel: 40 -> 64 registers).
    if (perThread && dependsOnThread(v) &&
        llvm::any_of(llvm::concat<Value>(op->getOperands(), op->getResults()),
                     [](Value x) { return isa<FloatType>(x.getType()); }))
      return {};
    IRMapping mapping;
    for (Value operand : op->getOperands()) {
      Value fixed = uniform(operand);
      if (!fixed)
        return {};
      mapping.map(operand, fixed);
    }
    Operation *copy = b.clone(*op, mapping);
    return copy->getResult(cast<OpResult>(v).getResultNumber());
  }

  /// Whether `v` is computed from a thread id (inside the launch).
  bool dependsOnThread(Value v) {
    if (auto it = threadDependent.find(v); it != threadDependent.end())
      return it->second;
    bool result = false;
    if (isThread(v))
      result = true;
    else if (Operation *op = v.getDefiningOp();
             op && region.isAncestor(op->getParentRegion()))
      result = llvm::any_of(op->getOperands(),
                            [&](Value x) { return dependsOnThread(x); });
    threadDependent[v] = result;
    return result;
  }

  /// Fixed values, thread ids and loop variables; the boundary handling
  /// being versioned has no range.
  std::optional<RangeT> leaf(Value v) override {
    if (Value fixed = uniform(v))
      return RangeT{fixed, fixed};
    for (auto [thread, size] : threads)
      if (v == thread) {
        Value zero = arith::ConstantIndexOp::create(b, loc, 0);
        Value one = arith::ConstantIndexOp::create(b, loc, 1);
        return RangeT{zero, arith::SubIOp::create(b, loc, size, one)};
      }
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || v != loop.getInductionVar())
        return RangeT();
      std::optional<int64_t> step = getConstantIntValue(loop.getStep());
      if (!step || *step <= 0)
        return RangeT();
      Value lower = rangeOf(loop.getLowerBound()).lo;
      Value upper = rangeOf(loop.getUpperBound()).hi;
      if (!lower || !upper)
        return RangeT();
      Value one =
          arith::ConstantOp::create(b, loc, b.getIntegerAttr(v.getType(), 1));
      return RangeT{lower, arith::SubIOp::create(b, loc, upper, one)};
    }
    Operation *op = v.getDefiningOp();
    if (op->getNumResults() != 1 || op->hasAttr(arvr::kBoundaryAttrName))
      return RangeT();
    return std::nullopt;
  }

  Value fixed(Value v) override { return uniform(v); }

  /// By a divisor the same for the whole block (and so positive where the
  /// op runs), a quotient non-decreasing in the dividend. Unsigned: for a
  /// dividend >= 0. A negative dividend is a huge unsigned one: the bounds
  /// hold only if the dividend's low end is >= 0, which the interior's
  /// condition then requires.
  RangeT divideUnsigned(RangeT dividend, Value divisor, Type) override {
    Value fixedDivisor = uniform(divisor);
    if (!fixedDivisor || !dividend.lo || !dividend.hi)
      return {};
    Value zero =
        arith::ConstantOp::create(b, loc, b.getZeroAttr(dividend.lo.getType()));
    assumptions.push_back(arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::sge, dividend.lo, zero));
    return {arith::DivUIOp::create(b, loc, dividend.lo, fixedDivisor),
            arith::DivUIOp::create(b, loc, dividend.hi, fixedDivisor)};
  }

  bool isThread(Value v) const {
    return llvm::any_of(threads, [&](const auto &t) { return t.first == v; });
  }

  Region &region;
  SmallVector<std::pair<Value, Value>> threads;
  bool perThread;
  DenseMap<Value, bool> threadDependent;
  DenseMap<Value, Value> uniforms;
};

/// The clamp `maxsi(minsi(index, high), low)` (operands in either order)
/// as (index, low, high), or nothing.
inline std::optional<std::tuple<Value, Value, Value>>
matchClamp(arith::MaxSIOp max) {
  for (auto [inner, low] :
       {std::pair{max.getLhs(), max.getRhs()}, {max.getRhs(), max.getLhs()}})
    if (auto min = inner.getDefiningOp<arith::MinSIOp>())
      return std::tuple{min.getLhs(), low, min.getRhs()};
  return std::nullopt;
}

/// Whether `op` is a signed division or remainder by a positive constant,
/// which for a dividend >= 0 is the unsigned one (a shift or a mask for a
/// power of two, where the signed floor division takes several
/// instructions).
inline bool isSignedDivisionByPositive(Operation *op) {
  if (!isa<arith::FloorDivSIOp, arith::DivSIOp, arith::CeilDivSIOp,
           arith::RemSIOp>(op))
    return false;
  std::optional<int64_t> divisor = getConstantIntValue(op->getOperand(1));
  return divisor && *divisor > 0;
}

/// The condition under which the marked `op` can be replaced by its value
/// inside for every thread of the block, or null.
inline Value interiorCondition(Operation *op, InteriorBounds &bounds,
                               OpBuilder &b) {
  if (isSignedDivisionByPositive(op)) {
    std::optional<Range> r = bounds.range(op->getOperand(0));
    if (!r)
      return {};
    Value zero = arith::ConstantOp::create(b, op->getLoc(),
                                           b.getZeroAttr(r->low.getType()));
    return arith::CmpIOp::create(b, op->getLoc(), arith::CmpIPredicate::sge,
                                 r->low, zero);
  }
  if (auto guard = dyn_cast<scf::IfOp>(op))
    return bounds.alwaysTrue(guard.getCondition());
  if (auto select = dyn_cast<arith::SelectOp>(op))
    return bounds.alwaysTrue(select.getCondition());
  if (auto max = dyn_cast<arith::MaxSIOp>(op)) {
    auto clamp = matchClamp(max);
    if (!clamp)
      return {};
    auto [index, low, high] = *clamp;
    Value lowFixed = bounds.uniform(low), highFixed = bounds.uniform(high);
    std::optional<Range> r = bounds.range(index);
    if (!lowFixed || !highFixed || !r)
      return {};
    return arith::AndIOp::create(
        b, op->getLoc(),
        arith::CmpIOp::create(b, op->getLoc(), arith::CmpIPredicate::sge,
                              r->low, lowFixed),
        arith::CmpIOp::create(b, op->getLoc(), arith::CmpIPredicate::sle,
                              r->high, highFixed));
  }
  return {};
}

/// Replaces the marked `op` by its value where its test passes.
inline void replaceByInterior(Operation *op, OpBuilder &b) {
  if (isSignedDivisionByPositive(op)) {
    b.setInsertionPoint(op);
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    Value unsignedOp;
    if (isa<arith::RemSIOp>(op))
      unsignedOp = arith::RemUIOp::create(b, op->getLoc(), lhs, rhs);
    else if (isa<arith::CeilDivSIOp>(op))
      unsignedOp = arith::CeilDivUIOp::create(b, op->getLoc(), lhs, rhs);
    else
      unsignedOp = arith::DivUIOp::create(b, op->getLoc(), lhs, rhs);
    op->replaceAllUsesWith(ValueRange{unsignedOp});
    op->erase();
    return;
  }
  if (auto guard = dyn_cast<scf::IfOp>(op)) {
    Block *then = guard.thenBlock();
    auto yield = cast<scf::YieldOp>(then->getTerminator());
    SmallVector<Value> values(yield.getOperands());
    yield->erase();
    op->getBlock()->getOperations().splice(Block::iterator(op),
                                           then->getOperations());
    guard->replaceAllUsesWith(values);
    guard->erase();
    return;
  }
  if (auto select = dyn_cast<arith::SelectOp>(op)) {
    select.replaceAllUsesWith(select.getTrueValue());
    select->erase();
    return;
  }
  auto max = cast<arith::MaxSIOp>(op);
  Value index = std::get<0>(*matchClamp(max));
  max.replaceAllUsesWith(index);
  max->erase();
}

/// Versions the ops of a block from `first` to `end` (excluded; the
/// block's terminator when null): an scf.if at `first`, its condition that
/// every boundary test of them proved over `bounds`' region holds, the
/// then-branch the ops with those tests replaced, the else-branch the ops
/// as they were. Both versions lose their marks. The scf.if (marked
/// `arvr.interior`), or null when nothing is proved (the ops then
/// untouched). No value the ops define may be used after `end`.
inline scf::IfOp versionInterior(Operation *first, InteriorBounds &bounds,
                                 OpBuilder &b, Operation *end = nullptr) {
  Block &block = *first->getBlock();
  if (!end)
    end = block.getTerminator();
  SmallVector<Operation *> marked;
  for (Operation &op :
       llvm::make_range(Block::iterator(first), Block::iterator(end)))
    op.walk([&](Operation *nested) {
      if (nested->hasAttr(arvr::kBoundaryAttrName) ||
          isSignedDivisionByPositive(nested))
        marked.push_back(nested);
    });
  if (marked.empty())
    return {};
  Location loc = first->getLoc();
  b.setInsertionPoint(first);
  Value all;
  SmallVector<Operation *> proved;
  for (Operation *op : marked) {
    Value cond = interiorCondition(op, bounds, b);
    if (!cond)
      continue;
    proved.push_back(op);
    all = all ? arith::AndIOp::create(b, loc, all, cond) : cond;
  }
  if (proved.empty())
    return {};
  for (Value assumption : bounds.assumptions)
    all = arith::AndIOp::create(b, loc, all, assumption);

  auto split = scf::IfOp::create(b, loc, all, /*withElseRegion=*/true);
  split->setAttr(arvr::kInteriorAttrName, b.getUnitAttr());
  Block *border = split.elseBlock();
  border->getOperations().splice(border->begin(), block.getOperations(),
                                 Block::iterator(first), Block::iterator(end));
  IRMapping mapping;
  Block *interior = split.thenBlock();
  b.setInsertionPoint(interior->getTerminator());
  for (Operation &op : border->without_terminator())
    b.clone(op, mapping);
  // Replacing an op moves the ops nested in it, never erases them: the
  // order does not matter.
  for (Operation *op : proved)
    replaceByInterior(mapping.lookup(op), b);
  // Both versions are final: the marks have done their work.
  for (Region *region : {&split.getThenRegion(), &split.getElseRegion()})
    region->walk(
        [](Operation *op) { op->removeAttr(arvr::kBoundaryAttrName); });
  return split;
}

} // namespace mlir::arvr::interior

#endif // ARVR_LOWERING_UTILS_INTERIORBOUNDS_H
