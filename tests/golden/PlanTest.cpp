//===- PlanTest.cpp - The launch plan, read as a user's program reads it --===//
//
// Builds examples with arvrc, reads their launch plans with the runtime's
// reader (runtime/lib/Plan.h, no MLIR) and checks the sizes and geometry
// it evaluates against what the kernels say: the Gaussian's intermediate
// buffer holds the output's rows plus `radius` above and below, and every
// grid covers its image with the scheduled blocks.
//
//===----------------------------------------------------------------------===//

#include <doctest/doctest.h>

#include "Plan.h"

#include <algorithm>
#include <array>
#include <cfenv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>
#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

namespace {

const std::string kSource = ARVRC_SOURCE_DIR;
const std::string kArvrcBinary = ARVRC_BINARY;

using arvr::runtime::Binding;

/// A plan and its evaluation for bound arguments.
struct Reading {
  arvr::runtime::Plan plan;
  arvr::runtime::Evaluation evaluation;

  /// Evaluates for `bound` (every argument bound; outputs' shapes may be
  /// zero).
  void evaluate(std::vector<Binding> bound) {
    for (Binding &b : bound)
      b.bound = true;
    std::string error;
    REQUIRE_MESSAGE(evaluation.evaluate(plan, bound, error), error);
  }
  std::array<int64_t, 3> outputSize(int arg) const {
    std::array<int64_t, 3> whc{};
    REQUIRE(evaluation.outputSize(unsigned(arg), whc));
    return whc;
  }
  std::array<int64_t, 3> bufferShape(size_t i) const {
    return evaluation.bufferShape(i);
  }
  size_t bufferBytes(size_t i) const { return evaluation.bufferBytes(i); }
  std::vector<arvr::runtime::ResolvedLaunch>
  resolve(const std::vector<uint64_t> &buffers, int frames = 1) const {
    std::vector<arvr::runtime::ResolvedLaunch> launches;
    std::string error;
    REQUIRE_MESSAGE(evaluation.resolve(buffers, frames, launches, error),
                    error);
    return launches;
  }
};

/// Builds `example` (with `from` replaced by `to` in its text, if given)
/// and reads its plan.
Reading build(const std::string &example, const std::string &from = "",
              const std::string &to = "", const std::string &flags = "") {
  const char *dir = std::getenv("TMPDIR");
  std::string base = std::string(dir ? dir : "/tmp") + "/arvrc-plan-" +
                     std::to_string(getpid());
  std::string ptx = base + ".ptx", planPath = base + ".plan.json";
  std::ifstream in(kSource + "/" + example);
  std::stringstream text;
  text << in.rdbuf();
  std::string source = text.str();
  if (!from.empty()) {
    size_t at = source.find(from);
    REQUIRE(at != std::string::npos);
    source.replace(at, from.size(), to);
  }
  std::ofstream(base + ".arvr") << source;
  std::string command =
      kArvrcBinary + " build " + base + ".arvr -o " + ptx + " " + flags;
  INFO(command);
  REQUIRE(std::system(command.c_str()) == 0);
  std::ifstream planFile(planPath);
  std::stringstream json;
  json << planFile.rdbuf();
  Reading r;
  std::string error;
  REQUIRE_MESSAGE(arvr::runtime::parsePlan(json.str(), r.plan, error), error);
  for (const char *ext : {".ptx", ".plan.json", ".manifest", ".arvr"})
    unlink((base + ext).c_str());
  return r;
}

uint64_t bitsOf(int32_t v) { return static_cast<uint32_t>(v); }
uint64_t bitsOf(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  return bits;
}

} // namespace

