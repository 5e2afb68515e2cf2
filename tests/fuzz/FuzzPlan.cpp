//===- FuzzPlan.cpp - libFuzzer target: launch plans as the runtime reads
//--===//
//
// Reads the bytes as a launch plan (runtime/lib/Plan.h); a plan accepted is
// then evaluated as a caller's bindings would make it (every image 7 x 5
// with its channels or 3, every scalar 3), its buffers sized, its outputs
// sized and its launches laid out, for one frame and for 8. Refusals are
// expected; a crash or sanitizer report is a bug. Built and run by
// scripts/fuzz.sh.
//
//===----------------------------------------------------------------------===//

#include "Plan.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace arvr::runtime;
  Plan plan;
  std::string error;
  if (!parsePlan(llvm::StringRef(reinterpret_cast<const char *>(data), size),
                 plan, error))
    return 0;
  std::vector<Binding> bindings(plan.arguments.size());
  for (size_t a = 0; a < bindings.size(); ++a) {
    bindings[a].bound = true;
    bindings[a].shape = {
        5, 7, plan.arguments[a].channels ? plan.arguments[a].channels : 3};
    bindings[a].address = 0x10000 * (a + 1);
    bindings[a].scalarBits = 3;
  }
  Evaluation e;
  if (!e.evaluate(plan, bindings, error))
    return 0;
  std::vector<uint64_t> addresses;
  for (size_t b = 0; b < plan.buffers.size(); ++b) {
    (void)e.bufferBytes(b);
    addresses.push_back(0x900000 + b);
  }
  std::array<int64_t, 3> whc;
  for (size_t a = 0; a < plan.arguments.size(); ++a)
    (void)e.outputSize(a, whc);
  std::vector<ResolvedLaunch> launches;
  for (int frames : {1, 8})
    (void)e.resolve(addresses, frames, launches, error);
  return 0;
}
