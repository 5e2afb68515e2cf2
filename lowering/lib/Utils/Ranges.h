//===- Ranges.h - The ranges integers take: one set of rules ----*- C++ -*-===//
//
// The one bounds analysis of arvrc. Three passes ask the same question —
// over the points a region runs for, between which ends does this integer
// lie? — arvr-infer-bounds (the window each stage must compute),
// arvr-check-bounds (the proof that a read without a boundary mode stays
// inside) and the interior versions (arvr-specialize-interior,
// arvr-cpu-interior: where boundary tests pass for a whole block or run of
// columns). Rules<Client, End> holds the answer for every op, how its range
// follows from its operands'; a client supplies only what differs:
//
// - the leaves: what is fixed over the region and what varies between
//   known ends (a stage's coordinates over its window, a reduction
//   variable, a thread id, a loop's variable), and what to do where the
//   rules find no range (a value computed again where it is fixed);
// - the algebra of the ends: values computed in the IR (IrRanges: a
//   stage's window, an interior version's condition), or affine forms over
//   the kernel's sizes and parameters, in which arvr-check-bounds proves
//   inequalities when compiling.
//
// A range may have one end only (min(e, hi) is at most hi whatever e is),
// an end may be unknown: the client's algebra returns an unknown end for
// what it cannot represent.
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_LOWERING_UTILS_RANGES_H
#define ARVR_LOWERING_UTILS_RANGES_H

#include "arvr/Dialect/ArvrDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

#include <optional>

