//===- Image.cpp - Reading and writing image files ------------------------===//

#include "Image.h"
#include "Codecs.h"

#define STB_IMAGE_IMPLEMENTATION
#define STBI_FAILURE_USERMSG
#include <stb/stb_image.h>
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

#include <png.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <tuple>
#include <unistd.h>

using namespace arvrc;

std::string arvrc::lowerExtension(const std::string &path) {
  size_t dot = path.find_last_of('.');
  size_t slash = path.find_last_of('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
    return "";
  std::string ext = path.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return ext;
}

bool arvrc::isPfmPath(const std::string &path) {
  return lowerExtension(path) == "pfm";
}

float Image::floatAt(size_t i) const {
  float value;
  std::memcpy(&value, pixels.data() + i * 4, 4);
  return value;
}

void Image::setFloat(size_t i, float value) {
  std::memcpy(pixels.data() + i * 4, &value, 4);
}

static const char *channelWord(int channels) {
  switch (channels) {
  case 1:
    return "grey";
  case 2:
    return "grey+alpha";
  case 3:
    return "RGB";
  default:
    return "RGBA";
  }
}

/// Whether the Huffman tables of the JPEG in `file` (from its start) each
/// declare at most 256 codes. Debian's stb_image writes past its table when
/// one declares more (found by tests/fuzz/FuzzImage.cpp), so such files are
/// refused before stb reads them. Reads the markers up to the scan data.
static bool jpegHuffmanTablesFit(FILE *file) {
  auto byte = [&]() { return std::fgetc(file); };
  // The start of image, after any 0xFF fill bytes (as stb reads it).
  if (byte() != 0xFF)
    return true; // Not a JPEG: nothing to check.
  int start = byte();
  while (start == 0xFF)
    start = byte();
  if (start != 0xD8)
    return true;
  for (;;) {
    int c = byte();
    if (c == EOF)
      return true;
    if (c != 0xFF)
      continue; // stb skips junk between markers too.
    int marker = byte();
    while (marker == 0xFF)
      marker = byte();
    if (marker == EOF || marker == 0xDA || marker == 0xD9)
      return true; // The scan (or the end): no table after this matters here.
    if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD8))
      continue; // Markers without a length.
    int high = byte(), low = byte();
    if (high == EOF || low == EOF)
      return true;
    long length = (high << 8 | low) - 2;
    if (marker != 0xC4) {
      if (length > 0 && std::fseek(file, length, SEEK_CUR) != 0)
        return true;
      continue;
    }
    // DHT: tables of (class/id, 16 counts, the symbols), read while the
    // segment has bytes left, as stb reads them.
    while (length > 0) {
      if (byte() == EOF)
        return true;
      // stb reads bytes past the end of the file as 0: so does this.
      long codes = 0;
      for (int i = 0; i < 16; ++i) {
        int count = byte();
        codes += count == EOF ? 0 : count;
      }
      if (codes > 256)
        return false;
      if (std::feof(file))
        return true;
      length -= 17 + codes;
      if (std::fseek(file, codes, SEEK_CUR) != 0)
        return true;
    }
    if (length > 0 && std::fseek(file, length, SEEK_CUR) != 0)
      return true;
  }
}

