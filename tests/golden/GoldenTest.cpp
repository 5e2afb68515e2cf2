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
#include <fstream>
#include <functional>
#include <sstream>
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
  std::string source = kernel[0] == '/' ? kernel : kSourceDir + "/" + kernel;
  std::string command = kArvrc + " run " + source + " -i " + kSourceDir + "/" +
                        input + " -o " + out + " --target cpu " + params +
                        " > /dev/null";
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
  size_t beyondOne = 0;
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
    d.beyondOne += diff > 1;
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

//===----------------------------------------------------------------------===//
// Boundary modes and sampling
//===----------------------------------------------------------------------===//

namespace {

/// OpenCV's BORDER_REFLECT_101 (gfedcb|abcdefgh|gfedcba).
int reflect101(int i, int n) {
  if (n == 1)
    return 0;
  int period = 2 * n - 2;
  i %= period;
  if (i < 0)
    i += period;
  return i >= n ? period - i : i;
}

int wrapIndex(int i, int n) {
  i %= n;
  return i < 0 ? i + n : i;
}

/// Element (x, y, c), or `outside` when (x, y) is not in the image.
float readOr(const Image &image, int x, int y, int c, float outside) {
  if (x < 0 || y < 0 || x >= image.width || y >= image.height)
    return outside;
  return image.at(x, y, c);
}

} // namespace

/// The boundaries kernel shifted by (dx, dy), against the reference.
static void checkBoundaries(int dx, int dy) {
  Image input = readInput("tests/data/baboon.jpg");
  Image output = runArvrc(
      "tests/golden/boundaries.arvr", "tests/data/baboon.jpg",
      "--param dx=" + std::to_string(dx) + " -p dy=" + std::to_string(dy));
  Image expected = input;
  for (int y = 0; y < input.height; ++y)
    for (int x = 0; x < input.width; ++x)
      for (int c = 0; c < input.channels; ++c) {
        int sx = x + dx, sy = y + dy;
        uint8_t v;
        if (x < input.width / 3)
          v = input.at(reflect101(sx, input.width),
                       reflect101(sy, input.height), c);
        else if (x < 2 * input.width / 3)
          v = input.at(wrapIndex(sx, input.width), wrapIndex(sy, input.height),
                       c);
        else
          v = static_cast<uint8_t>(readOr(input, sx, sy, c, 200));
        expected.at(x, y, c) = v;
      }
  Difference d = compare(output, expected);
  CHECK(d.maxAbs == 0);
  CHECK(compare(output, input).differing > input.size() / 2);
}

TEST_CASE("golden: mirror, wrap and constant boundaries") {
  // Within a period of the 512 x 512 photo (one reflection or one wrap
  // gives the index).
  checkBoundaries(-300, 41);
  // Further than a period (x from -1100, beyond -512), and rows crossing
  // from within a period to beyond it (y up to 1211, where one reflection
  // reaches 1022 and one wrap 1023): an implementation that shortcuts the
  // near case must still agree on both sides of that edge.
  checkBoundaries(-1100, 700);
}

namespace {

/// sample(image, u, v, c, bilinear) with zero outside, in f32 and in the
/// kernel's order of operations.
float bilinearZero(const Image &image, float u, float v, int c) {
  float x0f = std::floor(u), y0f = std::floor(v);
  float ax = u - x0f, ay = v - y0f;
  int x0 = static_cast<int>(x0f), y0 = static_cast<int>(y0f);
  float p00 = readOr(image, x0, y0, c, 0);
  float p10 = readOr(image, x0 + 1, y0, c, 0);
  float p01 = readOr(image, x0, y0 + 1, c, 0);
  float p11 = readOr(image, x0 + 1, y0 + 1, c, 0);
  // (1 - t) a + t b, the first product fused into the sum (arvr contracts
  // a product used once and the sum using it into one fma, the left one
  // where both operands are products).
  float top = std::fma(1.0f - ax, p00, ax * p10);
  float bottom = std::fma(1.0f - ax, p01, ax * p11);
  return std::fma(1.0f - ay, top, ay * bottom);
}

} // namespace

