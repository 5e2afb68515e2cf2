//===- FloatIntervals.h - f32 values' ends over a block, as IR --*- C++ -*-===//
//
// Beside InteriorBounds' integer ranges (Ranges.h's rules), the ends of the
// f32 values a region computes over all of its points (a block's threads,
// its loops' variables), as values computed before it, and from them the
// condition under which a test of such values holds at every point: the
// interval arithmetic of arvr-gpu-block-proofs.
//
// The ends are computed with the operations the points use, in f32,
// rounded to nearest even. Rounding is monotone, so an operation
// non-decreasing in an operand (a sum, a rounding to a whole number, a
// conversion from an integer, a min or max) evaluated at its operands' ends
// bounds its value at every point, rounded as the points are; a
// difference and a negation swap ends; a product, fused multiply-add or
// quotient of varying operands takes the least and the greatest of its
// corner values (a square the point nearest 0 for its low end), exact
// where the points' own rounding is; a quotient needs a divisor without 0;
// a choice whose condition varies takes both operands' hull. Operations
// carrying fast-math flags are not followed (the back end may contract
// them, rounding once where the ends round twice).
//
// Infinities and NaN: a point that is infinite or NaN makes an end of its
// value infinite or NaN (sums, products, roundings and the NaN-propagating
// min and max of the corners carry them, a min or max of points or a
// choice gives one of its operands' points), so every test requires its
// operands' ends finite, and compares them ordered. Tests: `and` and `or`
// of tests, f32 comparisons, and `bits(f) <u K` (convert-arvr-to-loops's
// inside test of a bilinear sample), which holds where `f > 0` (or `f` is
// a rounding of such a value: no -0) and `f`'s high end, finite, has bits
// below K >= 0; integer tests as InteriorBounds proves them.
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_LOWERING_UTILS_FLOATINTERVALS_H
#define ARVR_LOWERING_UTILS_FLOATINTERVALS_H

#include "InteriorBounds.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace mlir::arvr::interior {

/// The low and high ends of an f32 value over a region (both included).
struct Interval {
  Value lo, hi;
};

/// Builds, at the bounds' insertion point, the ends of f32 values over the
/// region of `ints`, and conditions under which tests hold at every point.
class FloatIntervals {
public:
  FloatIntervals(InteriorBounds &ints, OpBuilder &builder, Location loc)
      : ints(ints), b(builder), loc(loc) {}

  /// The ends of the f32 `v` over the region, or nothing.
  std::optional<Interval> interval(Value v) {
    if (auto it = cache.find(v); it != cache.end())
      return it->second;
    std::optional<Interval> result = compute(v);
    cache[v] = result;
    return result;
  }

