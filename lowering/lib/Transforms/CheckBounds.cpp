//===- CheckBounds.cpp - Prove that reads without boundary stay inside ----===//
//
// A read of an image without a boundary mode (`arvr.access ... in_bounds`)
// is undefined outside the image, so the compiler must prove it stays
// inside. The ranges come from the bounds analysis of Ranges.h (the rules
// arvr-infer-bounds and the interior versions use), with ends that are
// affine forms over "atoms", the kernel's uniform integers: image sizes (at
// least 1), floor divisions of forms by constants, and values it cannot see
// into (scalar parameters: of either sign). An end may be the least (or
// greatest) of a few forms that cannot be compared, as min, max, select and
// unions make. A coordinate of a stage ranges over the stage's window; the
// window of a stage without sizes is the union of what its readers read, so
// stages are visited from the last to the first. `0 <= low` and `high <=
// size - 1` are then proved for every value of the atoms by replacing each
// atom by a bound on the side that keeps the inequality (a floor division by
// its rational bound, or by the least integer it can be; an image size by
// 1). A read not proved is an error, with a note saying how far it may go.
// A read with a boundary mode that is proved inside the same way (a stage
// read at its reader's own point, over a window of the same size) becomes
// `in_bounds`: its boundary handling is never emitted, and passes after
// see a read at the point (arvr-fuse-point-consumers).
//
// To stay sound where i32 arithmetic could wrap, forms are kept small
// (constants below 2^20, coefficients up to 256, images below 2^15 a side),
// and the ends floor division, min, max and select take from their
// operands must not depend on a scalar parameter: such an end is unknown.
//
//===----------------------------------------------------------------------===//

#include "../Utils/Ranges.h"
#include "arvr/Dialect/ArvrDialect.h"
#include "arvr/Lowering/Passes.h"

#include "mlir/IR/Matchers.h"

#include <optional>

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRCHECKBOUNDS
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;
using namespace mlir::arvr;

namespace {

//===----------------------------------------------------------------------===//
// Affine forms over atoms
//===----------------------------------------------------------------------===//

/// constant + sum of coefficient x atom, atoms by their number in the
/// analysis' table (terms sorted by atom, no zero coefficient).
struct Form {
  SmallVector<std::pair<unsigned, int64_t>, 4> terms;
  int64_t constant = 0;

  static Form of(int64_t constant) {
    Form f;
    f.constant = constant;
    return f;
  }
  static Form atom(unsigned id) {
    Form f;
    f.terms.push_back({id, 1});
    return f;
  }
  bool isConstant() const { return terms.empty(); }
  int64_t coefficient(unsigned id) const {
    for (auto [atom, c] : terms)
      if (atom == id)
        return c;
    return 0;
  }
  bool operator==(const Form &other) const {
    return terms == other.terms && constant == other.constant;
  }
};

/// a + k * b, in 128 bits; nullopt if a coefficient or the constant leaves
/// `limit` (the caller's bound on how large forms may grow).
std::optional<Form> addScaled(const Form &a, const Form &b, int64_t k,
                              int64_t limit) {
  auto fits = [&](__int128 v) { return v >= -limit && v <= limit; };
  Form result;
  __int128 constant = (__int128)a.constant + (__int128)k * b.constant;
  if (!fits(constant))
    return std::nullopt;
  result.constant = static_cast<int64_t>(constant);
  size_t i = 0, j = 0;
  while (i < a.terms.size() || j < b.terms.size()) {
    unsigned atom;
    __int128 c;
    if (j == b.terms.size() ||
        (i < a.terms.size() && a.terms[i].first < b.terms[j].first)) {
      atom = a.terms[i].first;
      c = a.terms[i++].second;
    } else if (i == a.terms.size() || b.terms[j].first < a.terms[i].first) {
      atom = b.terms[j].first;
      c = (__int128)k * b.terms[j++].second;
    } else {
      atom = a.terms[i].first;
      c = a.terms[i++].second + (__int128)k * b.terms[j++].second;
    }
    if (!fits(c))
      return std::nullopt;
    if (c)
      result.terms.push_back({atom, static_cast<int64_t>(c)});
  }
  return result;
}

/// Forms that values take: small enough that no i32 computation of them
/// wraps (see the file comment).
constexpr int64_t kValueConstantLimit = int64_t(1) << 20;
constexpr int64_t kValueCoefficientLimit = 256;
/// The prover scales forms by divisors: it may use all of 64 bits.
constexpr int64_t kProofLimit = int64_t(1) << 60;

/// One end of a range: the least (for a low end) or the greatest (for a
/// high end) of a few forms, so that ends that cannot be compared are
/// kept side by side; absent when unknown.
using Bound = std::optional<SmallVector<Form, 2>>;

/// An inclusive range [lo, hi] of an integer.
using Range = ranges::Range<Bound>;

Range point(const Form &f) {
  return {SmallVector<Form, 2>{f}, SmallVector<Form, 2>{f}};
}

/// At most this many forms in one end; more is unknown.
constexpr size_t kMaxBoundForms = 4;

//===----------------------------------------------------------------------===//
// The analysis
//===----------------------------------------------------------------------===//

class BoundsChecker : public ranges::Rules<BoundsChecker, Bound> {
public:
  /// Checks every kernel of `module`; false if a read is not proved.
  bool run(ModuleOp module) {
    bool ok = true;
    module.walk([&](KernelOp kernel) {
      if (!kernel.getBody().empty())
        ok = checkKernel(kernel) && ok;
    });
    return ok;
  }

private:
  /// What an atom stands for.
  struct Atom {
    enum class Kind { Size, Opaque, FloorDiv } kind;
    Value value; ///< Size: the image or frame; Opaque: the value.
    Dim dim;     ///< Size: which size.
    Form inner;  ///< FloorDiv: floor(inner / divisor).
    int64_t divisor = 1;
  };

