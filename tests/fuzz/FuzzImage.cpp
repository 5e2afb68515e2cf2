//===- FuzzImage.cpp - libFuzzer target: image files as arvrc reads them --===//
//
// Writes the bytes to a file and reads it as arvrc does: probed, decoded
// (PNG, JPEG, BMP, TGA, PPM/PGM through stb) with the file's channels and
// widened to 3 and 4, as a raw NV12 frame of a fixed and of a named size,
// and as a PFM file (f32). Files that declare more than 512x512 pixels are only
// probed (large decodes at every run would leave no time for anything else; the
// size limits have their own tests). Errors are expected; a crash or sanitizer
// report is a bug. Built and run by scripts/fuzz.sh.
//
//===----------------------------------------------------------------------===//

#include "Image.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const std::string path =
      "/tmp/arvrc-fuzz-image-" + std::to_string(getpid()) + "_8x6.bin";
  if (FILE *f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, f);
    std::fclose(f);
  } else {
    return 0;
  }
  std::string error;
  int width = 0, height = 0, channels = 0;
  if (arvrc::probeImage(path, width, height, channels, error) &&
      int64_t(width) * height > 512 * 512)
    return 0; // Within arvrc's limits but gigabytes: not for every run.
  for (int want : {0, 3, 4})
    // As u8, as u16 (16-bit PNG and PPM/PGM as they are, 8-bit files
    // widened) and as the file stores it.
    for (int elementBytes : {1, 2, 0}) {
      arvrc::Image image;
      if (arvrc::readImage(path, want, image, error, nullptr, elementBytes) &&
          image.bytes() != image.pixels.size())
        __builtin_trap(); // A decoded image must hold all its pixels.
    }
  arvrc::Image luma, chroma;
  (void)arvrc::readNv12(path, "", luma, chroma, error);
  (void)arvrc::readNv12(path, "4x2", luma, chroma, error);
  // The same bytes as a PFM file (f32 images), as it is and widened.
  static const std::string pfm =
      "/tmp/arvrc-fuzz-image-" + std::to_string(getpid()) + ".pfm";
  if (std::rename(path.c_str(), pfm.c_str()) == 0)
    for (int want : {0, 3, 4}) {
      arvrc::Image image;
      if (arvrc::readImage(pfm, want, image, error) &&
          image.bytes() != image.pixels.size())
        __builtin_trap();
    }
  return 0;
}