/// Checks the header of a binary PPM/PGM (P6, P5) in `file` (from its
/// start) before stb reads it: three numbers (width, height, maximum value)
/// of at most 9 digits each, each followed by white space or a comment, a
/// maximum value of 1 to 255 (arvrc reads 8-bit files), and at least the
/// pixels the header declares. Debian's stb_image overflows an int on a
/// longer number and reads past its buffer on a truncated 16-bit file (both
/// found by tests/fuzz/FuzzImage.cpp). Returns "" if the file is fine or
/// not a PPM/PGM, else why it is refused.
static std::string checkPnmHeader(FILE *file, long *header = nullptr,
                                  long *pixelsAt = nullptr) {
  int p = std::fgetc(file), kind = std::fgetc(file);
  if (p != 'P' || (kind != '5' && kind != '6'))
    return "";
  long values[3] = {0, 0, 0};
  int c = std::fgetc(file);
  for (long &value : values) {
    // White space and comments (stb's rules: '#' to the end of the line).
    bool separated = false;
    for (;;) {
      while (c != EOF && std::isspace(c)) {
        separated = true;
        c = std::fgetc(file);
      }
      if (c != '#')
        break;
      separated = true;
      while (c != EOF && c != '\n' && c != '\r')
        c = std::fgetc(file);
    }
    int digits = 0;
    while (c != EOF && c >= '0' && c <= '9') {
      if (++digits > 9)
        return "corrupt PPM/PGM header (a number of more than 9 digits)";
      value = value * 10 + (c - '0');
      c = std::fgetc(file);
    }
    if (!separated || digits == 0)
      return "corrupt PPM/PGM header (expected the width, height and "
             "maximum value)";
  }
  if (c == EOF || !std::isspace(c))
    return "corrupt PPM/PGM header (no white space after the maximum value)";
  if (values[2] < 1 || values[2] > 65535)
    return "a PPM/PGM of maximum value " + std::to_string(values[2]) +
           "; the maximum value must be 1 to 65535";
  long pixelsStart = std::ftell(file);
  std::fseek(file, 0, SEEK_END);
  long end = std::ftell(file);
  long long need = (long long)values[0] * values[1] * (kind == '6' ? 3 : 1) *
                   (values[2] > 255 ? 2 : 1);
  if (pixelsStart < 0 || end - pixelsStart < need)
    return "truncated PPM/PGM (" + std::to_string(end - pixelsStart) +
           " bytes of pixels, but the header declares " + std::to_string(need) +
           ")";
  if (header) {
    std::copy(values, values + 3, header);
    header[3] = kind == '6' ? 3 : 1;
  }
  if (pixelsAt)
    *pixelsAt = pixelsStart;
  return "";
}

/// Whether a file's declared size is within arvrc's limits; else sets
/// `error`, naming the file.
static bool sizeSupported(const std::string &path, long width, long height,
                          std::string &error) {
  if (width >= 1 && height >= 1 && width <= kMaxImageSide &&
      height <= kMaxImageSide)
    return true;
  error = path + ": image of " + std::to_string(width) + "x" +
          std::to_string(height) + " is outside the supported 1 to " +
          std::to_string(kMaxImageSide) + " pixels a side";
  return false;
}

bool arvrc::probeImage(const std::string &path, int &width, int &height,
                       int &channels, std::string &error) {
  FILE *file = std::fopen(path.c_str(), "rb");
  if (!file) {
    error = path + ": cannot open: " + std::strerror(errno);
    return false;
  }
  if (!jpegHuffmanTablesFit(file)) {
    std::fclose(file);
    error = path + ": corrupt JPEG (a Huffman table declares more than 256 "
                   "codes)";
    return false;
  }
  std::rewind(file);
  if (std::string why = checkPnmHeader(file); !why.empty()) {
    std::fclose(file);
    error = path + ": " + why;
    return false;
  }
  std::rewind(file);
  int ok = stbi_info_from_file(file, &width, &height, &channels);
  std::fclose(file);
  if (!ok) {
    error = path + ": not a readable image (" + stbi_failure_reason() + ")";
    return false;
  }
  if (!sizeSupported(path, width, height, error))
    return false;
  return true;
}

/// Whether a file of `fileChannels` can be read as `wantChannels` (0: as
/// it is) without losing data; else sets `error`.
static bool canWiden(const std::string &path, int fileChannels,
                     int wantChannels, std::string &error) {
  if (!wantChannels || wantChannels == fileChannels)
    return true;
  if ((fileChannels == 1 && wantChannels >= 2) ||
      (fileChannels == 3 && wantChannels == 4))
    return true;
  error = path + ": has " + std::to_string(fileChannels) + " channel" +
          (fileChannels == 1 ? "" : "s") + " (" + channelWord(fileChannels) +
          "), but " + std::to_string(wantChannels) +
          " are needed, and dropping channels would lose data";
  return false;
}