  //===--------------------------------------------------------------------===//
  // Atoms
  //===--------------------------------------------------------------------===//

  unsigned getAtom(Atom::Kind kind, Value value, Dim dim = Dim::width) {
    for (auto [id, atom] : llvm::enumerate(atoms))
      if (atom.kind == kind && atom.value == value && atom.dim == dim)
        return id;
    atoms.push_back({kind, value, dim, Form(), 1});
    return atoms.size() - 1;
  }

  /// floor(f / k), k > 0, with the multiples of k taken out of the
  /// division, so that equal quotients have equal forms.
  std::optional<Form> floorDiv(const Form &f, int64_t k) {
    if (k == 1)
      return f;
    Form outside, inner;
    outside.constant = llvm::divideFloorSigned(f.constant, k);
    inner.constant = f.constant - outside.constant * k;
    for (auto [atom, c] : f.terms) {
      int64_t q = llvm::divideFloorSigned(c, k);
      if (q)
        outside.terms.push_back({atom, q});
      if (c - q * k)
        inner.terms.push_back({atom, c - q * k});
    }
    if (inner.isConstant()) // 0 <= inner.constant < k.
      return outside;
    unsigned id = atoms.size();
    for (auto [i, atom] : llvm::enumerate(atoms))
      if (atom.kind == Atom::Kind::FloorDiv && atom.divisor == k &&
          atom.inner == inner)
        id = i;
    if (id == atoms.size())
      atoms.push_back({Atom::Kind::FloorDiv, Value(), Dim::width, inner, k});
    return addScaled(outside, Form::atom(id), 1, kValueConstantLimit);
  }

  /// Whether `f` involves a scalar parameter (an atom of either sign).
  bool dependsOnOpaque(const Form &f) {
    for (auto [atom, c] : f.terms) {
      const Atom &a = atoms[atom];
      if (a.kind == Atom::Kind::Opaque ||
          (a.kind == Atom::Kind::FloorDiv && dependsOnOpaque(a.inner)))
        return true;
    }
    return false;
  }

  /// A form a value may take: small (see the file comment).
  std::optional<Form> checked(std::optional<Form> f) {
    if (!f || std::abs(f->constant) > kValueConstantLimit ||
        f->terms.size() > 8)
      return std::nullopt;
    for (auto [atom, c] : f->terms)
      if (std::abs(c) > kValueCoefficientLimit)
        return std::nullopt;
    return f;
  }

  //===--------------------------------------------------------------------===//
  // The prover
  //===--------------------------------------------------------------------===//