TEST_CASE("plan: the Gaussian at the root: stage buffers and launches") {
  Reading m = build("examples/gaussian_blur.arvr",
                    "blur_x.compute_shared();\n    out.gpu_tile(32, 4);",
                    "blur_x.compute_root();\n    out.gpu_tile(32, 8);");
  // (weight, norm and coef stay computed at the root.)
  CHECK(m.plan.kernel == "gaussian_blur");
  CHECK(m.plan.indexBits == 32);
  REQUIRE(m.plan.arguments.size() == 4);
  CHECK(m.plan.arguments[0].image);
  CHECK(m.plan.arguments[3].output);
  for (int radius : {1, 4, 9}) {
    CAPTURE(radius);
    std::vector<Binding> bound(4);
    bound[0].shape = {479, 641, 3}; // H, W, C: not multiples of any block.
    bound[1].scalarBits = bitsOf(2.0f);
    bound[2].scalarBits = bitsOf(int32_t(radius));
    m.evaluate(bound);
    CHECK(m.outputSize(3) == std::array<int64_t, 3>{641, 479, 3});
    bound[3].shape = {479, 641, 3};
    m.evaluate(bound);
    // The weights over -radius..radius, their sum, the normalised
    // weights, the horizontal pass over the output's rows and `radius` more
    // above and below.
    REQUIRE(m.plan.buffers.size() == 4);
    CHECK(m.bufferShape(0) == std::array<int64_t, 3>{1, 2 * radius + 1, 1});
    CHECK(m.bufferShape(1) == std::array<int64_t, 3>{1, 1, 1});
    CHECK(m.bufferShape(2) == std::array<int64_t, 3>{1, 2 * radius + 1, 1});
    CHECK(m.bufferShape(3) == std::array<int64_t, 3>{479 + 2 * radius, 641, 3});
    CHECK(m.bufferBytes(3) == size_t(479 + 2 * radius) * 641 * 3 * 4);
    auto launches = m.resolve({0x1000, 0x2000, 0x3000, 0x4000});
    REQUIRE(launches.size() == 5);
    CHECK(launches[0].entry == "gaussian_blur_weight");
    CHECK(launches[1].entry == "gaussian_blur_norm");
    CHECK(launches[2].entry == "gaussian_blur_coef");
    CHECK(launches[3].entry == "gaussian_blur_blur_x");
    CHECK(launches[4].entry == "gaussian_blur_out");
    for (const auto &l : launches) {
      CHECK(l.block[0] == 32);
      CHECK(l.block[1] == 8);
      CHECK(l.shared == 0);
      CHECK(l.storage.size() == l.sizes.size());
    }
    CHECK(launches[0].grid[0] == unsigned(2 * radius + 1 + 31) / 32);
    CHECK(launches[1].grid[0] == 1);
    CHECK(launches[2].grid[0] == unsigned(2 * radius + 1 + 31) / 32);
    CHECK(launches[3].grid[0] == (641 + 31) / 32);
    // Each thread two consecutive rows: 16 rows a block.
    CHECK(launches[3].grid[1] == unsigned(479 + 2 * radius + 15) / 16);
    CHECK(launches[4].grid[1] == (479 + 15) / 16);
  }
}

TEST_CASE("plan: the Gaussian in shared memory: one launch, its tile") {
  Reading m = build("examples/gaussian_blur.arvr");
  for (int radius : {1, 4, 9}) {
    CAPTURE(radius);
    std::vector<Binding> bound(4);
    bound[0].shape = bound[3].shape = {479, 641, 3};
    bound[1].scalarBits = bitsOf(2.0f);
    bound[2].scalarBits = bitsOf(int32_t(radius));
    m.evaluate(bound);
    // Only the weights, their sum and the normalised weights have
    // buffers; blur_x is in shared memory.
    CHECK(m.plan.buffers.size() == 3);
    auto launches = m.resolve({0x1000, 0x2000, 0x3000});
    REQUIRE(launches.size() == 4);
    const auto &out = launches.back();
    CHECK(out.entry == "gaussian_blur_out");
    CHECK(out.block[0] == 32);
    CHECK(out.block[1] == 4);
    CHECK(out.grid[0] == (641 + 31) / 32);
    // Each thread of the reader sixteen consecutive rows (the radius is not
    // known when compiling: a halo of 8 rows is assumed, at most an eighth
    // of the tile): 64 rows a block.
    CHECK(out.grid[1] == (479 + 63) / 64);
    // The horizontal pass over 64 rows and the radius above and below, 32
    // columns, 3 channels of f32.
    CHECK(out.shared == unsigned(64 + 2 * radius) * 32 * 3 * 4);
  }
}