/// `image` widened losslessly to `want` channels (canWiden said it can
/// be): grey copied to each colour, alpha opaque (the type's largest
/// value: 255, 65535, or 1.0 for f32).
static void widenChannels(Image &image, int want) {
  int have = image.channels;
  if (!want || want == have)
    return;
  size_t n = size_t(image.width) * image.height;
  int e = image.elementBytes;
  std::vector<uint8_t> wide(n * want * e);
  uint8_t opaque[4] = {0xff, 0xff};
  if (image.isFloat()) {
    float one = 1.0f;
    std::memcpy(opaque, &one, 4);
  }
  for (size_t p = 0; p < n; ++p) {
    const uint8_t *from = image.pixels.data() + p * have * e;
    uint8_t *to = wide.data() + p * want * e;
    for (int c = 0; c < want; ++c) {
      bool alpha = (want == 2 && c == 1) || c == 3;
      const uint8_t *value = alpha ? opaque : from + (have == 1 ? 0 : c) * e;
      std::memcpy(to + c * e, value, e);
    }
  }
  image.pixels = std::move(wide);
  image.channels = want;
}

/// A PFM file: "PF" (RGB) or "Pf" (grey), the width and height, a scale
/// whose sign gives the byte order (negative: little-endian), each header
/// field followed by one white space, then the rows of f32 values from the
/// bottom row up.
static bool readPfm(const std::string &path, int wantChannels, Image &image,
                    std::string &error) {
  FILE *file = std::fopen(path.c_str(), "rb");
  if (!file) {
    error = path + ": cannot open: " + std::strerror(errno);
    return false;
  }
  std::unique_ptr<FILE, int (*)(FILE *)> closer(file, std::fclose);
  char magic[3] = {0};
  long width = 0, height = 0;
  double scale = 0;
  char space = 0;
  if (std::fread(magic, 1, 2, file) != 2 ||
      (std::strcmp(magic, "PF") != 0 && std::strcmp(magic, "Pf") != 0) ||
      std::fscanf(file, "%ld %ld %lf%c", &width, &height, &scale, &space) !=
          4 ||
      !std::isspace(static_cast<unsigned char>(space)) || scale == 0 ||
      !std::isfinite(scale)) {
    error = path + ": not a PFM file (expected 'PF' or 'Pf', the width and "
                   "height, and a non-zero scale)";
    return false;
  }
  if (!sizeSupported(path, width, height, error))
    return false;
  int fileChannels = magic[1] == 'F' ? 3 : 1;
  if (!canWiden(path, fileChannels, wantChannels, error))
    return false;
  Image raw;
  raw.width = static_cast<int>(width);
  raw.height = static_cast<int>(height);
  raw.channels = fileChannels;
  raw.elementBytes = 4;
  // The file must hold exactly the pixels its header declares: checked
  // before any memory is allocated for them.
  long start = std::ftell(file);
  std::fseek(file, 0, SEEK_END);
  long actual = std::ftell(file) - start;
  std::fseek(file, start, SEEK_SET);
  if (actual < 0 || static_cast<size_t>(actual) != raw.bytes()) {
    error = path + ": holds " + std::to_string(actual) +
            " bytes of pixels, but a " + std::to_string(width) + "x" +
            std::to_string(height) + " " + channelWord(fileChannels) +
            " PFM has " + std::to_string(raw.bytes());
    return false;
  }
  raw.pixels.resize(raw.bytes());
  // Rows bottom-up in the file, top-down in memory.
  size_t rowBytes = size_t(width) * fileChannels * 4;
  for (long y = height - 1; y >= 0; --y)
    if (std::fread(raw.pixels.data() + y * rowBytes, 1, rowBytes, file) !=
        rowBytes) {
      error = path + ": cannot read the pixels";
      return false;
    }
  uint32_t probe = 1;
  bool hostLittle = *reinterpret_cast<uint8_t *>(&probe) == 1;
  if ((scale < 0) != hostLittle)
    for (size_t i = 0; i < raw.pixels.size(); i += 4)
      std::reverse(raw.pixels.begin() + i, raw.pixels.begin() + i + 4);
  widenChannels(raw, wantChannels);
  image = std::move(raw);
  return true;
}

