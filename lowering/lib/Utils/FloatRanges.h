//===- FloatRanges.h - The ranges f32 values take ---------------*- C++ -*-===//
//
// An interval analysis of the f32 values of the loops: constants, integers
// widened to floats (a u8 read is in [0, 255]), sums, differences,
// products, fused multiply-adds, quotients by a divisor of one sign,
// negations, absolute values, minima, maxima and selects, the results of
// an `scf.if` (what either branch yields), and the loads of an
// intermediate buffer (a stage's), whose values are those its stores
// write. Each result is widened by the most f32 rounding can move it (a
// relative 2^-20, never across zero), so the interval holds the value on
// every target. A value whose range is not found (a parameter, a kernel's
// float image, a loop's carried value, anything else) is unknown: it may
// be NaN or infinite.
//
// A range may also allow NaN (and no infinity): a bilinear sample's weight
// u - floor(u) is in [0, 1] for every finite u and NaN otherwise, and a
// lerp a + t (b - a) with such a t lies between a and b, or is NaN. A NaN
// operand makes the result NaN, but in minnum and maxnum, which give the
// other operand. RangeAnalysis::of answers only for values never NaN
// (arvr-redundant-clamps); orNaN for both (arvr-gpu-saturating-fma).
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_LOWERING_UTILS_FLOATRANGES_H
#define ARVR_LOWERING_UTILS_FLOATRANGES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace mlir::arvr::float_ranges {

/// A closed interval of finite values; with `nan`, the value may also be
/// NaN (never an infinity).
struct Range {
  double lo, hi;
  bool nan = false;
};

/// The largest magnitude kept: beyond it, a result might overflow f32.
constexpr double kLargest = 1e37;

/// [lo, hi] widened by the most one f32 rounding can move a value (a
/// relative 2^-20, far above f32's 2^-24 and double's error), never across
/// zero (rounding keeps a value's sign); nothing when it may overflow.
inline std::optional<Range> rounded(double lo, double hi) {
  if (!(std::abs(lo) < kLargest) || !(std::abs(hi) < kLargest))
    return std::nullopt;
  constexpr double eps = 0x1p-20, tiny = 0x1p-140;
  auto down = [&](double v) {
    return v >= 0 ? std::max(0.0, v - v * eps) : v + v * eps - tiny;
  };
  auto up = [&](double v) {
    return v <= 0 ? std::min(0.0, v - v * eps) : v + v * eps + tiny;
  };
  return Range{down(lo), up(hi)};
}

