//===- Image.h - Reading and writing image files ----------------*- C++ -*-===//
//
// Images in memory (row-major, channels interleaved; u8, or f32 for float
// images) and their files: PNG, JPEG, BMP, TGA, PPM/PGM (u8) and PFM (f32)
// in; PNG, JPEG, BMP, PPM/PGM and PFM out (by the output's extension).
// Output files are written to a temporary name and renamed, so a failed run
// never leaves a half-written file.
//
//===----------------------------------------------------------------------===//

#ifndef ARVRC_DRIVER_IMAGE_H
#define ARVRC_DRIVER_IMAGE_H

#include <cstdint>
#include <string>
#include <vector>

namespace arvrc {

/// Largest width or height arvrc accepts (a 16K frame is 15360 wide).
constexpr int kMaxImageSide = 32768;

struct Image {
  int width = 0, height = 0, channels = 0;
  /// 1 for u8 elements, 4 for f32 (PFM files).
  int elementBytes = 1;
  /// width * height * channels elements, elementBytes each (f32 in the
  /// host's byte order).
  std::vector<uint8_t> pixels;

  /// The number of elements.
  size_t size() const { return static_cast<size_t>(width) * height * channels; }
  /// The number of bytes of `pixels`.
  size_t bytes() const { return size() * elementBytes; }
  bool isFloat() const { return elementBytes == 4; }
  /// Element i of a float image.
  float floatAt(size_t i) const;
  void setFloat(size_t i, float value);
  uint8_t &at(int x, int y, int c) {
    return pixels[(static_cast<size_t>(y) * width + x) * channels + c];
  }
  uint8_t at(int x, int y, int c) const {
    return pixels[(static_cast<size_t>(y) * width + x) * channels + c];
  }
};

/// Reads `path`: a PFM file (`.pfm`) as an f32 image, any other as u8. With
/// `wantChannels` of 0 the file's channels are kept; otherwise the file
/// must have that many, or be widened losslessly (grey -> grey+alpha/RGB/
/// RGBA, RGB -> RGBA with opaque alpha: 255, or 1.0 for f32).
/// On failure returns false and sets `error` (it names the file). A 16-bit
/// PNG is read as 8 bits a channel (each value's high byte); `note`, if
/// given, is then set to say so.
bool readImage(const std::string &path, int wantChannels, Image &image,
               std::string &error, std::string *note = nullptr);

/// The channels the file at `path` holds, without decoding it.
bool probeImage(const std::string &path, int &width, int &height, int &channels,
                std::string &error);

/// Reads a raw NV12 frame: a W x H plane of Y bytes, then a
/// ceil(W/2) x ceil(H/2) plane of interleaved U, V bytes. The size is
/// `size` ("WxH") or, if that is empty, the last "_WxH" of the file name
/// (`frame_1920x1080.nv12`). The file must hold exactly one frame.
bool readNv12(const std::string &path, const std::string &size, Image &luma,
              Image &chroma, std::string &error);

/// Whether `path` names a PFM file (by its extension).
bool isPfmPath(const std::string &path);

/// Whether an output of that kind (f32 or u8) and channel count can be
/// written to `path` (by its extension); else sets `error`, naming it.
bool checkOutputPath(const std::string &path, bool isFloat, int channels,
                     std::string &error);

/// Writes `image` to `path` in the format its extension names (.pfm for
/// f32 images, another for u8).
bool writeImage(const std::string &path, const Image &image,
                std::string &error);

} // namespace arvrc

#endif // ARVRC_DRIVER_IMAGE_H
