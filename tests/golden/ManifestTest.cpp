//===- ManifestTest.cpp - The launch manifest, read as a user would ------===//
//
// Builds examples with arvrc, reads the manifests with bench/'s reader
// (LaunchManifest.h, no MLIR) and checks the sizes and geometry it
// evaluates against what the kernels say: the Gaussian's intermediate
// buffer holds the output's rows plus `radius` above and below, and every
// grid covers its image with the scheduled blocks.
//
//===----------------------------------------------------------------------===//

#include <doctest/doctest.h>

#include "../../bench/LaunchManifest.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

const std::string kSource = ARVRC_SOURCE_DIR;
const std::string kArvrcBinary = ARVRC_BINARY;

/// Builds `example` (with `from` replaced by `to` in its text, if given)
/// and reads its manifest.
arvrbench::LaunchManifest build(const std::string &example,
                                const std::string &from = "",
                                const std::string &to = "") {
  const char *dir = std::getenv("TMPDIR");
  std::string base = std::string(dir ? dir : "/tmp") + "/arvrc-manifest-" +
                     std::to_string(getpid());
  std::string ptx = base + ".ptx", manifest = base + ".manifest";
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
  std::string command = kArvrcBinary + " build " + base + ".arvr -o " + ptx;
  INFO(command);
  REQUIRE(std::system(command.c_str()) == 0);
  arvrbench::LaunchManifest m = arvrbench::LaunchManifest::load(manifest);
  unlink(ptx.c_str());
  unlink(manifest.c_str());
  unlink((base + ".arvr").c_str());
  return m;
}

uint64_t bitsOf(int32_t v) { return static_cast<uint32_t>(v); }
uint64_t bitsOf(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  return bits;
}

} // namespace

TEST_CASE("manifest: the Gaussian at the root: stage buffers and launches") {
  arvrbench::LaunchManifest m =
      build("examples/gaussian_blur.arvr",
            "blur_x.compute_shared();\n    out.gpu_tile(32, 4);",
            "blur_x.compute_root();\n    out.gpu_tile(32, 8);");
  // (weight, norm and coef stay computed at the root.)
  CHECK(m.kernel == "gaussian_blur");
  CHECK(m.indexBits == 32);
  REQUIRE(m.args.size() == 4);
  CHECK(m.args[0].isImage);
  CHECK(m.args[3].isOutput);
  for (int radius : {1, 4, 9}) {
    CAPTURE(radius);
    std::vector<arvrbench::Binding> bound(4);
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
    REQUIRE(m.buffers.size() == 4);
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

TEST_CASE("manifest: the Gaussian in shared memory: one launch, its tile") {
  arvrbench::LaunchManifest m = build("examples/gaussian_blur.arvr");
  for (int radius : {1, 4, 9}) {
    CAPTURE(radius);
    std::vector<arvrbench::Binding> bound(4);
    bound[0].shape = bound[3].shape = {479, 641, 3};
    bound[1].scalarBits = bitsOf(2.0f);
    bound[2].scalarBits = bitsOf(int32_t(radius));
    m.evaluate(bound);
    // Only the weights, their sum and the normalised weights have
    // buffers; blur_x is in shared memory.
    CHECK(m.buffers.size() == 3);
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

TEST_CASE("manifest: NV12 planes and a fixed channel count") {
  arvrbench::LaunchManifest m = build("examples/nv12_to_rgb.arvr");
  REQUIRE(m.args.size() == 3);
  CHECK(m.args[0].name == "frame_y");
  CHECK(m.args[0].channels == 1);
  CHECK(m.args[1].name == "frame_uv");
  CHECK(m.args[1].channels == 2);
  CHECK(m.args[2].channels == 3);
  std::vector<arvrbench::Binding> bound(3);
  bound[0].shape = {1080, 1920, 1};
  bound[1].shape = {540, 960, 2};
  bound[2].shape = {1080, 1920, 3};
  m.evaluate(bound);
  CHECK(m.outputSize(2) == std::array<int64_t, 3>{1920, 1080, 3});
  auto launches = m.resolve({});
  REQUIRE(launches.size() == 1);
  // A cheap body with 3-byte pixels: runs of 16 columns per thread, blocks
  // of 16 x 8 threads (arvr-map-to-gpu's choice without a gpu_tile), so a
  // block covers 256 columns (8 blocks, the last half full) and 8 threads
  // of two rows each, 16 rows (68 blocks, the last half full).
  CHECK(launches[0].grid[0] == 8);
  CHECK(launches[0].grid[1] == 68);
  CHECK(launches[0].block[0] == 16);
  CHECK(launches[0].block[1] == 8);
  // Three images of 9 descriptor fields each, each followed by its frame
  // height (arvr-batch-frames), and no other argument.
  CHECK(launches[0].storage.size() == 30);
  // 8 frames stacked: one launch, grid z 8, every image 8 frames tall, the
  // frame heights as for one frame.
  REQUIRE(m.batchGridZ);
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
