//===- Codecs.h - PNG and JPEG through libpng and libjpeg-turbo -*- C++ -*-===//
//
// The decoders and the JPEG encoder Image.cpp uses for those formats.
//
//===----------------------------------------------------------------------===//

#ifndef ARVRC_DRIVER_CODECS_H
#define ARVRC_DRIVER_CODECS_H

#include "Image.h"

#include <cstdio>
#include <string>

namespace arvrc {

/// Decodes the PNG at `path` into `image` with its own channels (palettes
/// expanded to RGB, transparency to alpha): `elementBytes` 2 as u16 (an
/// 8-bit file's values times 257), 1 as u8 (a 16-bit file's high bytes),
/// 0 as the file stores it. `fileIs16` says what it stored. False, with
/// `error` naming the file, if it cannot be decoded.
bool readPngFile(const std::string &path, int elementBytes, Image &image,
                 bool &fileIs16, std::string &error);

/// Decodes the JPEG at `path` into `image`: grey or RGB, as the file is.
bool readJpegFile(const std::string &path, Image &image, std::string &error);

/// Encodes `image` (u8, grey or RGB) as a JPEG of `quality` (1 to 100)
/// into `file`.
bool writeJpegFile(FILE *file, const Image &image, int quality);

} // namespace arvrc

#endif // ARVRC_DRIVER_CODECS_H
