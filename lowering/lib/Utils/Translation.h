//===- Translation.h - Is a read at its reader's point plus an offset? ---===//
//
// How a coordinate of a read inside a stage (the reader) follows one of the
// reader's own coordinates: the reader's coordinate plus an offset the same
// for every point of the reader (translated), an offset alone (uniform), or
// anything else. Where the offset is built from constants and reduction
// variables whose bounds are such sums, by sums and differences, its
// range is known when compiling. arvr-infer-bounds asks it whether a stage can
// be computed in its reader's tiles (a tile plus a fixed halo),
// arvr-stage-inputs whether an image is read as a stencil of known extent,
// and arvr-auto-schedule both; and how many times a point runs an op
// inside reductions (a stencil's taps).
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_LOWERING_UTILS_TRANSLATION_H
#define ARVR_LOWERING_UTILS_TRANSLATION_H

#include "arvr/Dialect/ArvrDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

#include <optional>
#include <utility>

namespace mlir::arvr {

/// The most columns or rows a tile in shared memory may reach beyond its
/// reader's on each side, where the compiler chooses to put it there (a
/// staged input, a function of a kernel without a schedule): the tile
/// stays small.
constexpr int64_t kMaxSharedHalo = 16;

/// How a coordinate of a read depends on its reader's coordinate `dim`.
struct Translation {
  enum class Kind { Uniform, Translated, Other };
  Kind kind = Kind::Other;
  /// The offset's ends (lowest, highest) where known when compiling.
  std::optional<std::pair<int64_t, int64_t>> range;

  bool isTranslated() const { return kind == Kind::Translated; }
  bool isUniform() const { return kind == Kind::Uniform; }
};

/// How `value`, inside `reader`, follows the reader's coordinate `dim`:
/// uniform over the reader (constants, kernel values, reduction
/// variables, and what is computed from them alone), that coordinate plus
/// a uniform offset (`x + i`, `i + x`, `x - i`), or other.
inline Translation translationOf(Value value, StageOp reader, unsigned dim) {
  using Kind = Translation::Kind;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (owner == reader.getOperation())
      return arg.getArgNumber() == dim
                 ? Translation{Kind::Translated, std::make_pair(0, 0)}
                 : Translation{};
    if (auto reduce = dyn_cast<ReduceOp>(owner)) {
      // Its bounds' ends, where constants or sums of them fix them.
      Translation lower = translationOf(reduce.getLower(), reader, dim),
                  upper = translationOf(reduce.getUpper(), reader, dim);
      // A variable whose bounds follow the point is not uniform.
      if (!lower.isUniform() || !upper.isUniform())
        return {};
      if (lower.range && upper.range &&
          lower.range->first <= upper.range->second)
        return {Kind::Uniform,
                std::make_pair(lower.range->first, upper.range->second)};
      return {Kind::Uniform, std::nullopt};
    }
    return reader->isAncestor(owner) ? Translation{}
                                     : Translation{Kind::Uniform, std::nullopt};
  }
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return {Kind::Uniform,
            std::make_pair(constant.getSExtValue(), constant.getSExtValue())};
  Operation *op = value.getDefiningOp();
  // Outside the reader, only sums of constants have a known range.
  if (!reader->isAncestor(op) &&
      !isa<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp, arith::AddIOp,
           arith::SubIOp>(op))
    return {Kind::Uniform, std::nullopt};
  if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>(op))
    return translationOf(op->getOperand(0), reader, dim);
  SmallVector<Translation, 2> operands;
  for (Value operand : op->getOperands())
    operands.push_back(translationOf(operand, reader, dim));
  bool sum = isa<arith::AddIOp>(op), difference = isa<arith::SubIOp>(op);
  auto rangeOf = [&](bool negateRhs) {
    std::optional<std::pair<int64_t, int64_t>> lhs = operands[0].range,
                                               rhs = operands[1].range;
    if (!lhs || !rhs)
      return std::optional<std::pair<int64_t, int64_t>>();
    return negateRhs
               ? std::make_optional(std::make_pair(lhs->first - rhs->second,
                                                   lhs->second - rhs->first))
               : std::make_optional(std::make_pair(lhs->first + rhs->first,
                                                   lhs->second + rhs->second));
  };
  if (llvm::all_of(operands,
                   [](const Translation &t) { return t.isUniform(); })) {
    if (op->getNumRegions())
      return {};
    if (sum || difference)
      return {Kind::Uniform, rangeOf(difference)};
    return {Kind::Uniform, std::nullopt};
  }
  if (sum && operands[0].isTranslated() != operands[1].isTranslated() &&
      llvm::all_of(operands, [](const Translation &t) {
        return t.isTranslated() || t.isUniform();
      }))
    return {Kind::Translated, rangeOf(false)};
  if (difference && operands[0].isTranslated() && operands[1].isUniform())
    return {Kind::Translated, rangeOf(true)};
  return {};
}

/// The terms of the reductions around `op` inside `stage` (the product of
/// their lengths): how many times a point of `stage` runs `op`. A reduction
/// whose length is not known when compiling counts as `unknown` terms.
inline int64_t termsAround(Operation *op, StageOp stage, int64_t unknown) {
  int64_t terms = 1;
  for (auto reduce = op->getParentOfType<ReduceOp>();
       reduce && stage->isAncestor(reduce);
       reduce = reduce->getParentOfType<ReduceOp>()) {
    Translation lower = translationOf(reduce.getLower(), stage, 0),
                upper = translationOf(reduce.getUpper(), stage, 0);
    terms *=
        lower.isUniform() && upper.isUniform() && lower.range && upper.range
            ? std::max<int64_t>(1, upper.range->second - lower.range->first + 1)
            : unknown;
  }
  return terms;
}

} // namespace mlir::arvr

#endif // ARVR_LOWERING_UTILS_TRANSLATION_H