/// A binary PPM/PGM of 16 bits a sample (maximum value above 255), which
/// Debian's stb reads wrongly (its big-endian bytes as host-order values,
/// and its channel widening as bytes): the values as stored, as u16 (or,
/// with `elementBytes` 1, their high bytes), widened as readImage says.
/// Returns false with `error` unless the file is one; `isOne` says whether
/// it is.
static bool readPnm16(const std::string &path, int wantChannels,
                      int elementBytes, Image &image, std::string &error,
                      bool &isOne) {
  isOne = false;
  std::unique_ptr<FILE, int (*)(FILE *)> file(std::fopen(path.c_str(), "rb"),
                                              std::fclose);
  long header[4] = {0, 0, 0, 0}, pixelsAt = 0;
  if (!file || !checkPnmHeader(file.get(), header, &pixelsAt).empty() ||
      header[2] <= 255)
    return false;
  isOne = true;
  auto [width, height, maxValue, fileChannels] =
      std::tuple(header[0], header[1], header[2], int(header[3]));
  if (!sizeSupported(path, width, height, error) ||
      !canWiden(path, fileChannels, wantChannels, error))
    return false;
  size_t samples = size_t(width) * height * fileChannels;
  std::vector<uint8_t> raw(2 * samples);
  std::fseek(file.get(), pixelsAt, SEEK_SET);
  if (std::fread(raw.data(), 1, raw.size(), file.get()) != raw.size()) {
    error = path + ": cannot read the pixels";
    return false;
  }
  image.width = int(width);
  image.height = int(height);
  image.channels = wantChannels ? wantChannels : fileChannels;
  image.elementBytes = elementBytes == 1 ? 1 : 2;
  image.pixels.assign(image.bytes(), 0);
  uint16_t opaque = elementBytes == 1 ? 255 : 65535;
  for (size_t p = 0; p < size_t(width) * height; ++p)
    for (int c = 0; c < image.channels; ++c) {
      bool alpha = (image.channels == 2 && c == 1) || c == 3;
      size_t from = p * fileChannels + (fileChannels == 1 ? 0 : c);
      uint16_t v =
          alpha ? opaque : uint16_t(raw[2 * from] << 8 | raw[2 * from + 1]);
      size_t to = p * image.channels + c;
      if (elementBytes == 1)
        image.pixels[to] = alpha ? 255 : uint8_t(v >> 8);
      else
        std::memcpy(image.pixels.data() + 2 * to, &v, 2);
    }
  return true;
}

/// The first bytes of the file at `path` say PNG or JPEG.
static bool hasSignature(const std::string &path, const char *magic,
                         size_t length) {
  FILE *file = std::fopen(path.c_str(), "rb");
  if (!file)
    return false;
  char head[8] = {};
  size_t got = std::fread(head, 1, length, file);
  std::fclose(file);
  return got == length && std::memcmp(head, magic, length) == 0;
}

/// PNG through libpng, JPEG through libjpeg-turbo; false with `handled`
/// unset for other formats.
static bool readWithCodec(const std::string &path, int wantChannels,
                          Image &image, std::string &error, std::string *note,
                          int elementBytes, bool &handled) {
  bool png = hasSignature(path, "\x89PNG\r\n\x1a\n", 8);
  handled = png || hasSignature(path, "\xff\xd8\xff", 3);
  if (!handled)
    return false;
  bool fileIs16 = false;
  if (!(png ? readPngFile(path, elementBytes, image, fileIs16, error)
            : readJpegFile(path, image, error)))
    return false;
  if (!canWiden(path, image.channels, wantChannels, error))
    return false;
  if (!png && elementBytes == 2) { // Each value times 257.
    std::vector<uint8_t> wide(image.size() * 2);
    for (size_t i = 0; i < image.size(); ++i) {
      uint16_t v = uint16_t(image.pixels[i] * 257);
      std::memcpy(wide.data() + 2 * i, &v, 2);
    }
    image.pixels = std::move(wide);
    image.elementBytes = 2;
  }
  widenChannels(image, wantChannels);
  if (note && fileIs16 && image.elementBytes == 1)
    *note = path + ": a 16-bit image, read as 8 bits a channel (the high "
                   "byte of each value) for a u8 image";
  if (note && !fileIs16 && elementBytes == 2)
    *note = path + ": an 8-bit image, read as 16 bits a channel (each value "
                   "times 257) for a u16 image";
  return true;
}