  /// Whether f >= 0 for every value of the atoms.
  bool isNonNegative(const Form &f) {
    if (f.isConstant())
      return f.constant >= 0;
    // Each floor division may try two bounds: give up on deep nests.
    if (++proofSteps > kMaxProofSteps)
      return false;
    // The atom with the highest number first: a floor division is numbered
    // after the atoms it divides, so its bound, which brings those in, is
    // put in before they are bounded themselves.
    auto [atomId, c] = f.terms.back();
    const Atom &atom = atoms[atomId];
    Form without = f;
    without.terms.pop_back();
    switch (atom.kind) {
    case Atom::Kind::Opaque:
      return false;
    case Atom::Kind::Size: {
      // A size is at least 1: the bound that helps, if c >= 0.
      if (c < 0)
        return false;
      std::optional<Form> next =
          addScaled(without, Form::of(1), c, kProofLimit);
      return next && isNonNegative(*next);
    }
    case Atom::Kind::FloorDiv: {
      // k floor(a / k) lies in [a - k + 1, a]: multiply f by k and put in
      // the end that bounds f from below.
      int64_t k = atom.divisor;
      std::optional<Form> next = addScaled(Form(), without, k, kProofLimit);
      if (next)
        next = addScaled(*next, atom.inner, c, kProofLimit);
      if (next && c > 0)
        next = addScaled(*next, Form::of(1 - k), c, kProofLimit);
      if (next && isNonNegative(*next))
        return true;
      // Else, from below, the integer floor(min(a) / k) (e.g. ceil(W / 2)
      // >= 1, which the bound above, W / 2, misses).
      std::optional<int64_t> least = minimum(atom.inner);
      if (c < 0 || !least)
        return false;
      next = addScaled(without, Form::of(llvm::divideFloorSigned(*least, k)), c,
                       kProofLimit);
      return next && isNonNegative(*next);
    }
    }
    llvm_unreachable("unknown atom kind");
  }

  /// The least value of `f`, if its atoms are only ever bounded below
  /// (sizes, and floor divisions of such forms) with coefficients >= 0.
  std::optional<int64_t> minimum(const Form &f) {
    __int128 least = f.constant;
    for (auto [atomId, c] : f.terms) {
      const Atom &atom = atoms[atomId];
      std::optional<int64_t> atomLeast;
      if (atom.kind == Atom::Kind::Size)
        atomLeast = 1;
      else if (atom.kind == Atom::Kind::FloorDiv)
        if (std::optional<int64_t> inner = minimum(atom.inner))
          atomLeast = llvm::divideFloorSigned(*inner, atom.divisor);
      if (c < 0 || !atomLeast)
        return std::nullopt;
      least += (__int128)c * *atomLeast;
      if (least > kProofLimit || least < -kProofLimit)
        return std::nullopt;
    }
    return static_cast<int64_t>(least);
  }

  /// Whether a <= b always.
  bool provedLE(const Form &a, const Form &b) {
    proofSteps = 0;
    std::optional<Form> d = addScaled(b, a, -1, kProofLimit);
    return d && isNonNegative(*d);
  }

  /// Whether every value within `hi` is at most every value within `lo`
  /// (the greatest of `hi`'s forms <= the least of `lo`'s).
  bool provedLE(const Bound &hi, const Bound &lo) {
    if (!hi || !lo)
      return false;
    for (const Form &a : *hi)
      for (const Form &b : *lo)
        if (!provedLE(a, b))
          return false;
    return true;
  }

  /// `forms` without those another one makes useless (for a low end, those
  /// proved above another; for a high end, below), if few enough remain.
  /// A form is dropped only for one that is kept, so some form always is.
  Bound prune(ArrayRef<Form> forms, bool isLow) {
    auto covers = [&](const Form &kept, const Form &f) {
      return kept == f || (isLow ? provedLE(kept, f) : provedLE(f, kept));
    };
    SmallVector<Form, 2> kept;
    for (const Form &f : forms) {
      if (llvm::any_of(kept, [&](const Form &k) { return covers(k, f); }))
        continue;
      llvm::erase_if(kept, [&](const Form &k) { return covers(f, k); });
      kept.push_back(f);
    }
    if (kept.size() > kMaxBoundForms)
      return std::nullopt;
    return kept;
  }

