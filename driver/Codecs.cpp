//===- Codecs.cpp - PNG and JPEG through libpng and libjpeg-turbo ---------===//
//
// Decoding PNG files with libpng (8 or 16 bits a sample, palettes and
// transparency expanded as stb did) and JPEG files and encoding JPEG with
// libjpeg-turbo, the libraries OpenCV uses: a 4K photo is read and
// written about as fast as OpenCV does. Errors name the file and say what
// the library found.
//
//===----------------------------------------------------------------------===//

#include "Codecs.h"

#include <png.h>
// jpeglib.h needs FILE and size_t declared first.
#include <cstdio>
#include <cstring>
#include <jpeglib.h>
// After jpeglib.h: the message codes.
#include <jerror.h>

#include <csetjmp>
#include <memory>

using namespace arvrc;

namespace {

/// Closes a FILE when it goes out of scope.
struct FileCloser {
  void operator()(FILE *file) const { std::fclose(file); }
};
using File = std::unique_ptr<FILE, FileCloser>;

/// libpng's error and warning handlers: the message kept, then back to
/// the caller's setjmp.
struct PngErrors {
  char message[200] = "";
};

void pngError(png_structp png, png_const_charp message) {
  auto *errors = static_cast<PngErrors *>(png_get_error_ptr(png));
  // A short read is what libpng calls "Read Error".
  std::snprintf(errors->message, sizeof errors->message, "%s",
                std::strcmp(message, "Read Error") ? message
                                                   : "the file ends early");
  png_longjmp(png, 1);
}

void pngWarning(png_structp, png_const_charp) {}

/// The rows of a PNG already opened in `png`/`info`, into `pixels`
/// (`rows` the caller's, for their pointers); `elementBytes` 2 asks for
/// 16 bits a sample (host order; an 8-bit file's values times 257), 1 for
/// 8 (a 16-bit file's high bytes), 0 for the file's. No object with a
/// destructor is made here: libpng leaves by longjmp.
bool readPngRows(png_structp png, png_infop info, int elementBytes,
                 PngErrors &errors, Image &image, bool &fileIs16,
                 std::vector<png_bytep> &rows) {
  if (setjmp(png_jmpbuf(png)))
    return false;
  png_read_info(png, info);
  fileIs16 = png_get_bit_depth(png, info) == 16;
  bool sixteen = elementBytes == 2 || (elementBytes == 0 && fileIs16);
  png_set_expand(png); // Palettes to RGB, grey < 8 bits, tRNS to alpha.
  if (fileIs16 && !sixteen)
    png_set_strip_16(png); // The high byte, as stb read it.
  if (!fileIs16 && sixteen)
    png_set_expand_16(png);
  if (sixteen) {
    uint16_t probe = 1;
    if (*reinterpret_cast<uint8_t *>(&probe) == 1)
      png_set_swap(png); // PNG samples are big-endian.
  }
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  image.width = static_cast<int>(png_get_image_width(png, info));
  image.height = static_cast<int>(png_get_image_height(png, info));
  image.channels = png_get_channels(png, info);
  image.elementBytes = sixteen ? 2 : 1;
  size_t rowBytes = png_get_rowbytes(png, info);
  if (image.width < 1 || image.height < 1 || image.width > kMaxImageSide ||
      image.height > kMaxImageSide || image.channels > 4 ||
      rowBytes != size_t(image.width) * image.channels * image.elementBytes) {
    std::snprintf(errors.message, sizeof errors.message,
                  "%dx%d with %d channels is not supported", image.width,
                  image.height, image.channels);
    return false;
  }
  image.pixels.resize(image.bytes());
  rows.resize(image.height);
  for (int y = 0; y < image.height; ++y)
    rows[y] = image.pixels.data() + y * rowBytes;
  png_read_image(png, rows.data());
  png_read_end(png, nullptr);
  return true;
}

/// libjpeg's error handler: the message kept, then back to setjmp.
struct JpegErrors {
  jpeg_error_mgr manager;
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX] = "";
};

void jpegError(j_common_ptr info) {
  auto *errors = reinterpret_cast<JpegErrors *>(info->err);
  errors->manager.format_message(info, errors->message);
  std::longjmp(errors->jump, 1);
}