namespace mlir::arvr::ranges {

/// An inclusive range [lo, hi]; either end may be unknown.
template <typename End> struct Range { End lo{}, hi{}; };

/// The rules. `Client` derives from Rules<Client, End> and provides:
///
/// - leaf(v) -> std::optional<Range<End>>: a leaf's range (an unknown one
///   stops there), or nullopt to apply the rules to `v`;
/// - fallback(v, found) -> Range<End>: what to make of `v` where the rules
///   left an end unknown;
/// - known(end) -> bool; constant(c, type) -> End;
/// - constantOf(v) -> std::optional<int64_t>: `v`, when fixed and known;
/// - fixed(v) -> End: `v` itself as an end, when it is fixed;
/// - add(a, b, low), sub(a, b, low) (a - b), scale(a, k, type) (a * k),
///   product(a, b), minOf(a, b, low), maxOf(a, b, low) -> End;
/// - divide(op, a, k, low) -> End: `op` (floordivsi, divsi or ceildivsi)
///   of `a` by the constant k > 0;
/// - castRange(op, r) -> Range<End>: through index_cast, extsi or trunci;
/// - divideUnsigned(dividend, divisor, type) -> Range<End>;
/// - exact(r) -> Range<End>: the ends of an operand of min, max, select or
///   a division that the result may rely on (an algebra that ignores
///   wrapping keeps only ends that cannot wrap).
///
/// `low` says which end is asked for: an algebra that keeps a low end as
/// the least of several forms can take a min of low ends exactly, and of
/// high ends only by choosing one.
template <typename Client, typename End> class Rules {
public:
  using RangeT = Range<End>;

  /// The range of the integer or index `v`, memoised.
  RangeT rangeOf(Value v) {
    if (auto it = cache.find(v); it != cache.end())
      return it->second;
    RangeT result = compute(v);
    cache[v] = result;
    return result;
  }

private:
  Client &client() { return static_cast<Client &>(*this); }

  RangeT compute(Value v) {
    if (!v.getType().isIntOrIndex())
      return {};
    if (std::optional<RangeT> leaf = client().leaf(v))
      return *leaf;
    RangeT result;
    if (Operation *op = v.getDefiningOp())
      result = rangeOfOp(op, v);
    if (!client().known(result.lo) || !client().known(result.hi))
      result = client().fallback(v, result);
    return result;
  }

  RangeT single(const End &e) { return {e, e}; }

  /// min and max of the ends a product's extremes are among.
  RangeT productRange(const RangeT &l, const RangeT &r) {
    End p[4] = {client().product(l.lo, r.lo), client().product(l.lo, r.hi),
                client().product(l.hi, r.lo), client().product(l.hi, r.hi)};
    auto &c = client();
    return {
        c.minOf(c.minOf(p[0], p[1], true), c.minOf(p[2], p[3], true), true),
        c.maxOf(c.maxOf(p[0], p[1], false), c.maxOf(p[2], p[3], false), false)};
  }

  RangeT rangeOfOp(Operation *op, Value v) {
    auto &c = client();
    Type type = v.getType();
    APInt constant;
    if (matchPattern(v, m_ConstantInt(&constant)))
      return single(c.constant(constant.getSExtValue(), type));
    if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>(op))
      return c.castRange(op, rangeOf(op->getOperand(0)));
    // A value widened from an unsigned type of fewer bits (a u8 or u16
    // pixel: a table read at `lut(i32(src(x, y, c)))`) lies within that
    // type, whatever it is.
    if (isa<arith::ExtUIOp, arith::IndexCastUIOp>(op)) {
      Type from = getElementTypeOrSelf(op->getOperand(0).getType());
      unsigned bits = from.isIndex() ? 64 : from.getIntOrFloatBitWidth();
      if (bits >= 32)
        return {};
      return {c.constant(0, type), c.constant((int64_t(1) << bits) - 1, type)};
    }
    // |e| for e in [lo, hi]: [max(lo, -hi, 0), max(-lo, hi)].
    if (isa<math::AbsIOp>(op)) {
      RangeT e = rangeOf(op->getOperand(0));
      End zero = c.constant(0, type);
      return {c.maxOf(c.maxOf(e.lo, c.sub(zero, e.hi, true), true), zero, true),
              c.maxOf(c.sub(zero, e.lo, false), e.hi, false)};
    }
    if (auto select = dyn_cast<arith::SelectOp>(op)) {
      RangeT t = c.exact(rangeOf(select.getTrueValue()));
      RangeT f = c.exact(rangeOf(select.getFalseValue()));
      return {c.minOf(t.lo, f.lo, true), c.maxOf(t.hi, f.hi, false)};
    }
    // The position of a least (greatest) term: the first index, or `lower`
    // for an empty range.
    if (auto reduce = dyn_cast<ReduceOp>(op)) {
      if (!reduce.isArg())
        return {};
      RangeT lower = rangeOf(reduce.getLower());
      RangeT upper = rangeOf(reduce.getUpper());
      return {lower.lo, c.maxOf(lower.hi, upper.hi, false)};
    }
    if (op->getNumOperands() != 2 || op->getNumResults() != 1)
      return {};
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    // Remainders and divisions by a positive constant (an unsigned
    // remainder is in [0, k - 1] whatever the dividend).
    if (isa<arith::RemUIOp, arith::RemSIOp, arith::FloorDivSIOp, arith::DivSIOp,
            arith::CeilDivSIOp>(op)) {
      std::optional<int64_t> k = c.constantOf(rhs);
      if (k && *k > 0) {
        if (isa<arith::RemUIOp>(op))
          return {c.constant(0, type), c.constant(*k - 1, type)};
        if (isa<arith::RemSIOp>(op))
          return {c.constant(1 - *k, type), c.constant(*k - 1, type)};
        RangeT l = c.exact(rangeOf(lhs));
        return {c.divide(op, l.lo, *k, true), c.divide(op, l.hi, *k, false)};
      }
      if (!isa<arith::RemUIOp>(op))
        return {};
      // By a fixed divisor (positive where the op runs): [0, divisor - 1].
      End divisor = c.fixed(rhs);
      if (!c.known(divisor))
        return {};
      return {c.constant(0, type),
              c.sub(divisor, c.constant(1, type), /*low=*/false)};
    }
    if (isa<arith::DivUIOp>(op))
      return c.divideUnsigned(rangeOf(lhs), rhs, type);
    if (!isa<arith::AddIOp, arith::SubIOp, arith::MinSIOp, arith::MaxSIOp,
             arith::MulIOp>(op))
      return {};
    if (isa<arith::MulIOp>(op)) {
      // By a constant: the other's ends scaled, swapped when negative.
      for (auto [factor, other] : {std::pair{rhs, lhs}, {lhs, rhs}}) {
        std::optional<int64_t> k = c.constantOf(factor);
        if (!k)
          continue;
        RangeT r = rangeOf(other);
        End a = c.scale(r.lo, *k, type), z = c.scale(r.hi, *k, type);
        return *k >= 0 ? RangeT{a, z} : RangeT{z, a};
      }
      return productRange(rangeOf(lhs), rangeOf(rhs));
    }
    RangeT l = rangeOf(lhs), r = rangeOf(rhs);
    if (isa<arith::AddIOp>(op))
      return {c.add(l.lo, r.lo, true), c.add(l.hi, r.hi, false)};
    if (isa<arith::SubIOp>(op))
      return {c.sub(l.lo, r.hi, true), c.sub(l.hi, r.lo, false)};
    l = c.exact(l);
    r = c.exact(r);
    if (isa<arith::MinSIOp>(op))
      return {c.minOf(l.lo, r.lo, true), c.minOf(l.hi, r.hi, false)};
    return {c.maxOf(l.lo, r.lo, true), c.maxOf(l.hi, r.hi, false)};
  }