  /// The union of two ends: the least of both lows, the greatest of both
  /// highs.
  Bound unite(const Bound &a, const Bound &b, bool isLow) {
    if (!a || !b)
      return std::nullopt;
    SmallVector<Form, 2> forms(*a);
    forms.append(b->begin(), b->end());
    return prune(forms, isLow);
  }

  /// a + k * b for every pair of their forms (k = -1 subtracts a high end
  /// from a low one, or a low end from a high one).
  Bound combine(const Bound &a, const Bound &b, int64_t k, bool isLow) {
    if (!a || !b)
      return std::nullopt;
    SmallVector<Form, 2> forms;
    for (const Form &x : *a)
      for (const Form &y : *b) {
        std::optional<Form> f = checked(addScaled(x, y, k, kProofLimit));
        if (!f)
          return std::nullopt;
        forms.push_back(*f);
      }
    return prune(forms, isLow);
  }

  /// Each form of `a` mapped by `map` (which may fail).
  template <typename Map> Bound mapForms(const Bound &a, Map map) {
    if (!a)
      return std::nullopt;
    SmallVector<Form, 2> forms;
    for (const Form &x : *a) {
      std::optional<Form> f = checked(map(x));
      if (!f)
        return std::nullopt;
      forms.push_back(*f);
    }
    return forms;
  }

  static Bound exactly(const Form &f) { return SmallVector<Form, 2>{f}; }

  Range join(const Range &a, const Range &b) {
    return {unite(a.lo, b.lo, true), unite(a.hi, b.hi, false)};
  }

  /// The one of two high ends (of min(a, b)) to keep, or of two low ends
  /// (of max(a, b)): either is a bound; the one proved nearer, if any, else
  /// the second (in `min(v, size - 1)`, the limit).
  Bound either(const Bound &a, const Bound &b, bool isLow) {
    if (!a)
      return b;
    if (!b)
      return a;
    bool aNearer = isLow ? provedLE(b, a) : provedLE(a, b);
    return aNearer ? a : b;
  }

  //===--------------------------------------------------------------------===//
  // Ranges of values
  //===--------------------------------------------------------------------===//

  /// The size `dim` of `image`, a kernel's image or a plane of a frame, as
  /// a form; nullopt for a stage's image (see limitOf) or another image.
  std::optional<Form> exactSize(Value image, Dim dim) {
    auto type = cast<ImageType>(image.getType());
    if (dim == Dim::channels && type.hasStaticChannels())
      return Form::of(type.getChannels());
    if (auto arg = dyn_cast<BlockArgument>(image);
        arg && isa<KernelOp>(arg.getOwner()->getParentOp()))
      return Form::atom(getAtom(Atom::Kind::Size, image, dim));
    if (auto plane = image.getDefiningOp<PlaneOp>()) {
      Form frameSize =
          Form::atom(getAtom(Atom::Kind::Size, plane.getFrame(), dim));
      if (plane.getPlane() == Plane::y)
        return frameSize;
      // The UV plane: ceil(W / 2) = floor((W + 1) / 2).
      return floorDiv(*addScaled(frameSize, Form::of(1), 1, kProofLimit), 2);
    }
    return std::nullopt;
  }

  /// The range of size `dim` of `image`; unknown if it cannot be named.
  Range sizeRange(Value image, Dim dim) {
    if (std::optional<Form> size = exactSize(image, dim))
      return point(*size);
    if (auto stage = image.getDefiningOp<StageOp>(); stage && stage.hasSizes())
      return range(stage.getSizes()[static_cast<unsigned>(dim)]);
    return Range();
  }

  /// The range of the integer or index `value`, at a point of the stage
  /// being checked.
  Range range(Value value) { return rangeOf(value); }

  /// Whether `value` is the same at every point of every stage.
  bool isUniform(Value value) {
    Operation *scope = value.getParentBlock()->getParentOp();
    return isa<KernelOp>(scope);
  }

  //===--------------------------------------------------------------------===//
  // The leaves and the algebra of ends (see Ranges.h)
  //===--------------------------------------------------------------------===//

  friend class ranges::Rules<BoundsChecker, Bound>;