/// Warnings pass, but for a file that ends before its image does
/// (libjpeg would fill the rest with grey): an error.
void jpegWarning(j_common_ptr info, int level) {
  if (level < 0 && info->err->msg_code == JWRN_JPEG_EOF) {
    auto *errors = reinterpret_cast<JpegErrors *>(info->err);
    std::snprintf(errors->message, sizeof errors->message,
                  "the file ends early");
    std::longjmp(errors->jump, 1);
  }
}

/// libjpeg's error manager of `errors`, with the handlers above.
jpeg_error_mgr *errorManager(JpegErrors &errors) {
  jpeg_std_error(&errors.manager);
  errors.manager.error_exit = jpegError;
  errors.manager.emit_message = jpegWarning;
  return &errors.manager;
}

/// The scanlines of the JPEG in `file` into `image` (grey or RGB, as the
/// file is); no destructor runs across libjpeg's longjmp.
bool readJpegRows(FILE *file, JpegErrors &errors, Image &image) {
  jpeg_decompress_struct info;
  info.err = errorManager(errors);
  if (setjmp(errors.jump)) {
    jpeg_destroy_decompress(&info);
    return false;
  }
  jpeg_create_decompress(&info);
  jpeg_stdio_src(&info, file);
  jpeg_read_header(&info, TRUE);
  if (info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK) {
    std::snprintf(errors.message, sizeof errors.message,
                  "a CMYK JPEG; convert it to RGB first");
    jpeg_destroy_decompress(&info);
    return false;
  }
  info.out_color_space = info.num_components == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_start_decompress(&info);
  image.width = static_cast<int>(info.output_width);
  image.height = static_cast<int>(info.output_height);
  image.channels = info.output_components;
  image.elementBytes = 1;
  image.pixels.resize(image.size());
  size_t rowBytes = size_t(image.width) * image.channels;
  while (info.output_scanline < info.output_height) {
    JSAMPROW row = image.pixels.data() + info.output_scanline * rowBytes;
    jpeg_read_scanlines(&info, &row, 1);
  }
  jpeg_finish_decompress(&info);
  jpeg_destroy_decompress(&info);
  return true;
}

} // namespace

bool arvrc::readPngFile(const std::string &path, int elementBytes, Image &image,
                        bool &fileIs16, std::string &error) {
  File file(std::fopen(path.c_str(), "rb"));
  if (!file) {
    error = path + ": cannot open: " + std::strerror(errno);
    return false;
  }
  PngErrors errors;
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &errors,
                                           pngError, pngWarning);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!info) {
    png_destroy_read_struct(&png, nullptr, nullptr);
    error = path + ": cannot decode (out of memory)";
    return false;
  }
  png_init_io(png, file.get());
  std::vector<png_bytep> rows;
  bool ok = readPngRows(png, info, elementBytes, errors, image, fileIs16, rows);
  png_destroy_read_struct(&png, &info, nullptr);
  if (!ok)
    error = path + ": cannot decode (PNG: " + errors.message + ")";
  return ok;
}

bool arvrc::readJpegFile(const std::string &path, Image &image,
                         std::string &error) {
  File file(std::fopen(path.c_str(), "rb"));
  if (!file) {
    error = path + ": cannot open: " + std::strerror(errno);
    return false;
  }
  JpegErrors errors;
  if (!readJpegRows(file.get(), errors, image)) {
    error = path + ": cannot decode (JPEG: " + errors.message + ")";
    return false;
  }
  return true;
}

bool arvrc::writeJpegFile(FILE *file, const Image &image, int quality) {
  if (image.channels != 1 && image.channels != 3)
    return false;
  jpeg_compress_struct info;
  JpegErrors errors;
  info.err = errorManager(errors);
  if (setjmp(errors.jump)) {
    jpeg_destroy_compress(&info);
    return false;
  }
  jpeg_create_compress(&info);
  jpeg_stdio_dest(&info, file);
  info.image_width = image.width;
  info.image_height = image.height;
  info.input_components = image.channels;
  info.in_color_space = image.channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(&info);
  jpeg_set_quality(&info, quality, TRUE);
  jpeg_start_compress(&info, TRUE);
  size_t rowBytes = size_t(image.width) * image.channels;
  while (info.next_scanline < info.image_height) {
    JSAMPROW row = const_cast<JSAMPROW>(image.pixels.data() +
                                        info.next_scanline * rowBytes);
    jpeg_write_scanlines(&info, &row, 1);
  }
  jpeg_finish_compress(&info);
  jpeg_destroy_compress(&info);
  return true;
}