TEST_CASE("golden: affine warp, bilinear and nearest sampling") {
  Image input = readInput("tests/data/baboon.jpg");
  const float a = 0.9f, b = 0.2f, tx = -30.5f, c = -0.15f, d = 1.1f,
              ty = 12.25f;
  for (bool nearest : {false, true}) {
    CAPTURE(nearest);
    Image output =
        runArvrc("tests/golden/affine_warp.arvr", "tests/data/baboon.jpg",
                 nearest ? "-p use_nearest=true" : "");
    Image expected = input;
    for (int y = 0; y < input.height; ++y)
      for (int x = 0; x < input.width; ++x) {
        // (a x + b y) + tx, a x fused into the first sum.
        float u = std::fma(a, float(x), b * float(y)) + tx;
        float v = std::fma(c, float(x), d * float(y)) + ty;
        for (int ch = 0; ch < input.channels; ++ch) {
          float value = nearest ? readOr(input, int(std::nearbyint(u)),
                                         int(std::nearbyint(v)), ch, 0)
                                : bilinearZero(input, u, v, ch);
          expected.at(x, y, ch) = saturateU8(value);
        }
      }
    Difference diff = compare(output, expected);
    // Same f32 operations in the same order, products fused as the
    // language does: equal, up to a rounding tie.
    CHECK(diff.maxAbs <= 1);
    CHECK(diff.differing < expected.size() / 1000);
    CHECK(compare(output, input).differing > input.size() / 2);
  }
}

//===----------------------------------------------------------------------===//
// Lens undistortion (examples/lens_undistort.arvr)
//===----------------------------------------------------------------------===//

namespace {

/// The Brown–Conrady undistortion of ../shared/design/kernels.md in
/// float64, with chromatic-aberration scales (red, blue), bilinear sampling
/// with zero outside, rounded to nearest.
Image undistortReference(const Image &src, double sRed, double sBlue) {
  const double fx = 535.915733961632, fy = 535.915733961632,
               cx = 342.283154737084, cy = 235.570829097882,
               k1 = -0.266372609096607, k2 = -0.0385888989223047,
               p1 = 0.00178319470428530, p2 = -0.000281221004411155,
               k3 = 0.238391530808785;
  Image out = src;
  for (int y = 0; y < src.height; ++y)
    for (int x = 0; x < src.width; ++x)
      for (int c = 0; c < src.channels; ++c) {
        double s = src.channels < 3 || c == 1 ? 1.0 : c == 0 ? sRed : sBlue;
        double xn = s * (x - cx) / fx, yn = s * (y - cy) / fy;
        double r2 = xn * xn + yn * yn;
        double radial = 1 + k1 * r2 + k2 * r2 * r2 + k3 * r2 * r2 * r2;
        double xd = xn * radial + 2 * p1 * xn * yn + p2 * (r2 + 2 * xn * xn);
        double yd = yn * radial + p1 * (r2 + 2 * yn * yn) + 2 * p2 * xn * yn;
        double u = fx * xd + cx, v = fy * yd + cy;
        double x0 = std::floor(u), y0 = std::floor(v);
        double ax = u - x0, ay = v - y0;
        auto at = [&](double px, double py) {
          return double(readOr(src, int(px), int(py), c, 0));
        };
        double value =
            (1 - ay) * ((1 - ax) * at(x0, y0) + ax * at(x0 + 1, y0)) +
            ay * ((1 - ax) * at(x0, y0 + 1) + ax * at(x0 + 1, y0 + 1));
        out.at(x, y, c) = static_cast<uint8_t>(
            std::nearbyint(std::min(std::max(value, 0.0), 255.0)));
      }
  return out;
}

} // namespace