TEST_CASE("plan: NV12 planes and a fixed channel count") {
  Reading m = build("examples/nv12_to_rgb.arvr");
  REQUIRE(m.plan.arguments.size() == 3);
  CHECK(m.plan.arguments[0].name == "frame_y");
  CHECK(m.plan.arguments[0].channels == 1);
  CHECK(m.plan.arguments[1].name == "frame_uv");
  CHECK(m.plan.arguments[1].channels == 2);
  CHECK(m.plan.arguments[2].channels == 3);
  std::vector<Binding> bound(3);
  bound[0].shape = {1080, 1920, 1};
  bound[1].shape = {540, 960, 2};
  bound[2].shape = {1080, 1920, 3};
  m.evaluate(bound);
  CHECK(m.outputSize(2) == std::array<int64_t, 3>{1920, 1080, 3});
  auto launches = m.resolve({});
  REQUIRE(launches.size() == 1);
  // A cheap body with 3-byte pixels, two rows a thread: runs of 8 columns
  // (16 would be 32 points a thread), blocks of 32 x 4 threads
  // (arvr-map-to-gpu's choice without a gpu_tile), so a block covers 256
  // columns (8 blocks, the last half full) and 4 threads of two rows each,
  // 8 rows (135 blocks).
  CHECK(launches[0].grid[0] == 8);
  CHECK(launches[0].grid[1] == 135);
  CHECK(launches[0].block[0] == 32);
  CHECK(launches[0].block[1] == 4);
  // Three images of 9 descriptor fields each, each followed by its frame
  // height (arvr-batch-frames), and no other argument.
  CHECK(launches[0].storage.size() == 30);
  // 8 frames stacked: one launch, grid z 8, every image 8 frames tall, the
  // frame heights as for one frame.
  REQUIRE(m.plan.batchGridZ);
  auto batch = m.resolve({}, 8);
  REQUIRE(batch.size() == 1);
  CHECK(batch[0].grid[2] == 8 * launches[0].grid[2]);
  CHECK(batch[0].grid[0] == launches[0].grid[0]);
  for (size_t i = 0; i < 30; i += 10) {
    CHECK(batch[0].storage[i + 3] == 8 * launches[0].storage[i + 3]);
    CHECK(batch[0].storage[i + 9] == launches[0].storage[i + 9]);
    CHECK(launches[0].storage[i + 9] == launches[0].storage[i + 3]);
  }
}

