//===- Plan.h - A launch plan read, checked and evaluated -------*- C++ -*-===//
//
// The runtime's one reading of a launch plan (docs/launch-plan.md): parsed
// with llvm::json and checked whole before use (every reference names
// something defined before it, every operation and type is known), then
// evaluated for bound images and scalars into each launch's geometry and
// parameter block. Nothing here touches CUDA: the fuzzer and the unit tests
// drive it directly.
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_RUNTIME_PLAN_H
#define ARVR_RUNTIME_PLAN_H

#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace arvr::runtime {

/// A number (a size known when compiling) or a reference to an argument,
/// a buffer or a value.
struct Operand {
  enum Kind { Literal, Argument, Buffer, Value } kind = Literal;
  int64_t number = 0; ///< The literal, or the index referred to.
};

struct PlanArgument {
  std::string name, type; ///< type: u8 u16 i32 f32 (images), i32 f32 i1.
  bool output = false, image = false;
  int channels = 0; ///< Images: 0 when any.
};

struct PlanValue {
  std::string op; ///< const dim cast add sub mul ceildiv floordiv div rem
                  ///< min max and or xor cmp select; f32: const fadd
                  ///< fsub fmul fdiv fneg fma
  unsigned bits = 64;
  /// An f32 value (`"type": "f32"`, 32 bits), computed as IEEE binary32
  /// rounded to nearest even and kept as its bits; `number` is const's.
  bool f32 = false;
  float number = 0;
  std::vector<Operand> operands;
  int64_t literal = 0;   ///< const's value, dim's dimension.
  std::string predicate; ///< cmp's.
};

struct PlanBuffer {
  unsigned elementBytes = 1;
  std::array<Operand, 3> size; ///< H, W, C.
};

struct PlanLaunch {
  std::string entry;
  std::array<Operand, 3> grid, block;
  Operand shared;
  std::vector<Operand> args;
  /// It writes its buffers from its other arguments alone, and nothing
  /// else writes them: run again with the same arguments, it may be
  /// skipped (docs/launch-plan.md).
  bool reusable = false;
};

/// A limit the bound arguments must keep (docs/launch-plan.md): a
/// reduction's range, operands[1] - operands[0] + 1, at most `max`; or a
/// function's extents, each operand 1 to `max`. `what` names it, with its
/// place in the .arvr file.
struct PlanCheck {
  bool range = true;
  std::vector<Operand> operands;
  int64_t max = 0;
  std::string what;
};

struct Plan {
  /// binaryFile: the PTX or cubin; cpuEntry instead for a CPU object's
  /// plan (`arvrc build --target cpu --emit=obj`), which has no launches.
  std::string kernel, binaryFile, cpuEntry;
  /// A CPU object's rows a band at most; 0: one band per thread (a stage
  /// reduces over the whole image, or a function's declared extents are
  /// the image's: work every band would do again).
  int64_t cpuBandRows = 0;
  bool cubin = false, batchGridZ = false;
  unsigned indexBits = 32;
  std::vector<PlanArgument> arguments;
  std::vector<PlanValue> values;
  std::vector<PlanBuffer> buffers;
  /// Output argument -> its (W, H, C).
  std::vector<std::pair<unsigned, std::array<Operand, 3>>> outputSizes;
  std::vector<PlanLaunch> launches;
  std::vector<PlanCheck> checks;
};

/// Reads `text` as a plan of version 1; false with `error` (naming where
/// in the plan) if it is not one or refers to anything undefined.
bool parsePlan(llvm::StringRef text, Plan &plan, std::string &error);

/// What the caller bound to one argument: an image's shape (H, W, C) and
/// device address, or a scalar's bits.
struct Binding {
  bool bound = false;
  std::array<int64_t, 3> shape = {0, 0, 0};
  uint64_t address = 0;
  uint64_t scalarBits = 0;
};

/// A launch ready for cuLaunchKernel: each parameter one 8-byte word of
/// `storage` (the value in its low bytes), `sizes` its width in bytes.
struct ResolvedLaunch {
  std::string entry;
  unsigned grid[3] = {0, 0, 0}, block[3] = {0, 0, 0}, shared = 0;
  std::vector<uint64_t> storage;
  std::vector<unsigned> sizes;
  /// Where each bound image's address is in `storage` (its descriptor's
  /// allocated and aligned pointers, at `word` and `word` + 1): (word,
  /// argument), so that a rebinding that only moves images patches them.
  std::vector<std::pair<unsigned, unsigned>> imageWords;
  /// The plan's launch is reusable (PlanLaunch::reusable).
  bool reusable = false;
};

/// The plan's values for bound arguments (one Binding per argument; the
/// inputs and scalars must be bound, outputs may not be yet).
class Evaluation {
public:
  /// False with `error` if an input is unbound, a division is by zero, a
  /// check fails.
  bool evaluate(const Plan &plan, const std::vector<Binding> &bindings,
                std::string &error);
  /// An operand's integer value (a scalar argument sign-extended from 32
  /// bits; an f32 value's bits); valid after evaluate().
  int64_t operand(const Operand &operand) const;
  /// (H, W, C) of buffer `index`, and its bytes; of output argument `arg`
  /// as (W, H, C); false if there is no such output.
  std::array<int64_t, 3> bufferShape(size_t index) const;
  size_t bufferBytes(size_t index) const;
  bool outputSize(unsigned arg, std::array<int64_t, 3> &whc) const;
  /// Each launch for buffers at `bufferAddresses`; with `frames` > 1 (a
  /// plan with batch grid-z), the bindings are the first of `frames`
  /// frames stacked: every image's height and grid z are multiplied.
  bool resolve(const std::vector<uint64_t> &bufferAddresses, int frames,
               std::vector<ResolvedLaunch> &launches, std::string &error) const;

private:
  const Plan *plan = nullptr;
  std::vector<Binding> bindings;
  std::vector<int64_t> values;
};

} // namespace arvr::runtime

#endif // ARVR_RUNTIME_PLAN_H