  /// A condition under which the i1 `cond` holds at every point of the
  /// region; null when none can be built: InteriorBounds' `and`, `or` and
  /// integer tests, with the tests of f32 values here.
  Value alwaysTrue(Value cond) {
    return ints.alwaysTrue(cond, [&](Value test) -> Value {
      Operation *op = test.getDefiningOp();
      if (auto cmp = dyn_cast_if_present<arith::CmpFOp>(op))
        return comparison(cmp);
      if (auto cmp = dyn_cast_if_present<arith::CmpIOp>(op))
        return bitsBelow(cmp);
      return {};
    });
  }

private:
  Value f32(double value) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
  }
  Value min(Value x, Value y) {
    return x == y ? x : arith::MinimumFOp::create(b, loc, x, y);
  }
  Value max(Value x, Value y) {
    return x == y ? x : arith::MaximumFOp::create(b, loc, x, y);
  }
  Value cmp(arith::CmpFPredicate pred, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, pred, x, y);
  }
  /// Whether both ends are finite.
  Value finite(Interval r) {
    Value inf = f32(std::numeric_limits<float>::infinity());
    auto end = [&](Value x) {
      return cmp(arith::CmpFPredicate::OLT, math::AbsFOp::create(b, loc, x),
                 inf);
    };
    Value lo = end(r.lo);
    return arith::AndIOp::create(b, loc, lo, end(r.hi));
  }
  Value all(ArrayRef<Value> conds) {
    Value result = conds.front();
    for (Value c : conds.drop_front())
      result = arith::AndIOp::create(b, loc, result, c);
    return result;
  }

  /// Whether `op` rounds to a whole number (non-decreasing; no -0 from a
  /// value > 0).
  static bool isRounding(Operation *op) {
    return isa<math::FloorOp, math::CeilOp, math::TruncOp, math::RoundEvenOp,
               math::RoundOp>(op);
  }

  static bool hasFastMath(Operation *op) {
    auto fm = dyn_cast<arith::ArithFastMathInterface>(op);
    return fm && fm.getFastMathFlagsAttr() &&
           fm.getFastMathFlagsAttr().getValue() != arith::FastMathFlags::none;
  }

  /// The least and greatest of `f` over the corners of `x` and `y` (an
  /// end taken once where both are the same).
  Interval corners(Interval x, Interval y,
                   function_ref<Value(Value, Value)> f) {
    SmallVector<Value> xs{x.lo}, ys{y.lo};
    if (x.hi != x.lo)
      xs.push_back(x.hi);
    if (y.hi != y.lo)
      ys.push_back(y.hi);
    Value lo, hi;
    for (Value a : xs)
      for (Value c : ys) {
        Value v = f(a, c);
        lo = lo ? min(lo, v) : v;
        hi = hi ? max(hi, v) : v;
      }
    return {lo, hi};
  }

  /// The point of `x` nearest 0.
  Value nearestZero(Interval x) {
    Value zero = f32(0.0);
    return max(x.lo, min(zero, x.hi));
  }

  std::optional<Interval> compute(Value v) {
    if (Value fixed = ints.uniform(v))
      return Interval{fixed, fixed};
    Operation *op = v.getDefiningOp();
    if (!op || op->getNumResults() != 1 || hasFastMath(op) ||
        !v.getType().isF32())
      return std::nullopt;
    if (isa<arith::SIToFPOp, arith::UIToFPOp>(op)) {
      std::optional<Range> r = ints.range(op->getOperand(0));
      if (!r)
        return std::nullopt;
      if (isa<arith::UIToFPOp>(op)) {
        Value zero =
            arith::ConstantOp::create(b, loc, b.getZeroAttr(r->low.getType()));
        ints.assumptions.push_back(arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::sge, r->low, zero));
      }
      return each(op, {r->low, r->high});
    }
    SmallVector<Interval> in;
    for (Value operand : op->getOperands()) {
      if (isa<arith::SelectOp>(op) && operand == op->getOperand(0))
        continue;
      std::optional<Interval> r = interval(operand);
      if (!r)
        return std::nullopt;
      in.push_back(*r);
    }
    return combine(op, in);
  }

  /// `op` (one operand) applied to each end.
  Interval each(Operation *op, Interval x) {
    auto at = [&](Value end) {
      IRMapping mapping;
      mapping.map(op->getOperand(0), end);
      return b.clone(*op, mapping)->getResult(0);
    };
    return {at(x.lo), at(x.hi)};
  }

  /// The ends of `op`'s result from its f32 operands' (`in`; a select's
  /// condition left out).
  std::optional<Interval> combine(Operation *op, ArrayRef<Interval> in) {
    Value x = op->getOperand(0);
    if (isRounding(op) || isa<math::SqrtOp>(op))
      return each(op, in[0]);
    if (isa<arith::NegFOp>(op))
      return Interval{arith::NegFOp::create(b, loc, in[0].hi),
                      arith::NegFOp::create(b, loc, in[0].lo)};
    if (isa<math::AbsFOp>(op)) {
      Value negLo = arith::NegFOp::create(b, loc, in[0].lo);
      Value negHi = arith::NegFOp::create(b, loc, in[0].hi);
      Value lo = max(in[0].lo, negHi);
      lo = max(lo, f32(0.0));
      return Interval{lo, max(negLo, in[0].hi)};
    }
    if (isa<arith::AddFOp>(op))
      return Interval{arith::AddFOp::create(b, loc, in[0].lo, in[1].lo),
                      arith::AddFOp::create(b, loc, in[0].hi, in[1].hi)};
    if (isa<arith::SubFOp>(op))
      return Interval{arith::SubFOp::create(b, loc, in[0].lo, in[1].hi),
                      arith::SubFOp::create(b, loc, in[0].hi, in[1].lo)};
    if (isa<arith::MinNumFOp, arith::MaxNumFOp, arith::MinimumFOp,
            arith::MaximumFOp>(op)) {
      auto apply = [&](Value p, Value q) {
        IRMapping mapping;
        mapping.map(op->getOperand(0), p);
        mapping.map(op->getOperand(1), q);
        return b.clone(*op, mapping)->getResult(0);
      };
      return Interval{apply(in[0].lo, in[1].lo), apply(in[0].hi, in[1].hi)};
    }
    if (auto select = dyn_cast<arith::SelectOp>(op)) {
      if (Value c = ints.uniform(select.getCondition()))
        return Interval{arith::SelectOp::create(b, loc, c, in[0].lo, in[1].lo),
                        arith::SelectOp::create(b, loc, c, in[0].hi, in[1].hi)};
      return Interval{min(in[0].lo, in[1].lo), max(in[0].hi, in[1].hi)};
    }
    if (isa<arith::MulFOp>(op)) {
      if (x == op->getOperand(1)) {
        Value m = nearestZero(in[0]);
        Value lo = arith::MulFOp::create(b, loc, m, m);
        Value atLo = arith::MulFOp::create(b, loc, in[0].lo, in[0].lo);
        Value atHi = arith::MulFOp::create(b, loc, in[0].hi, in[0].hi);
        return Interval{lo, max(atLo, atHi)};
      }
      return corners(in[0], in[1], [&](Value p, Value q) -> Value {
        return arith::MulFOp::create(b, loc, p, q);
      });
    }
    if (isa<math::FmaOp>(op))
      return fma(x == op->getOperand(1), in);
    if (isa<arith::DivFOp>(op)) {
      // A divisor without 0: positive or negative throughout.
      Value positive = cmp(arith::CmpFPredicate::OGT, in[1].lo, f32(0.0));
      Value negative = cmp(arith::CmpFPredicate::OLT, in[1].hi, f32(0.0));
      ints.assumptions.push_back(
          arith::OrIOp::create(b, loc, positive, negative));
      return corners(in[0], in[1], [&](Value p, Value q) -> Value {
        return arith::DivFOp::create(b, loc, p, q);
      });
    }
    return std::nullopt;
  }

  /// `a * b + c`, rounded once: `square` where `a` and `b` are one value.
  Interval fma(bool square, ArrayRef<Interval> in) {
    auto at = [&](Value p, Value q, Value c) -> Value {
      return math::FmaOp::create(b, loc, p, q, c);
    };
    if (square) {
      Value m = nearestZero(in[0]);
      Value lo = at(m, m, in[2].lo);
      Value atLo = at(in[0].lo, in[0].lo, in[2].hi);
      Value atHi = at(in[0].hi, in[0].hi, in[2].hi);
      return {lo, max(atLo, atHi)};
    }
    Value lo = corners(in[0], in[1], [&](Value p, Value q) {
                 return at(p, q, in[2].lo);
               }).lo;
    Value hi = corners(in[0], in[1], [&](Value p, Value q) {
                 return at(p, q, in[2].hi);
               }).hi;
    return {lo, hi};
  }

  /// `x pred y` at every point: both finite, their ends ordered.
  Value comparison(arith::CmpFOp op) {
    using P = arith::CmpFPredicate;
    std::optional<Interval> x = interval(op.getLhs());
    std::optional<Interval> y = interval(op.getRhs());
    if (!x || !y)
      return {};
    Value holds;
    switch (op.getPredicate()) {
    case P::OLT:
    case P::ULT:
      holds = cmp(P::OLT, x->hi, y->lo);
      break;
    case P::OLE:
    case P::ULE:
      holds = cmp(P::OLE, x->hi, y->lo);
      break;
    case P::OGT:
    case P::UGT:
      holds = cmp(P::OGT, x->lo, y->hi);
      break;
    case P::OGE:
    case P::UGE:
      holds = cmp(P::OGE, x->lo, y->hi);
      break;
    default:
      return {};
    }
    return all({finite(*x), finite(*y), holds});
  }

  /// `bits(f) <u K` (or `<=u`), K fixed: f's points have their sign bit
  /// clear (f > 0, or f a rounding of such a value) and its high end,
  /// finite, is below K as bits, as non-negative floats order.
  Value bitsBelow(arith::CmpIOp op) {
    using P = arith::CmpIPredicate;
    if (op.getPredicate() != P::ult && op.getPredicate() != P::ule)
      return {};
    auto cast = op.getLhs().getDefiningOp<arith::BitcastOp>();
    Value k = ints.uniform(op.getRhs());
    if (!cast || !k || !cast.getIn().getType().isF32())
      return {};
    Value f = cast.getIn();
    if (Operation *rounding = f.getDefiningOp();
        rounding && isRounding(rounding))
      f = rounding->getOperand(0);
    std::optional<Interval> source = interval(f);
    std::optional<Interval> tested = interval(cast.getIn());
    if (!source || !tested)
      return {};
    Value zero = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
    Value hiBits = arith::BitcastOp::create(b, loc, b.getI32Type(), tested->hi);
    return all({finite(*tested),
                cmp(arith::CmpFPredicate::OGT, source->lo, f32(0.0)),
                arith::CmpIOp::create(b, loc, P::sge, k, zero),
                arith::CmpIOp::create(b, loc, op.getPredicate(), hiBits, k)});
  }

  InteriorBounds &ints;
  OpBuilder &b;
  Location loc;
  DenseMap<Value, std::optional<Interval>> cache;
};

} // namespace mlir::arvr::interior

#endif // ARVR_LOWERING_UTILS_FLOATINTERVALS_H