bool arvrc::readImage(const std::string &path, int wantChannels, Image &image,
                      std::string &error, std::string *note, int elementBytes) {
  if (isPfmPath(path))
    return readPfm(path, wantChannels, image, error);
  bool pnm16 = false;
  if (readPnm16(path, wantChannels, elementBytes, image, error, pnm16) ||
      pnm16) {
    if (pnm16 && error.empty() && note && elementBytes == 1)
      *note = path + ": a 16-bit image, read as 8 bits a channel (the high "
                     "byte of each value) for a u8 image";
    return error.empty();
  }
  int width = 0, height = 0, fileChannels = 0;
  if (!probeImage(path, width, height, fileChannels, error))
    return false;
  if (!canWiden(path, fileChannels, wantChannels, error))
    return false;
  bool handled = false;
  if (readWithCodec(path, wantChannels, image, error, note, elementBytes,
                    handled))
    return true;
  if (handled)
    return false;
  int loaded = 0;
  // Whether the file is 16-bit: asked only where it matters (a note, or
  // reading the file as it stores its values).
  bool fileIs16 = (note || elementBytes == 0) && stbi_is_16_bit(path.c_str());
  bool sixteen = elementBytes == 2 || (elementBytes == 0 && fileIs16);
  std::unique_ptr<void, void (*)(void *)> data(
      sixteen ? static_cast<void *>(stbi_load_16(path.c_str(), &width, &height,
                                                 &loaded, wantChannels))
              : static_cast<void *>(stbi_load(path.c_str(), &width, &height,
                                              &loaded, wantChannels)),
      stbi_image_free);
  if (!data) {
    error = path + ": cannot decode (" + stbi_failure_reason() + ")";
    return false;
  }
  image.width = width;
  image.height = height;
  image.channels = wantChannels ? wantChannels : loaded;
  image.elementBytes = sixteen ? 2 : 1;
  const auto *bytes = static_cast<const uint8_t *>(data.get());
  image.pixels.assign(bytes, bytes + image.bytes());
  if (note && fileIs16 && !sixteen)
    *note = path + ": a 16-bit image, read as 8 bits a channel (the high "
                   "byte of each value) for a u8 image";
  if (note && !fileIs16 && elementBytes == 2)
    *note = path + ": an 8-bit image, read as 16 bits a channel (each value "
                   "times 257) for a u16 image";
  return true;
}

double Image::valueAt(size_t i) const {
  if (isFloat())
    return floatAt(i);
  if (isU16()) {
    uint16_t v;
    std::memcpy(&v, pixels.data() + 2 * i, 2);
    return v;
  }
  return pixels[i];
}

/// "WxH" -> width, height in [1, kMaxImageSide].
static bool parseSize(const std::string &text, int &width, int &height) {
  char extra = 0;
  return std::sscanf(text.c_str(), "%dx%d%c", &width, &height, &extra) == 2 &&
         width >= 1 && height >= 1 && width <= kMaxImageSide &&
         height <= kMaxImageSide;
}

bool arvrc::nv12FrameSize(const std::string &path, const std::string &size,
                          int &width, int &height, std::string &error) {
  if (!size.empty()) {
    if (!parseSize(size, width, height)) {
      error = "--frame-size " + size + " is not WxH (1 to " +
              std::to_string(kMaxImageSide) + " a side)";
      return false;
    }
  } else {
    // The last "_WxH" before the extension.
    std::string name = path.substr(path.find_last_of('/') + 1);
    size_t dot = name.find_last_of('.');
    size_t underscore = name.find_last_of('_', dot);
    if (underscore == std::string::npos || dot == std::string::npos ||
        !parseSize(name.substr(underscore + 1, dot - underscore - 1), width,
                   height)) {
      error = path + ": the size of a raw NV12 frame is not in its name "
                     "(name_WxH.nv12); give it with --frame-size WxH";
      return false;
    }
  }
  return true;
}

int64_t arvrc::nv12FramesIn(const std::string &path, int width, int height) {
  FILE *file = std::fopen(path.c_str(), "rb");
  if (!file)
    return -1;
  std::fseek(file, 0, SEEK_END);
  long bytes = std::ftell(file);
  std::fclose(file);
  int64_t frame = int64_t(width) * height +
                  int64_t(2) * ((width + 1) / 2) * ((height + 1) / 2);
  return bytes >= 0 && bytes % frame == 0 ? bytes / frame : -1;
}

