//===- GoldenTest.cpp - arvrc's CPU output against independent references ===//
//
// Runs `arvrc run --target cpu` on a real photo and compares every output
// value with a reference computed here, in plain C++, from the formulas the
// kernels state. The test also checks that the output differs from the
// input, so a kernel that copied its input could not pass.
//
//===----------------------------------------------------------------------===//

#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "Image.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <unistd.h>

using arvrc::Image;

namespace {

const std::string kSourceDir = ARVRC_SOURCE_DIR;
const std::string kArvrc = ARVRC_BINARY;

std::string tempPath(const std::string &name) {
  const char *dir = std::getenv("TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/arvrc-golden-" +
         std::to_string(getpid()) + "-" + name;
}

/// Runs arvrc on the CPU; returns the output image.
Image runArvrc(const std::string &kernel, const std::string &input,
               const std::string &params) {
  std::string out = tempPath("out.png");
  std::string command = kArvrc + " run " + kSourceDir + "/" + kernel + " -i " +
                        kSourceDir + "/" + input + " -o " + out +
                        " --target cpu " + params + " > /dev/null";
  INFO("command: " << command);
  REQUIRE(std::system(command.c_str()) == 0);
  Image image;
  std::string error;
  REQUIRE_MESSAGE(arvrc::readImage(out, 0, image, error), error);
  unlink(out.c_str());
  return image;
}

Image readInput(const std::string &input) {
  Image image;
  std::string error;
  REQUIRE_MESSAGE(arvrc::readImage(kSourceDir + "/" + input, 0, image, error),
                  error);
  return image;
}

/// The language's u8_sat of an f32: clamp to [0, 255], round half to even.
uint8_t saturateU8(float v) {
  v = std::min(std::max(v, 0.0f), 255.0f);
  return static_cast<uint8_t>(std::nearbyint(v));
}

struct Difference {
  int maxAbs = 0;
  size_t differing = 0;
};

Difference compare(const Image &a, const Image &b) {
  REQUIRE(a.width == b.width);
  REQUIRE(a.height == b.height);
  REQUIRE(a.channels == b.channels);
  Difference d;
  for (size_t i = 0; i < a.size(); ++i) {
    int diff = std::abs(int(a.pixels[i]) - int(b.pixels[i]));
    d.maxAbs = std::max(d.maxAbs, diff);
    d.differing += diff != 0;
  }
  return d;
}

void checkBrightnessContrast(float gain, float bias, const std::string &flags) {
  Image input = readInput("tests/data/baboon.jpg");
  Image output = runArvrc("examples/brightness_contrast.arvr",
                          "tests/data/baboon.jpg", flags);
  Image expected = input;
  for (uint8_t &v : expected.pixels) {
    // Same operations, same order, as the kernel's expression.
    float t = gain * (static_cast<float>(v) - 128.0f);
    t = t + 128.0f;
    t = t + bias;
    v = saturateU8(t);
  }
  Difference d = compare(output, expected);
  CHECK(d.maxAbs == 0);
  CHECK(d.differing == 0);
  // The kernel did change the photo.
  CHECK(compare(output, input).differing > input.size() / 2);
}

} // namespace

TEST_CASE("golden: brightness_contrast with its defaults") {
  checkBrightnessContrast(1.25f, 12.0f, "");
}

TEST_CASE("golden: brightness_contrast with parameters, saturating both ways") {
  checkBrightnessContrast(2.5f, -40.0f, "--param gain=2.5 --param bias=-40");
}

TEST_CASE("golden: clamp-to-edge reads repeat the border") {
  Image input = readInput("tests/data/baboon.jpg");
  Image output = runArvrc("tests/golden/shift_clamp.arvr",
                          "tests/data/baboon.jpg", "--param dy=9");
  const int dx = 5, dy = 9;
  Image expected = input;
  for (int y = 0; y < input.height; ++y)
    for (int x = 0; x < input.width; ++x)
      for (int c = 0; c < input.channels; ++c) {
        int sx = std::min(std::max(x - dx, 0), input.width - 1);
        int sy = std::min(std::max(y - dy, 0), input.height - 1);
        expected.at(x, y, c) = input.at(sx, sy, c);
      }
  Difference d = compare(output, expected);
  CHECK(d.maxAbs == 0);
  CHECK(compare(output, input).differing > 0);
}

TEST_CASE("golden: a grey photo widens losslessly into an RGB kernel") {
  // left01.jpg is one-channel; a kernel taking image<u8, 3> gets grey RGB.
  Image input = readInput("tests/data/left01.jpg");
  REQUIRE(input.channels == 1);
  std::string kernel = tempPath("rgb.arvr");
  {
    FILE *f = std::fopen(kernel.c_str(), "w");
    REQUIRE(f);
    std::fputs("kernel swap(src: image<u8, 3>) -> image<u8, 3> {\n"
               "  func out(x, y, c) = u8(255 - i32(src(x, y, c)));\n}\n",
               f);
    std::fclose(f);
  }
  std::string out = tempPath("rgb.png");
  std::string command = kArvrc + " run " + kernel + " -i " + kSourceDir +
                        "/tests/data/left01.jpg -o " + out +
                        " --target cpu > /dev/null";
  REQUIRE(std::system(command.c_str()) == 0);
  Image output;
  std::string error;
  REQUIRE(arvrc::readImage(out, 0, output, error));
  REQUIRE(output.channels == 3);
  REQUIRE(output.width == input.width);
  REQUIRE(output.height == input.height);
  size_t mismatches = 0;
  for (int y = 0; y < input.height; ++y)
    for (int x = 0; x < input.width; ++x)
      for (int c = 0; c < 3; ++c)
        mismatches += output.at(x, y, c) != 255 - input.at(x, y, 0);
  CHECK(mismatches == 0);
  unlink(kernel.c_str());
  unlink(out.c_str());
}