TEST_CASE("golden: lens undistortion against a float64 reference") {
  SUBCASE("grey camera frame, no chromatic aberration") {
    Image input = readInput("tests/data/left01.jpg");
    Image output =
        runArvrc("examples/lens_undistort.arvr", "tests/data/left01.jpg", "");
    Difference d = compare(output, undistortReference(input, 1.0, 1.0));
    // The parity bar of kernels.md for an f32 kernel against float64.
    CHECK(d.maxAbs <= 2);
    CHECK(d.beyondOne == 0);
    CHECK(d.differing < input.size() / 100);
    CHECK(compare(output, input).differing > input.size() / 2);
  }
  SUBCASE("RGB photo with chromatic aberration on") {
    Image input = readInput("tests/data/baboon.jpg");
    Image output =
        runArvrc("examples/lens_undistort.arvr", "tests/data/baboon.jpg",
                 "-p ca_red=0.9975 -p ca_blue=0.995");
    Difference d = compare(output, undistortReference(input, 0.9975, 0.995));
    CHECK(d.maxAbs <= 2);
    CHECK(d.differing < input.size() / 100);
  }
}

//===----------------------------------------------------------------------===//
// Separable Gaussian blur (examples/gaussian_blur.arvr)
//===----------------------------------------------------------------------===//

namespace {

/// Gaussian weights normalised over [-r, r], a horizontal then a vertical
/// pass in float64, reflect-101 borders, rounded to nearest.
Image gaussianReference(const Image &src, double sigma, int r) {
  std::vector<double> w(2 * r + 1);
  double total = 0;
  for (int i = -r; i <= r; ++i)
    total += w[i + r] = std::exp(-double(i * i) / (2 * sigma * sigma));
  for (double &v : w)
    v /= total;
  std::vector<double> horizontal(src.size());
  auto index = [&](int x, int y, int c) {
    return (size_t(y) * src.width + x) * src.channels + c;
  };
  for (int y = 0; y < src.height; ++y)
    for (int x = 0; x < src.width; ++x)
      for (int c = 0; c < src.channels; ++c) {
        double acc = 0;
        for (int i = -r; i <= r; ++i)
          acc += w[i + r] * src.at(reflect101(x + i, src.width), y, c);
        horizontal[index(x, y, c)] = acc;
      }
  Image out = src;
  for (int y = 0; y < src.height; ++y)
    for (int x = 0; x < src.width; ++x)
      for (int c = 0; c < src.channels; ++c) {
        double acc = 0;
        for (int j = -r; j <= r; ++j)
          acc +=
              w[j + r] * horizontal[index(x, reflect101(y + j, src.height), c)];
        out.at(x, y, c) = static_cast<uint8_t>(
            std::nearbyint(std::min(std::max(acc, 0.0), 255.0)));
      }
  return out;
}

} // namespace

TEST_CASE("golden: separable Gaussian blur against a float64 reference") {
  Image input = readInput("tests/data/baboon.jpg");
  struct Case {
    double sigma;
    int radius;
    const char *params;
  };
  for (Case c : {Case{2.0, 4, ""}, Case{1.0, 2, "-p sigma=1 -p radius=2"},
                 Case{3.5, 7, "-p sigma=3.5 -p radius=7"}}) {
    CAPTURE(c.radius);
    Image output = runArvrc("examples/gaussian_blur.arvr",
                            "tests/data/baboon.jpg", c.params);
    Difference d = compare(output, gaussianReference(input, c.sigma, c.radius));
    CHECK(d.maxAbs <= 1);
    CHECK(d.differing < input.size() / 100);
    CHECK(compare(output, input).differing > input.size() / 2);
  }
}

/// `examples/<name>.arvr` with its schedule block replaced by `schedule`,
/// written to a temporary file whose path is returned (relative paths in
/// runArvrc are from the source tree, so this one is absolute).
std::string withSchedule(const std::string &example,
                         const std::string &schedule) {
  std::ifstream in(kSourceDir + "/" + example);
  std::stringstream text;
  text << in.rdbuf();
  std::string source = text.str();
  size_t begin = source.find("  schedule {");
  size_t end = source.find("  }\n", begin);
  REQUIRE(begin != std::string::npos);
  REQUIRE(end != std::string::npos);
  source.replace(begin, end + 4 - begin, schedule);
  std::string path =
      tempPath(std::to_string(std::hash<std::string>()(schedule)) + ".arvr");
  std::ofstream(path) << source;
  return path;
}