bool arvrc::readNv12(const std::string &path, const std::string &size,
                     Image &luma, Image &chroma, std::string &error) {
  int width = 0, height = 0;
  if (!nv12FrameSize(path, size, width, height, error))
    return false;
  luma.width = width;
  luma.height = height;
  luma.channels = 1;
  chroma.width = (width + 1) / 2;
  chroma.height = (height + 1) / 2;
  chroma.channels = 2;
  size_t expected = luma.size() + chroma.size();

  FILE *file = std::fopen(path.c_str(), "rb");
  if (!file) {
    error = path + ": cannot open: " + std::strerror(errno);
    return false;
  }
  std::fseek(file, 0, SEEK_END);
  long actual = std::ftell(file);
  std::fseek(file, 0, SEEK_SET);
  if (actual < 0 || static_cast<size_t>(actual) != expected) {
    std::fclose(file);
    error = path + ": holds " + std::to_string(actual) + " bytes, but a " +
            std::to_string(width) + "x" + std::to_string(height) +
            " NV12 frame has " + std::to_string(expected);
    return false;
  }
  luma.pixels.resize(luma.size());
  chroma.pixels.resize(chroma.size());
  bool ok =
      std::fread(luma.pixels.data(), 1, luma.size(), file) == luma.size() &&
      std::fread(chroma.pixels.data(), 1, chroma.size(), file) == chroma.size();
  std::fclose(file);
  if (!ok)
    error = path + ": cannot read the frame";
  return ok;
}

/// Binary PPM (P6) or PGM (P5), 8 or 16 bits (big-endian, maximum value
/// 65535) a sample; stb does not write these.
static bool writePNM(FILE *file, const Image &image) {
  if (image.channels != 1 && image.channels != 3)
    return false;
  std::fprintf(file, "P%d\n%d %d\n%d\n", image.channels == 1 ? 5 : 6,
               image.width, image.height, image.isU16() ? 65535 : 255);
  if (!image.isU16())
    return std::fwrite(image.pixels.data(), 1, image.size(), file) ==
           image.size();
  std::vector<uint8_t> big(image.bytes());
  for (size_t i = 0; i < image.size(); ++i) {
    auto v = static_cast<uint16_t>(image.valueAt(i));
    big[2 * i] = uint8_t(v >> 8);
    big[2 * i + 1] = uint8_t(v & 0xff);
  }
  return std::fwrite(big.data(), 1, big.size(), file) == big.size();
}