inline Range product(Range a, Range b) {
  double p[] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  return Range{*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
}

/// The ranges of the f32 values of a function, found in one walk in order
/// (an operand's range is known before its user's; a buffer's stores come
/// before its loads, each stage after the ones it reads).
class RangeAnalysis {
public:
  explicit RangeAnalysis(Operation *root) {
    // The stores of each buffer that only loads and stores touch: an
    // allocation, or a tile in a launch's dynamic shared memory (a view of
    // it; arvr-map-to-gpu lays tiles apart).
    root->walk([&](Operation *op) {
      auto view = dyn_cast<memref::ViewOp>(op);
      if (!isa<memref::AllocOp>(op) &&
          !(view &&
            view.getSource().getDefiningOp<gpu::DynamicSharedMemoryOp>()))
        return;
      int stores = 0;
      for (Operation *user : op->getUsers()) {
        if (auto store = dyn_cast<memref::StoreOp>(user)) {
          if (store.getMemRef() != op->getResult(0))
            return;
          ++stores;
        } else if (!isa<memref::LoadOp, memref::DeallocOp, memref::DimOp>(
                       user)) {
          return;
        }
      }
      buffers[op->getResult(0)] = {stores, 0, true, Range{0, 0}};
    });
    root->walk([&](Operation *op) { visit(op); });
  }

  /// The range of `v` if it is never NaN.
  std::optional<Range> of(Value v) const {
    std::optional<Range> r = orNaN(v);
    if (r && r->nan)
      return std::nullopt;
    return r;
  }

  /// The range of `v`, which may also be NaN where `nan` says so.
  std::optional<Range> orNaN(Value v) const {
    auto it = ranges.find(v);
    if (it != ranges.end())
      return it->second;
    // A constant defined outside what was walked (above a launch).
    FloatAttr constant;
    if (matchPattern(v, m_Constant(&constant)) &&
        std::isfinite(constant.getValueAsDouble()))
      return Range{constant.getValueAsDouble(), constant.getValueAsDouble()};
    return std::nullopt;
  }

private:
  /// What the stores seen so far have written to a buffer (`range`: the
  /// union of their values while all are `known`).
  struct Buffer {
    int stores, seen;
    bool known;
    Range range;
  };

  void visit(Operation *op) {
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      auto it = buffers.find(store.getMemRef());
      if (it == buffers.end())
        return;
      Buffer &b = it->second;
      std::optional<Range> r = orNaN(store.getValue());
      if (!r)
        b.known = false;
      else if (b.seen == 0)
        b.range = *r;
      else
        b.range = join(b.range, *r);
      ++b.seen;
      return;
    }
    // An if's results: what either branch yields.
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      if (!branch.elseBlock())
        return;
      for (auto [i, result] : llvm::enumerate(branch.getResults())) {
        std::optional<Range> a = orNaN(branch.thenYield().getOperand(i));
        std::optional<Range> b = orNaN(branch.elseYield().getOperand(i));
        if (a && b && result.getType().isF32())
          ranges[result] = join(*a, *b);
      }
      return;
    }
    if (op->getNumResults() != 1 || !op->getResult(0).getType().isF32())
      return;
    if (std::optional<Range> r = compute(op))
      ranges[op->getResult(0)] = *r;
  }

  std::optional<Range> compute(Operation *op) {
    FloatAttr constant;
    if (matchPattern(op->getResult(0), m_Constant(&constant))) {
      double v = constant.getValueAsDouble();
      if (!std::isfinite(v))
        return std::nullopt;
      return Range{v, v};
    }
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      auto it = buffers.find(load.getMemRef());
      if (it == buffers.end())
        return std::nullopt;
      const Buffer &b = it->second;
      if (!b.known || b.stores == 0 || b.seen != b.stores)
        return std::nullopt;
      return b.range;
    }
    if (isa<arith::UIToFPOp, arith::SIToFPOp>(op)) {
      unsigned width = op->getOperand(0).getType().getIntOrFloatBitWidth();
      if (width > 62)
        return std::nullopt;
      double span = std::ldexp(1.0, width);
      if (isa<arith::UIToFPOp>(op))
        return rounded(0, span - 1);
      return rounded(-span / 2, span / 2 - 1);
    }
    // A sample's weight: x - floor(x) is in [0, 1] for every finite x, NaN
    // for the others.
    if (auto weight = dyn_cast<arith::SubFOp>(op))
      if (auto floor = weight.getRhs().getDefiningOp<math::FloorOp>();
          floor && floor.getOperand() == weight.getLhs())
        return Range{0, 1, true};
    SmallVector<Range, 3> in;
    bool nan = false;
    for (Value operand : op->getOperands()) {
      if (operand.getType().isInteger(1))
        continue; // A select's condition.
      std::optional<Range> r = orNaN(operand);
      if (!r)
        return std::nullopt;
      in.push_back(*r);
      nan |= r->nan;
    }
    // A lerp a + t (b - a), fused, with t in [0, 1]: between a and b, but
    // for the rounding of b - a (at most 2^-24 of it, widened with the
    // fma's own rounding), and NaN where t, a or b may be.
    if (auto fma = dyn_cast<math::FmaOp>(op)) {
      auto d = fma.getB().getDefiningOp<arith::SubFOp>();
      if (d && d.getRhs() == fma.getC() && in[0].lo >= 0 && in[0].hi <= 1) {
        std::optional<Range> b = orNaN(d.getLhs());
        if (b) {
          double lo = std::min(in[2].lo, b->lo), hi = std::max(in[2].hi, b->hi);
          double slack = (hi - lo) * 0x1p-20;
          std::optional<Range> r = rounded(lo - slack, hi + slack);
          if (!r)
            return r;
          r->nan = nan || b->nan;
          // Between a >= 0 and b >= 0 it is never below 0: b - a rounds to
          // at least -a (an f32), so a + t (b - a) >= a (1 - t) >= 0.
          if (in[2].lo >= 0 && b->lo >= 0)
            r->lo = std::max(r->lo, 0.0);
          return r;
        }
      }
    }
    // minnum/maxnum give the other operand for a NaN one.
    if (isa<arith::MaxNumFOp, arith::MinNumFOp>(op)) {
      bool max = isa<arith::MaxNumFOp>(op);
      Range a = in[0], b = in[1];
      Range r{max ? std::max(a.lo, b.lo) : std::min(a.lo, b.lo),
              max ? std::max(a.hi, b.hi) : std::min(a.hi, b.hi),
              a.nan && b.nan};
      for (auto [x, y] : {std::pair{a, b}, std::pair{b, a}})
        if (x.nan)
          r = {std::min(r.lo, y.lo), std::max(r.hi, y.hi), r.nan};
      return r;
    }
    std::optional<Range> r = rules(op, in);
    if (r)
      r->nan = nan;
    return r;
  }

  /// The range of `op`'s result from its operands', NaN aside.
  static std::optional<Range> rules(Operation *op, ArrayRef<Range> in) {
    return llvm::TypeSwitch<Operation *, std::optional<Range>>(op)
        .Case([&](arith::AddFOp) {
          return rounded(in[0].lo + in[1].lo, in[0].hi + in[1].hi);
        })
        .Case([&](arith::SubFOp) {
          return rounded(in[0].lo - in[1].hi, in[0].hi - in[1].lo);
        })
        .Case([&](arith::MulFOp) {
          Range p = product(in[0], in[1]);
          return rounded(p.lo, p.hi);
        })
        .Case([&](math::FmaOp) {
          Range p = product(in[0], in[1]);
          return rounded(p.lo + in[2].lo, p.hi + in[2].hi);
        })
        .Case([&](arith::DivFOp) -> std::optional<Range> {
          if (in[1].lo <= 0 && in[1].hi >= 0)
            return std::nullopt;
          Range p = product(in[0], Range{1 / in[1].hi, 1 / in[1].lo});
          return rounded(p.lo, p.hi);
        })
        .Case([&](arith::NegFOp) {
          return Range{-in[0].hi, -in[0].lo};
        })
        .Case([&](math::AbsFOp) {
          if (in[0].lo >= 0)
            return in[0];
          if (in[0].hi <= 0)
            return Range{-in[0].hi, -in[0].lo};
          return Range{0, std::max(-in[0].lo, in[0].hi)};
        })
        .Case([&](arith::MaximumFOp) {
          return Range{std::max(in[0].lo, in[1].lo),
                       std::max(in[0].hi, in[1].hi)};
        })
        .Case([&](arith::MinimumFOp) {
          return Range{std::min(in[0].lo, in[1].lo),
                       std::min(in[0].hi, in[1].hi)};
        })
        .Case([&](arith::SelectOp) {
          return Range{std::min(in[0].lo, in[1].lo),
                       std::max(in[0].hi, in[1].hi)};
        })
        .Default([](Operation *) { return std::nullopt; });
  }

  static Range join(Range a, Range b) {
    return {std::min(a.lo, b.lo), std::max(a.hi, b.hi), a.nan || b.nan};
  }

  DenseMap<Value, Range> ranges;
  DenseMap<Value, Buffer> buffers;
};

} // namespace mlir::arvr::float_ranges

#endif // ARVR_LOWERING_UTILS_FLOATRANGES_H