TEST_CASE("plan: the lens's f32 arithmetic of its parameters, on the host") {
  // Arithmetic of the parameters alone (arvr-host-uniforms): the inverse
  // focal lengths, and each channel's factors (its aberration factor s
  // times the focal lengths, s^2 times them, the distortion coefficients
  // times s^2, s^4, s^6), computed by the plan as the GPU would and passed
  // as kernel arguments of 4 bytes.
  Reading m = build("examples/lens_undistort.arvr", "", "",
                    "--specialize src.channels=3");
  int divisions = 0;
  for (const auto &v : m.plan.values)
    if (v.op == "fdiv") {
      ++divisions;
      CHECK(v.f32);
      CHECK(v.bits == 32);
    }
  CHECK(divisions == 2);
  REQUIRE(m.plan.arguments.size() == 13);
  std::vector<Binding> bound(13);
  bound[0].shape = bound[12].shape = {479, 641, 3};
  const float fx = 535.9157f, fy = 533.25f, p1 = 0.0017832f, p2 = -2.8e-4f,
              red = 0.9975f, blue = 0.995f;
  float values[13] = {0,  fx, fy,     342.3f, 235.6f, -0.266f, -0.0386f,
                      p1, p2, 0.238f, red,    blue,   0};
  for (int a = 1; a <= 11; ++a)
    bound[a].scalarBits = bitsOf(values[a]);
  m.evaluate(bound);
  // The kernel's sample tests proved a block at a time by a launch before
  // it (arvr-gpu-block-proofs), into a byte table: the second launch is
  // the kernel's.
  REQUIRE(m.plan.buffers.size() == 1);
  auto launches = m.resolve({0x10000});
  REQUIRE(launches.size() == 2);
  // The proof launch writes its table from its arguments alone: the
  // runtime library may skip it when run again alike; not the kernel.
  CHECK(launches[0].reusable);
  CHECK(!launches[1].reusable);
  const auto &l = launches[1];
  // The quotients the GPU's div.rn.f32 gives and the products its mul.rn
  // gives (IEEE, rounded to nearest), among the launch's 4-byte
  // parameters.
  auto passed = [&](float expected) {
    for (size_t i = 0; i < l.storage.size(); ++i)
      if (l.sizes[i] == 4 && l.storage[i] == bitsOf(expected))
        return true;
    return false;
  };
  const float k1 = values[5], k2 = values[6], k3 = values[9];
  std::vector<float> expected = {1.0f / fx, 1.0f / fy, 2.0f * p1, 2.0f * p2};
  for (float s : {red, blue}) {
    float s2 = s * s;
    for (float e : {fx * s, fy * s, fx * s2, fy * s2, k1 * s2, k2 * (s2 * s2),
                    k3 * (s2 * s2 * s2)})
      expected.push_back(e);
  }
  for (float e : expected) {
    CAPTURE(e);
    CHECK(passed(e));
  }
  // Whatever floating-point environment the caller runs in (rounding
  // upward, subnormals flushed), the plan's values are the GPU's, and the
  // caller's environment is left as it was.
  std::fenv_t before;
  std::fegetenv(&before);
  std::fesetround(FE_UPWARD);
#if defined(__x86_64__)
  _mm_setcsr(_mm_getcsr() | 0x8040u);
#endif
  m.evaluate(bound);
  CHECK(std::fegetround() == FE_UPWARD);
#if defined(__x86_64__)
  CHECK((_mm_getcsr() & 0x8040u) == 0x8040u);
#endif
  std::fesetenv(&before);
  auto upward = m.resolve({0x10000});
  for (float e : expected)
    CHECK(std::find(upward[1].storage.begin(), upward[1].storage.end(),
                    bitsOf(e)) != upward[1].storage.end());
  CHECK(upward[1].storage == l.storage);
  // A bit of an f32 value wrong would show: another focal length, another
  // quotient.
  bound[1].scalarBits = bitsOf(fx * 2);
  m.evaluate(bound);
  auto other = m.resolve({0x10000});
  CHECK(other[1].storage != l.storage);
}

TEST_CASE("plan: every f32 operation the host computes, against C++") {
  Reading m = build("tests/golden/uniforms.arvr");
  std::vector<std::string> ops;
  for (const auto &v : m.plan.values)
    if (v.f32)
      ops.push_back(v.op);
  for (const char *op :
       {"fdiv", "fsub", "fneg", "fma", "fadd", "const", "fmul"}) {
    CAPTURE(op);
    CHECK(std::find(ops.begin(), ops.end(), op) != ops.end());
  }
  // Values whose every operation rounds (and a subnormal quotient).
  for (std::array<float, 3> abc : {std::array<float, 3>{1.7f, 0.3f, -2.5f},
                                   std::array<float, 3>{1e-30f, 3e8f, 0.1f}}) {
    // (Not a structured binding: CAPTURE's lambda may not name one in C++17.)
    const float a = abc[0], b = abc[1], c = abc[2];
    CAPTURE(a);
    std::vector<Binding> bound(5);
    bound[0].shape = bound[4].shape = {3, 5, 3};
    bound[1].scalarBits = bitsOf(a);
    bound[2].scalarBits = bitsOf(b);
    bound[3].scalarBits = bitsOf(c);
    m.evaluate(bound);
    auto launches = m.resolve({});
    REQUIRE(launches.size() == 1);
    const auto &l = launches[0];
    std::vector<uint64_t> passed;
    for (size_t i = 0; i < l.storage.size(); ++i)
      if (l.sizes[i] == 4) // f32s, and the descriptors' small sizes
        passed.push_back(l.storage[i]);
    for (float e : {a / b, a - c, -c, std::fma(a, b, c), a + c, a * 3.0f}) {
      CAPTURE(e);
      CHECK(std::find(passed.begin(), passed.end(), bitsOf(e)) != passed.end());
    }
  }
}