  DenseMap<Value, RangeT> cache;
};

/// Ends as values computed at a builder's point (null: unknown), for the
/// clients that build windows and conditions; leaves and fallback are the
/// subclass's.
class IrRanges : public Rules<IrRanges, Value> {
public:
  struct Options {
    /// Every end an index (the operands of a stage's window), else each of
    /// the type of the value it bounds.
    bool asIndex = false;
    /// A min's high end where only one operand has one (the other's), and
    /// a max's low end: a clamp of a value without a range has its
    /// bounds' range.
    bool oneSidedClamps = false;
    /// A truncation keeps its operand's range (coordinates never wrap);
    /// else it has none.
    bool truncationsKeepRanges = false;
  };

  IrRanges(OpBuilder &builder, Location loc, Options options)
      : b(builder), loc(loc), options(options) {}
  virtual ~IrRanges() = default;

  virtual std::optional<RangeT> leaf(Value v) = 0;
  virtual RangeT fallback(Value, RangeT found) { return found; }
  /// `v` as a value fixed over the region, or null.
  virtual Value fixed(Value v) = 0;
  /// An unsigned division by a fixed divisor, where the client can make
  /// the dividend's being >= 0 a condition; unknown otherwise.
  virtual RangeT divideUnsigned(RangeT, Value, Type) { return {}; }

  bool known(Value end) const { return static_cast<bool>(end); }
  RangeT exact(RangeT r) { return r; }

  Value constant(int64_t c, Type type) {
    if (options.asIndex || type.isIndex())
      return arith::ConstantIndexOp::create(b, loc, c);
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, c));
  }
  std::optional<int64_t> constantOf(Value v) { return getConstantIntValue(v); }

  Value add(Value x, Value y, bool) {
    return x && y ? arith::AddIOp::create(b, loc, x, y) : Value();
  }
  Value sub(Value x, Value y, bool) {
    return x && y ? arith::SubIOp::create(b, loc, x, y) : Value();
  }
  Value scale(Value x, int64_t k, Type type) {
    return x ? arith::MulIOp::create(b, loc, x, constant(k, type)) : Value();
  }
  Value product(Value x, Value y) {
    return x && y ? arith::MulIOp::create(b, loc, x, y) : Value();
  }
  Value minOf(Value x, Value y, bool low) {
    if (x && y)
      return arith::MinSIOp::create(b, loc, x, y);
    return options.oneSidedClamps && !low ? (x ? x : y) : Value();
  }
  Value maxOf(Value x, Value y, bool low) {
    if (x && y)
      return arith::MaxSIOp::create(b, loc, x, y);
    return options.oneSidedClamps && low ? (x ? x : y) : Value();
  }
  Value divide(Operation *op, Value x, int64_t k, bool) {
    if (!x)
      return {};
    Value divisor = constant(k, x.getType());
    if (isa<arith::FloorDivSIOp>(op))
      return arith::FloorDivSIOp::create(b, loc, x, divisor);
    if (isa<arith::CeilDivSIOp>(op))
      return arith::CeilDivSIOp::create(b, loc, x, divisor);
    return arith::DivSIOp::create(b, loc, x, divisor);
  }
  RangeT castRange(Operation *op, RangeT r) {
    if (isa<arith::TruncIOp>(op) && !options.truncationsKeepRanges)
      return {};
    if (options.asIndex)
      return r;
    auto castEnd = [&](Value end) -> Value {
      if (!end)
        return {};
      IRMapping mapping;
      mapping.map(op->getOperand(0), end);
      return b.clone(*op, mapping)->getResult(0);
    };
    return {castEnd(r.lo), castEnd(r.hi)};
  }

protected:
  /// `v` as an end: an index where all ends are.
  Value asEnd(Value v) {
    if (!options.asIndex || v.getType().isIndex())
      return v;
    return arith::IndexCastOp::create(b, v.getLoc(), b.getIndexType(), v);
  }

  OpBuilder &b;
  Location loc;
  Options options;
};

} // namespace mlir::arvr::ranges

#endif // ARVR_LOWERING_UTILS_RANGES_H
