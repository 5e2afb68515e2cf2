//===- Image.h - Reading and writing image files ----------------*- C++ -*-===//
//
// Images in memory (row-major, channels interleaved; u8, u16, or f32 for
// float images) and their files: PNG (libpng), JPEG (libjpeg-turbo), BMP,
// TGA, PPM/PGM (u8; 16-bit PNG and PPM/PGM for u16) and PFM (f32) in; PNG
// (libpng), JPEG (libjpeg-turbo), BMP, PPM/PGM (u8), 16-bit PNG and
// PPM/PGM (u16) and PFM (f32) out, by the output's extension.
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
  /// 1 for u8 elements, 2 for u16, 4 for f32 (PFM files).
  int elementBytes = 1;
  /// width * height * channels elements, elementBytes each (u16 and f32
  /// in the host's byte order).
  std::vector<uint8_t> pixels;

  /// The number of elements.
  size_t size() const { return static_cast<size_t>(width) * height * channels; }
  /// The number of bytes of `pixels`.
  size_t bytes() const { return size() * elementBytes; }
  bool isFloat() const { return elementBytes == 4; }
  bool isU16() const { return elementBytes == 2; }
  /// Element i as a double, whatever its type.
  double valueAt(size_t i) const;
  /// The largest value of the element type (255, 65535; 1.0 for f32).
  double typeMax() const { return isFloat() ? 1.0 : isU16() ? 65535 : 255; }
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
/// On failure returns false and sets `error` (it names the file). With
/// `elementBytes` 2 the image is read as u16: a 16-bit PNG or PPM/PGM as
/// it is, an 8-bit file widened to 16 bits (each value times 257, so 255
/// becomes 65535; `note` says so); with 0, as the file stores it (u16 for a
/// 16-bit file). With 1, a 16-bit file is read as 8 bits a channel (each
/// value's high byte); `note`, if given, is then set to say so.
bool readImage(const std::string &path, int wantChannels, Image &image,
               std::string &error, std::string *note = nullptr,
               int elementBytes = 1);

/// The channels the file at `path` holds, without decoding it.
bool probeImage(const std::string &path, int &width, int &height, int &channels,
                std::string &error);

/// Reads a raw NV12 frame: a W x H plane of Y bytes, then a
/// ceil(W/2) x ceil(H/2) plane of interleaved U, V bytes. The size is
/// `size` ("WxH") or, if that is empty, the last "_WxH" of the file name
/// (`frame_1920x1080.nv12`). The file must hold exactly one frame (arvrc
/// run reads a file of several as a video: a stream of frames).
bool readNv12(const std::string &path, const std::string &size, Image &luma,
              Image &chroma, std::string &error);

/// The size of `path`'s raw NV12 frames: `size` ("WxH") or, if that is
/// empty, the last "_WxH" of the file name; false with `error` if neither.
bool nv12FrameSize(const std::string &path, const std::string &size, int &width,
                   int &height, std::string &error);

/// How many whole W x H NV12 frames the file at `path` holds; -1 if it
/// cannot be read or holds a part of one.
int64_t nv12FramesIn(const std::string &path, int width, int height);

/// The extension of `path`'s file name, lower case, without its dot ("" if
/// it has none).
std::string lowerExtension(const std::string &path);

/// Whether `path` names a PFM file (by its extension).
bool isPfmPath(const std::string &path);

/// Whether an output of that element size (1: u8, 2: u16, 4: f32) and
/// channel count can be written to `path` (by its extension); else sets
/// `error`, naming it.
bool checkOutputPath(const std::string &path, int elementBytes, int channels,
                     std::string &error);

/// The default deflate level of PNG outputs: 1, the fastest, as OpenCV's.
constexpr int kDefaultPngLevel = 1;

/// The default quality of JPEG outputs (1 to 100): 95, as OpenCV's.
constexpr int kDefaultJpegQuality = 95;

/// Writes `image` to `path` in the format its extension names (.pfm for
/// f32 images, .png, .ppm or .pgm for u16, another for u8); a PNG is
/// deflated at `pngLevel` (0 to 9), a JPEG (libjpeg-turbo) encoded at
/// `jpegQuality`.
bool writeImage(const std::string &path, const Image &image, std::string &error,
                int pngLevel = kDefaultPngLevel,
                int jpegQuality = kDefaultJpegQuality);

} // namespace arvrc

#endif // ARVRC_DRIVER_IMAGE_H