TEST_CASE("golden: schedules never change the Gaussian's output") {
  // The example's schedule (blur_x in shared memory on the GPU, computed
  // per band of rows on the CPU), against everything inlined, blur_x at the
  // root, other tiles, unrolled reductions and several points per thread:
  // the same bits, for a wide and a narrow halo.
  for (const char *params : {"-p sigma=3.5 -p radius=7", "-p radius=2"}) {
    CAPTURE(params);
    Image scheduled = runArvrc("examples/gaussian_blur.arvr",
                               "tests/data/baboon.jpg", params);
    for (const char *schedule :
         {"", "  schedule {\n    out.gpu_tile(16, 16);\n  }\n",
          "  schedule {\n    blur_x.compute_root();\n  }\n",
          "  schedule {\n    blur_x.compute_root();\n"
          "    blur_x.gpu_tile(128, 1);\n    out.gpu_tile(8, 32);\n  }\n",
          // Reductions unrolled (with a remainder: 5 and 15 terms), several
          // points per GPU thread.
          "  schedule {\n    weight.compute_root();\n    norm.compute_root();\n"
          "    blur_x.compute_shared();\n    blur_x.unroll(4);\n"
          "    out.unroll(3);\n    out.gpu_pixels(4);\n  }\n",
          "  schedule {\n    blur_x.compute_root();\n    blur_x.unroll(2);\n"
          "    blur_x.gpu_pixels(2);\n    norm.compute_root();\n"
          "    norm.unroll(8);\n  }\n"}) {
      CAPTURE(schedule);
      std::string variant =
          withSchedule("examples/gaussian_blur.arvr", schedule);
      Image other = runArvrc(variant, "tests/data/baboon.jpg", params);
      unlink(variant.c_str());
      Difference d = compare(scheduled, other);
      CHECK(d.maxAbs == 0);
    }
  }
}

//===----------------------------------------------------------------------===//
// NV12 to RGB (examples/nv12_to_rgb.arvr)
//===----------------------------------------------------------------------===//

namespace {

uint8_t clampByte(double v) {
  return static_cast<uint8_t>(
      std::nearbyint(std::min(std::max(v, 0.0), 255.0)));
}

/// The top-left `width` x `height` of an RGB photo as an NV12 frame
/// (BT.601 limited range; each 2x2 block's chroma is its mean), written to
/// a temporary file whose name carries the size. Returns the file's path.
std::string writeNv12(const Image &rgb, int width, int height,
                      std::vector<uint8_t> &luma,
                      std::vector<uint8_t> &chroma) {
  int cw = (width + 1) / 2, ch = (height + 1) / 2;
  luma.assign(size_t(width) * height, 0);
  chroma.assign(size_t(cw) * ch * 2, 0);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      double r = rgb.at(x, y, 0), g = rgb.at(x, y, 1), b = rgb.at(x, y, 2);
      luma[size_t(y) * width + x] =
          clampByte(16 + 0.257 * r + 0.504 * g + 0.098 * b);
    }
  for (int by = 0; by < ch; ++by)
    for (int bx = 0; bx < cw; ++bx) {
      double u = 0, v = 0;
      int n = 0;
      for (int y = 2 * by; y < std::min(2 * by + 2, height); ++y)
        for (int x = 2 * bx; x < std::min(2 * bx + 2, width); ++x, ++n) {
          double r = rgb.at(x, y, 0), g = rgb.at(x, y, 1), b = rgb.at(x, y, 2);
          u += 128 - 0.148 * r - 0.291 * g + 0.439 * b;
          v += 128 + 0.439 * r - 0.368 * g - 0.071 * b;
        }
      chroma[(size_t(by) * cw + bx) * 2] = clampByte(u / n);
      chroma[(size_t(by) * cw + bx) * 2 + 1] = clampByte(v / n);
    }
  std::string path = tempPath("frame_" + std::to_string(width) + "x" +
                              std::to_string(height) + ".nv12");
  FILE *f = std::fopen(path.c_str(), "wb");
  REQUIRE(f);
  std::fwrite(luma.data(), 1, luma.size(), f);
  std::fwrite(chroma.data(), 1, chroma.size(), f);
  std::fclose(f);
  return path;
}

} // namespace