  /// A stage's coordinates range over its window, a reduction variable
  /// between its bounds, a scalar parameter is an atom, an image size a
  /// size.
  std::optional<Range> leaf(Value value) {
    if (auto dim = value.getDefiningOp<DimOp>())
      return sizeRange(dim.getImage(), dim.getDim());
    auto arg = dyn_cast<BlockArgument>(value);
    if (!arg)
      return std::nullopt;
    Operation *owner = arg.getOwner()->getParentOp();
    if (auto stage = dyn_cast<StageOp>(owner)) {
      auto window = windows.find(stage);
      if (window == windows.end())
        return Range();
      return window->second[arg.getArgNumber()];
    }
    if (auto reduce = dyn_cast<ReduceOp>(owner))
      return Range{range(reduce.getLower()).lo, range(reduce.getUpper()).hi};
    return point(Form::atom(getAtom(Atom::Kind::Opaque, value)));
  }

  /// A uniform value the rules do not see into is still one value.
  Range fallback(Value value, Range found) {
    if (isUniform(value))
      return point(Form::atom(getAtom(Atom::Kind::Opaque, value)));
    return found;
  }

  bool known(const Bound &end) const { return end.has_value(); }
  Bound constant(int64_t c, Type) {
    std::optional<Form> f = checked(Form::of(c));
    return f ? exactly(*f) : Bound();
  }
  /// A constant operand, if one is (its range one constant form).
  std::optional<int64_t> constantOf(Value value) {
    Range r = range(value);
    if (r.lo && r.hi && r.lo->size() == 1 && r.lo->front().isConstant() &&
        r.hi->size() == 1 && r.lo->front() == r.hi->front())
      return r.lo->front().constant;
    return std::nullopt;
  }
  Bound fixed(Value) { return std::nullopt; }
  Bound add(const Bound &a, const Bound &b, bool low) {
    return combine(a, b, 1, low);
  }
  Bound sub(const Bound &a, const Bound &b, bool low) {
    return combine(a, b, -1, low);
  }
  Bound scale(const Bound &a, int64_t k, Type) {
    return mapForms(
        a, [&](const Form &f) { return addScaled(Form(), f, k, kProofLimit); });
  }
  Bound product(const Bound &, const Bound &) { return std::nullopt; }
  /// min(a, b) is at least the least of both lows and at most either
  /// high, whatever the other operand is: clamp(e, lo, hi), that is
  /// min(max(e, lo), hi), is within [lo, hi] for any e (with lo <= hi);
  /// max the other way round.
  Bound minOf(const Bound &a, const Bound &b, bool low) {
    return low ? unite(a, b, true) : either(a, b, false);
  }
  Bound maxOf(const Bound &a, const Bound &b, bool low) {
    return low ? either(a, b, true) : unite(a, b, false);
  }
  Bound divide(Operation *op, const Bound &a, int64_t k, bool) {
    if (!isa<arith::FloorDivSIOp>(op))
      return std::nullopt;
    return mapForms(a, [&](const Form &f) { return floorDiv(f, k); });
  }
  Range castRange(Operation *, Range r) { return r; }
  Range divideUnsigned(Range, Value, Type) { return Range(); }
  /// Floor division, min, max and select are exact only without wrapping:
  /// an end of their operands that depends on a scalar parameter is not
  /// used.
  Range exact(Range r) {
    for (Bound *end : {&r.lo, &r.hi})
      if (*end && llvm::any_of(
                      **end, [&](const Form &f) { return dependsOnOpaque(f); }))
        *end = std::nullopt;
    return r;
  }

  //===--------------------------------------------------------------------===//
  // Kernels and reads
  //===--------------------------------------------------------------------===//

  bool checkKernel(KernelOp kernel) {
    Block &body = kernel.getBody().front();
    SmallVector<StageOp> stages(body.getOps<StageOp>());
    // What the stages without sizes are asked for, per coordinate.
    DenseMap<Operation *, SmallVector<Range, 3>> reads;
    bool ok = true;
    // The cache is kept throughout: a value inside a stage is only asked
    // for while that stage is checked, once its window is known.
    for (StageOp stage : llvm::reverse(stages)) {
      SmallVector<Range, 3> window;
      if (stage.hasSizes()) {
        for (unsigned dim = 0; dim < 3; ++dim) {
          Range origin = stage.getOrigin().empty()
                             ? point(Form::of(0))
                             : range(stage.getOrigin()[dim]);
          Range size = range(stage.getSizes()[dim]);
          Bound end = combine(origin.hi, size.hi, 1, false);
          window.push_back({origin.lo, combine(end, exactly(Form::of(1)), -1,
                                               /*isLow=*/false)});
        }
      } else {
        auto it = reads.find(stage);
        if (it == reads.end())
          continue; // Never read: never computed.
        window = it->second;
      }
      windows[stage] = window;
      stage.getBody().walk(
          [&](AccessOp access) { ok = checkAccess(access, reads) && ok; });
    }
    return ok;
  }

