//===- AffineIndex.h - An index as root * num / den + offset ---*- C++ -*-===//
//
// A small affine decomposition of index arithmetic, for passes that need to
// know when two accesses touch the same or neighbouring elements (the same
// row, columns base + k): through index casts, additions and products of
// constants and unsigned divisions by constants. It assumes, as the kernels'
// index arithmetic does, that coordinates do not overflow 32 bits (the
// runner refuses images of 2^31 elements or more).
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_LOWERING_UTILS_AFFINEINDEX_H
#define ARVR_LOWERING_UTILS_AFFINEINDEX_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace mlir::arvr {

/// Divisors beyond this are not tracked (a constant 0 has every divisor).
constexpr int64_t kBigDivisor = int64_t(1) << 30;

/// A divisor of every value `v` takes (1 when nothing is known).
int64_t knownDivisor(Value v, int depth = 0);

/// An index as `root * num / den + offset`, where `root * num` is a
/// multiple of `den` (no root: the constant `offset`).
struct Affine {
  Value root;
  int64_t num = 1, den = 1, offset = 0;

  bool sameBase(const Affine &other) const {
    return root == other.root && num == other.num && den == other.den;
  }
  bool operator==(const Affine &other) const {
    return sameBase(other) && offset == other.offset;
  }
};

/// Floor of a / b (b non-zero).
int64_t floorDiv(int64_t a, int64_t b);

/// `v` decomposed (at worst: root `v`, num = den = 1, offset 0).
Affine decompose(Value v, int depth = 0);

/// An index as a sum of values times constants plus a constant: what two
/// indices made apart (`y0 + 1 + j`, `(y0 + 4 + j - 3) - r0 + r0`) are, to
/// tell whether they are equal. Terms are sorted by value, without zeros.
struct Linear {
  SmallVector<std::pair<Value, int64_t>, 4> terms;
  int64_t offset = 0;

  bool operator==(const Linear &other) const {
    return offset == other.offset && terms == other.terms;
  }
};

/// `v` as a Linear, through index casts, additions, subtractions and
/// products by constants (anything else is a term of its own).
Linear linearize(Value v);

} // namespace mlir::arvr

#endif // ARVR_LOWERING_UTILS_AFFINEINDEX_H