TEST_CASE("golden: NV12 to RGB against the BT.601 formula in float64") {
  Image photo = readInput("tests/data/baboon.jpg");
  for (auto [width, height] : {std::pair{512, 512}, std::pair{511, 383}}) {
    CAPTURE(width);
    std::vector<uint8_t> luma, chroma;
    std::string frame = writeNv12(photo, width, height, luma, chroma);
    std::string out = tempPath("rgb.png");
    std::string command = kArvrc + " run " + kSourceDir +
                          "/examples/nv12_to_rgb.arvr -i " + frame + " -o " +
                          out + " --target cpu > /dev/null";
    REQUIRE(std::system(command.c_str()) == 0);
    Image output;
    std::string error;
    REQUIRE_MESSAGE(arvrc::readImage(out, 0, output, error), error);
    REQUIRE(output.width == width);
    REQUIRE(output.height == height);
    REQUIRE(output.channels == 3);
    Image expected = output;
    int cw = (width + 1) / 2;
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) {
        double l = 1.164 * (luma[size_t(y) * width + x] - 16.0);
        size_t block = (size_t(y / 2) * cw + x / 2) * 2;
        double u = chroma[block] - 128.0, v = chroma[block + 1] - 128.0;
        expected.at(x, y, 0) = clampByte(l + 1.596 * v);
        expected.at(x, y, 1) = clampByte(l - 0.813 * v - 0.391 * u);
        expected.at(x, y, 2) = clampByte(l + 2.018 * u);
      }
    Difference d = compare(output, expected);
    CHECK(d.maxAbs <= 1);
    CHECK(d.differing < expected.size() / 100);
    // And it looks like the photo it came from (a colour round trip).
    Image crop = expected;
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x)
        for (int c = 0; c < 3; ++c)
          crop.at(x, y, c) = photo.at(x, y, c);
    double sum = 0;
    for (size_t i = 0; i < crop.size(); ++i)
      sum += std::abs(int(crop.pixels[i]) - int(output.pixels[i]));
    CHECK(sum / crop.size() < 12.0);
    unlink(frame.c_str());
    unlink(out.c_str());
  }
}

TEST_CASE("golden: argmin reductions pick the first smallest term") {
  Image input = readInput("tests/data/baboon.jpg");
  Image output =
      runArvrc("tests/golden/argmin.arvr", "tests/data/baboon.jpg", "-p r=4");
  const int r = 4;
  Image expected = input;
  for (int y = 0; y < input.height; ++y)
    for (int x = 0; x < input.width; ++x)
      for (int c = 0; c < input.channels; ++c) {
        int best = r + 1, bestValue = INT32_MAX;
        for (int i = -r; i <= r; ++i) {
          int sx = std::min(std::max(x + i, 0), input.width - 1);
          int value = std::abs(int(input.at(sx, y, c)) - 128);
          if (value < bestValue) {
            bestValue = value;
            best = i;
          }
        }
        expected.at(x, y, c) = static_cast<uint8_t>((best + r) * 30);
      }
  CHECK(compare(output, expected).maxAbs == 0);
}

TEST_CASE("golden: an output size written after the type") {
  Image input = readInput("tests/data/baboon.jpg");
  const int k = 3;
  Image output = runArvrc("tests/golden/downscale.arvr",
                          "tests/data/baboon.jpg", "-p k=3");
  REQUIRE(output.width == (input.width + k - 1) / k);
  REQUIRE(output.height == (input.height + k - 1) / k);
  Image expected = output;
  for (int y = 0; y < output.height; ++y)
    for (int x = 0; x < output.width; ++x)
      for (int c = 0; c < input.channels; ++c) {
        int total = 0;
        for (int i = 0; i < k; ++i)
          for (int j = 0; j < k; ++j)
            total += input.at(std::min(x * k + i, input.width - 1),
                              std::min(y * k + j, input.height - 1), c);
        expected.at(x, y, c) = saturateU8(float(total) / float(k * k));
      }
  CHECK(compare(output, expected).maxAbs == 0);
}