  bool checkAccess(AccessOp access,
                   DenseMap<Operation *, SmallVector<Range, 3>> &reads) {
    Value image = access.getImage();
    Range coords[3] = {range(access.getX()), range(access.getY()),
                       range(access.getC())};
    auto stage = image.getDefiningOp<StageOp>();
    if (stage && !stage.hasSizes()) {
      // In range by definition: the stage's window is what is read.
      auto [it, inserted] = reads.try_emplace(stage);
      if (inserted)
        it->second.assign(std::begin(coords), std::end(coords));
      else
        for (unsigned dim = 0; dim < 3; ++dim)
          it->second[dim] = join(it->second[dim], coords[dim]);
      return true;
    }
    // A read with a boundary mode proved inside needs none: it becomes
    // `in_bounds`, its boundary handling never emitted.
    bool handled = access.getBoundary() != Boundary::in_bounds;
    bool hasOrigin = stage && !stage.getOrigin().empty();
    for (unsigned dim = 0; dim < 3; ++dim) {
      // The read must lie in [first, last]: [0, size - 1] for an image,
      // [origin, origin + size - 1] for a stage.
      Bound first = exactly(Form::of(0));
      Bound last = sizeRange(image, static_cast<Dim>(dim)).lo;
      if (hasOrigin) {
        first = range(stage.getOrigin()[dim]).hi;
        last = combine(range(stage.getOrigin()[dim]).lo, last, 1, true);
      }
      last = combine(last, exactly(Form::of(1)), -1, true);
      bool below = !provedLE(first, coords[dim].lo);
      if (!below && provedLE(coords[dim].hi, last))
        continue;
      if (handled)
        return true;
      reportRead(access, dim, below, below ? coords[dim].lo : coords[dim].hi,
                 below ? first : last);
      return false;
    }
    if (handled) {
      access.setBoundary(Boundary::in_bounds);
      access.removePaddingAttr();
    }
    return true;
  }

  /// The name in the .arvr source of `arg`, an argument of a kernel.
  static std::string nameOf(Value arg) {
    auto block = cast<BlockArgument>(arg);
    auto kernel = cast<KernelOp>(block.getOwner()->getParentOp());
    if (auto name = kernel.getArgAttrOfType<StringAttr>(block.getArgNumber(),
                                                        "arvr.name"))
      return name.str();
    return "argument " + std::to_string(block.getArgNumber());
  }

  /// `f` as .arvr text: `2 * src.width - 1`, `(frame.width + 1) / 2`.
  std::string show(const Form &f) {
    std::string text;
    for (auto [atomId, c] : f.terms) {
      const Atom &atom = atoms[atomId];
      std::string name;
      if (atom.kind == Atom::Kind::Size)
        name = nameOf(atom.value) + "." + stringifyDim(atom.dim).str();
      else if (atom.kind == Atom::Kind::FloorDiv)
        name = atom.inner.terms.size() == 1 && !atom.inner.constant &&
                       atom.inner.terms.front().second == 1
                   ? show(atom.inner) + " / " + std::to_string(atom.divisor)
                   : "(" + show(atom.inner) + ") / " +
                         std::to_string(atom.divisor);
      else if (auto arg = dyn_cast<BlockArgument>(atom.value);
               arg && isa<KernelOp>(arg.getOwner()->getParentOp()))
        name = nameOf(atom.value);
      else
        name = "a value of the kernel";
      int64_t magnitude = c < 0 ? -c : c;
      if (!text.empty())
        text += c < 0 ? " - " : " + ";
      else if (c < 0)
        text += "-";
      if (magnitude != 1)
        text += std::to_string(magnitude) + " * ";
      // 2 * (w / 2), not 2 * w / 2.
      bool quotient = atom.kind == Atom::Kind::FloorDiv && name[0] != '(';
      text += magnitude != 1 && quotient ? "(" + name + ")" : name;
    }
    if (text.empty())
      return std::to_string(f.constant);
    if (f.constant)
      text += (f.constant < 0 ? " - " : " + ") +
              std::to_string(f.constant < 0 ? -f.constant : f.constant);
    return text;
  }

