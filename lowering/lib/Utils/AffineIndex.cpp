//===- AffineIndex.cpp - An index as root * num / den + offset ------------===//
//
// See AffineIndex.h.
//
//===----------------------------------------------------------------------===//

#include "AffineIndex.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

#include <numeric>

using namespace mlir;

namespace mlir::arvr {

/// A divisor of every value `v` takes (1 when nothing is known).
int64_t knownDivisor(Value v, int depth) {
  APInt constant;
  if (matchPattern(v, m_ConstantInt(&constant))) {
    int64_t c = std::abs(constant.getSExtValue());
    return c == 0 ? kBigDivisor : std::min(c, kBigDivisor);
  }
  Operation *op = v.getDefiningOp();
  if (!op || depth > 16)
    return 1;
  auto operand = [&](unsigned i) {
    return knownDivisor(op->getOperand(i), depth + 1);
  };
  if (isa<arith::MulIOp>(op))
    return std::min(operand(0) * operand(1), kBigDivisor);
  if (isa<arith::AddIOp, arith::SubIOp>(op))
    return std::gcd(operand(0), operand(1));
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(op))
    return operand(0);
  if (isa<arith::DivUIOp>(op) &&
      matchPattern(op->getOperand(1), m_ConstantInt(&constant))) {
    int64_t d = constant.getSExtValue(), n = operand(0);
    return d > 0 && n % d == 0 ? n / d : 1;
  }
  return 1;
}

int64_t floorDiv(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

Affine decompose(Value v, int depth) {
  APInt constant;
  if (matchPattern(v, m_ConstantInt(&constant)))
    return {Value(), 1, 1, constant.getSExtValue()};
  Operation *op = v.getDefiningOp();
  if (!op || depth > 16)
    return {v};
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(op))
    return decompose(op->getOperand(0), depth + 1);
  if (isa<arith::AddIOp, arith::SubIOp>(op) &&
      matchPattern(op->getOperand(1), m_ConstantInt(&constant))) {
    Affine a = decompose(op->getOperand(0), depth + 1);
    int64_t c = constant.getSExtValue();
    a.offset += isa<arith::AddIOp>(op) ? c : -c;
    return a;
  }
  if (isa<arith::MulIOp>(op) &&
      matchPattern(op->getOperand(1), m_ConstantInt(&constant))) {
    Affine a = decompose(op->getOperand(0), depth + 1);
    int64_t c = constant.getSExtValue();
    a.num *= c;
    a.offset *= c;
    int64_t g = std::gcd(a.num, a.den);
    a.num /= g;
    a.den /= g;
    return a;
  }
  if (isa<arith::DivUIOp>(op) &&
      matchPattern(op->getOperand(1), m_ConstantInt(&constant))) {
    Affine a = decompose(op->getOperand(0), depth + 1);
    int64_t d = constant.getSExtValue();
    if (d <= 0)
      return {v};
    if (!a.root)
      return a.offset >= 0 ? Affine{Value(), 1, 1, a.offset / d} : Affine{v};
    // root * num / den must be a multiple of d for the offset to divide
    // apart: (R + o) / d = R / d + floor(o / d).
    int64_t rootDivisor = knownDivisor(a.root);
    if ((rootDivisor * a.num) % (a.den * d) != 0)
      return {v};
    a.den *= d;
    a.offset = floorDiv(a.offset, d);
    int64_t g = std::gcd(a.num, a.den);
    a.num /= g;
    a.den /= g;
    return a;
  }
  if (isa<arith::AddIOp, arith::SubIOp>(op)) {
    // Terms that cancel (a tile's place in its block: (c0 + k) - c0) leave
    // one value times a constant.
    Linear form = linearize(v);
    if (form.terms.size() == 1 && form.terms.front().second > 0) {
      auto [term, scale] = form.terms.front();
      Affine a = decompose(term, depth + 1);
      a.num *= scale;
      a.offset = a.offset * scale + form.offset;
      int64_t g = std::gcd(a.num, a.den);
      a.num /= g;
      a.den /= g;
      return a;
    }
  }
  return {v};
}

/// Adds `scale` times `v` to `form`.
static void addLinear(Value v, int64_t scale, Linear &form, int depth) {
  APInt constant;
  if (matchPattern(v, m_ConstantInt(&constant))) {
    form.offset += scale * constant.getSExtValue();
    return;
  }
  Operation *op = v.getDefiningOp();
  if (op && depth <= 16) {
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(op))
      return addLinear(op->getOperand(0), scale, form, depth + 1);
    if (isa<arith::AddIOp, arith::SubIOp>(op)) {
      addLinear(op->getOperand(0), scale, form, depth + 1);
      addLinear(op->getOperand(1), isa<arith::SubIOp>(op) ? -scale : scale,
                form, depth + 1);
      return;
    }
    if (isa<arith::MulIOp>(op)) {
      for (unsigned i = 0; i < 2; ++i)
        if (matchPattern(op->getOperand(1 - i), m_ConstantInt(&constant)))
          return addLinear(op->getOperand(i), scale * constant.getSExtValue(),
                           form, depth + 1);
    }
  }
  form.terms.push_back({v, scale});
}

Linear linearize(Value v) {
  Linear form;
  addLinear(v, 1, form, 0);
  // Sorted by value, like terms merged, zeros dropped.
  llvm::sort(form.terms, [](auto &a, auto &b) {
    return a.first.getAsOpaquePointer() < b.first.getAsOpaquePointer();
  });
  SmallVector<std::pair<Value, int64_t>, 4> merged;
  for (auto [value, scale] : form.terms) {
    if (!merged.empty() && merged.back().first == value)
      merged.back().second += scale;
    else
      merged.push_back({value, scale});
  }
  llvm::erase_if(merged, [](auto &term) { return term.second == 0; });
  form.terms = std::move(merged);
  return form;
}

} // namespace mlir::arvr