/// A PNG of 8 or 16 bits a sample, through libpng, deflated at `level`
/// (0 none; 1, the fastest, with run-length matching and the sub filter,
/// as OpenCV's default: a 4K photo is written about as fast as OpenCV
/// writes it, and no bigger; 2 to 9 libpng's usual search, smaller and
/// slower).
static bool writePng(FILE *file, const Image &image, int level) {
  png_structp png =
      png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  if (!png)
    return false;
  png_infop info = png_create_info_struct(png);
  // libpng reports errors by longjmp: nothing with a destructor lives
  // between here and there.
  if (!info || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return false;
  }
  static const int types[] = {PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA,
                              PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA};
  png_init_io(png, file);
  png_set_compression_level(png, level);
  if (level <= 1) {
    // The fast path (as OpenCV's default): run-length matching only.
    png_set_compression_strategy(png, Z_RLE);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
  }
  int bits = image.isU16() ? 16 : 8;
  png_set_IHDR(png, info, image.width, image.height, bits,
               types[image.channels - 1], PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  uint16_t probe = 1;
  if (bits == 16 && *reinterpret_cast<uint8_t *>(&probe) == 1)
    png_set_swap(png); // PNG samples are big-endian
  size_t rowBytes = size_t(image.width) * image.channels * (bits / 8);
  for (int y = 0; y < image.height; ++y)
    png_write_row(png,
                  const_cast<png_bytep>(image.pixels.data() + y * rowBytes));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return true;
}

/// PFM, little-endian (scale -1), rows from the bottom up.
static bool writePfm(FILE *file, const Image &image) {
  std::fprintf(file, "%s\n%d %d\n-1.0\n", image.channels == 3 ? "PF" : "Pf",
               image.width, image.height);
  size_t rowBytes = size_t(image.width) * image.channels * 4;
  uint32_t probe = 1;
  bool hostLittle = *reinterpret_cast<uint8_t *>(&probe) == 1;
  std::vector<uint8_t> row(rowBytes);
  for (int y = image.height - 1; y >= 0; --y) {
    std::memcpy(row.data(), image.pixels.data() + y * rowBytes, rowBytes);
    if (!hostLittle)
      for (size_t i = 0; i < rowBytes; i += 4)
        std::reverse(row.begin() + i, row.begin() + i + 4);
    if (std::fwrite(row.data(), 1, rowBytes, file) != rowBytes)
      return false;
  }
  return true;
}

static void writeToFile(void *context, void *data, int size) {
  auto *file = static_cast<FILE *>(context);
  std::fwrite(data, 1, size, file);
}

bool arvrc::checkOutputPath(const std::string &path, int elementBytes,
                            int channels, std::string &error) {
  std::string ext = lowerExtension(path);
  bool known = ext == "png" || ext == "jpg" || ext == "jpeg" || ext == "bmp" ||
               ext == "ppm" || ext == "pgm" || ext == "pfm";
  if (!known) {
    error = path + ": unknown output format '" + ext +
            "'; use .png, .jpg, .bmp, .ppm, .pgm, or .pfm for f32 images";
    return false;
  }
  bool isFloat = elementBytes == 4;
  if (elementBytes == 2 && ext != "png" && ext != "ppm" && ext != "pgm") {
    error = path + ": this output is u16; write it as .png, .ppm or .pgm (16 "
                   "bits a channel)";
    return false;
  }
  if (isFloat != (ext == "pfm")) {
    error =
        path + (isFloat ? ": this output is f32; write it as .pfm"
                        : ": .pfm holds f32 images, but this output is " +
                              std::string(elementBytes == 2 ? "u16" : "u8") +
                              "; use .png, .ppm or .pgm" +
                              (elementBytes == 2 ? "" : ", .jpg or .bmp"));
    return false;
  }
  if ((ext == "jpg" || ext == "jpeg") && (channels == 2 || channels == 4)) {
    error = path + ": JPEG has no alpha channel, but this output has " +
            std::to_string(channels) +
            " channels (the last one alpha); write it as .png";
    return false;
  }
  if ((ext == "ppm" && channels != 3) || (ext == "pgm" && channels != 1) ||
      (ext == "pfm" && channels != 1 && channels != 3)) {
    error = path + ": ." + ext + " holds " +
            (ext == "ppm"   ? "3-channel"
             : ext == "pgm" ? "1-channel"
                            : "1- or 3-channel") +
            " images, but this one has " + std::to_string(channels) +
            " channels";
    return false;
  }
  return true;
}

bool arvrc::writeImage(const std::string &path, const Image &image,
                       std::string &error, int pngLevel, int jpegQuality) {
  if (!checkOutputPath(path, image.elementBytes, image.channels, error))
    return false;
  std::string ext = lowerExtension(path);
  // Write beside the target, then rename: never a half-written output.
  std::string temporary = path + ".arvrc-tmp";
  FILE *file = std::fopen(temporary.c_str(), "wb");
  if (!file) {
    error = path + ": cannot write: " + std::strerror(errno);
    return false;
  }
  bool ok;
  if (ext == "png")
    ok = writePng(file, image, pngLevel);
  else if (ext == "jpg" || ext == "jpeg")
    ok = writeJpegFile(file, image, jpegQuality);
  else if (ext == "bmp")
    ok = stbi_write_bmp_to_func(writeToFile, file, image.width, image.height,
                                image.channels, image.pixels.data());
  else if (ext == "pfm")
    ok = writePfm(file, image);
  else
    ok = writePNM(file, image);
  ok = !std::ferror(file) && ok;
  ok = std::fclose(file) == 0 && ok;
  if (!ok) {
    error = path + ": writing failed: " + std::strerror(errno);
    unlink(temporary.c_str());
    return false;
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    error = path + ": cannot write: " + std::strerror(errno);
    unlink(temporary.c_str());
    return false;
  }
  return true;
}