  /// An end of a range as .arvr text: one form, or the min (low end) or
  /// max (high end) of several.
  std::string show(const Bound &bound, bool isLow) {
    if (bound->size() == 1)
      return show(bound->front());
    std::string text = isLow ? "min(" : "max(";
    for (auto [i, f] : llvm::enumerate(*bound))
      text += (i ? ", " : "") + show(f);
    return text + ")";
  }

  /// Reports that coordinate `dim` of `access` may leave its image, below
  /// (else above): `found` is the end of its range that was not proved
  /// inside `limit`, the image's first (else last) index.
  void reportRead(AccessOp access, unsigned dim, bool below, const Bound &found,
                  const Bound &limit) {
    static const char *coordinates[] = {"x", "y", "c"};
    static const char *sizes[] = {"width", "height", "channel count"};
    static const char *indices[] = {"column", "row", "channel"};
    Value image = access.getImage();
    // What is read, and its name in the .arvr source: a parameter, a plane
    // of a frame, a stage; or an image of another dialect, unnamed.
    auto plane = image.getDefiningOp<PlaneOp>();
    auto stage = image.getDefiningOp<StageOp>();
    bool isArgument = isa<BlockArgument>(image);
    std::string name = isArgument ? nameOf(image)
                       : plane    ? nameOf(plane.getFrame()) + "." +
                                     stringifyPlane(plane.getPlane()).str()
                       : stage ? stage.getName().str()
                               : "";
    const char *what = plane ? "plane" : stage ? "stage's window" : "image";
    InFlightDiagnostic diag = access.emitError("this read");
    if (!name.empty())
      diag << " of '" << name << "'";
    // An image's coordinates are x, y, c; a function's have the names its
    // definition gives them (`row(j)`): say which one by its place.
    static const char *places[] = {"first", "second", "third"};
    diag << " may fall outside the " << what << ": its "
         << (stage ? places[dim] : coordinates[dim]) << " coordinate may ";
    if (below)
      diag << "be negative";
    else
      diag << "reach the " << (stage ? "window" : what) << "'s " << sizes[dim];
    // What the analysis found, in the source's names.
    if (!found)
      diag.attachNote(access.getLoc())
          << "the compiler cannot bound it: it must be built from the "
             "output's coordinates, reduction variables, image sizes and u8 "
             "or u16 values with +, -, *, / and % by constants, min, max, "
             "clamp, abs and select";
    else if (!limit)
      diag.attachNote(access.getLoc())
          << "the " << what << "'s " << sizes[dim] << " is not known here";
    else
      diag.attachNote(access.getLoc())
          << "it may be as " << (below ? "low" : "high") << " as "
          << show(found, below) << ", and the " << (below ? "first " : "last ")
          << indices[dim] << " is " << show(limit, !below);
    if (plane)
      diag.attachNote(access.getLoc())
          << "read the plane at the output's own pixel (Y: (x, y); UV: "
             "(x / 2, y / 2, 0 or 1)), or declare a boundary mode on the "
             "frame, e.g. 'nv12 clamp'";
    else if (isArgument)
      diag.attachNote(access.getLoc())
          << "give it a boundary mode, e.g. '" << name
          << ".clamp(...)' to repeat the edge, or declare one on the "
             "parameter";
  }

  SmallVector<Atom> atoms;
  /// Steps of the proof under way (see isNonNegative).
  unsigned proofSteps = 0;
  static constexpr unsigned kMaxProofSteps = 4096;
  /// Per stage being visited: the ranges of its coordinates.
  DenseMap<Operation *, SmallVector<Range, 3>> windows;
};

struct ArvrCheckBoundsPass
    : public arvr::impl::ArvrCheckBoundsBase<ArvrCheckBoundsPass> {
  void runOnOperation() override {
    if (!BoundsChecker().run(getOperation()))
      signalPassFailure();
  }
};

} // namespace
