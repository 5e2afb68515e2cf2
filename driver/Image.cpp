//===- Image.cpp - Reading and writing image files ------------------------===//

#include "Image.h"

#define STB_IMAGE_IMPLEMENTATION
#define STBI_FAILURE_USERMSG
#include <stb/stb_image.h>
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <unistd.h>

using namespace arvrc;

static std::string lowerExtension(const std::string &path) {
  size_t dot = path.find_last_of('.');
  size_t slash = path.find_last_of('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
    return "";
  std::string ext = path.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return ext;
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
  int ok = stbi_info_from_file(file, &width, &height, &channels);
  std::fclose(file);
  if (!ok) {
    error = path + ": not a readable image (" + stbi_failure_reason() + ")";
    return false;
  }
  if (width < 1 || height < 1 || width > kMaxImageSide ||
      height > kMaxImageSide) {
    error = path + ": image of " + std::to_string(width) + "x" +
            std::to_string(height) + " is outside the supported 1 to " +
            std::to_string(kMaxImageSide) + " pixels a side";
    return false;
  }
  return true;
}

bool arvrc::readImage(const std::string &path, int wantChannels, Image &image,
                      std::string &error) {
  int width = 0, height = 0, fileChannels = 0;
  if (!probeImage(path, width, height, fileChannels, error))
    return false;
  if (wantChannels && wantChannels != fileChannels) {
    bool widening = (fileChannels == 1 && wantChannels >= 2) ||
                    (fileChannels == 3 && wantChannels == 4);
    if (!widening) {
      error = path + ": has " + std::to_string(fileChannels) + " channel" +
              (fileChannels == 1 ? "" : "s") + " (" +
              channelWord(fileChannels) + "), but " +
              std::to_string(wantChannels) +
              " are needed, and dropping channels would lose data";
      return false;
    }
  }
  int loaded = 0;
  std::unique_ptr<stbi_uc, void (*)(void *)> data(
      stbi_load(path.c_str(), &width, &height, &loaded, wantChannels),
      stbi_image_free);
  if (!data) {
    error = path + ": cannot decode (" + stbi_failure_reason() + ")";
    return false;
  }
  image.width = width;
  image.height = height;
  image.channels = wantChannels ? wantChannels : loaded;
  image.pixels.assign(data.get(), data.get() + image.size());
  return true;
}

/// "WxH" -> width, height in [1, kMaxImageSide].
static bool parseSize(const std::string &text, int &width, int &height) {
  char extra = 0;
  return std::sscanf(text.c_str(), "%dx%d%c", &width, &height, &extra) == 2 &&
         width >= 1 && height >= 1 && width <= kMaxImageSide &&
         height <= kMaxImageSide;
}

bool arvrc::readNv12(const std::string &path, const std::string &size,
                     Image &luma, Image &chroma, std::string &error) {
  int width = 0, height = 0;
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

/// Binary PPM (P6) or PGM (P5); stb does not write these.
static bool writePNM(FILE *file, const Image &image) {
  if (image.channels != 1 && image.channels != 3)
    return false;
  std::fprintf(file, "P%d\n%d %d\n255\n", image.channels == 1 ? 5 : 6,
               image.width, image.height);
  return std::fwrite(image.pixels.data(), 1, image.size(), file) ==
         image.size();
}

static void writeToFile(void *context, void *data, int size) {
  auto *file = static_cast<FILE *>(context);
  std::fwrite(data, 1, size, file);
}

bool arvrc::writeImage(const std::string &path, const Image &image,
                       std::string &error) {
  std::string ext = lowerExtension(path);
  bool known = ext == "png" || ext == "jpg" || ext == "jpeg" || ext == "bmp" ||
               ext == "ppm" || ext == "pgm";
  if (!known) {
    error = path + ": unknown output format '" + ext +
            "'; use .png, .jpg, .bmp, .ppm or .pgm";
    return false;
  }
  if ((ext == "ppm" && image.channels != 3) ||
      (ext == "pgm" && image.channels != 1)) {
    error = path + ": ." + ext + " holds " +
            (ext == "ppm" ? "3-channel" : "1-channel") +
            " images, but this one has " + std::to_string(image.channels) +
            " channels";
    return false;
  }
  // Write beside the target, then rename: never a half-written output.
  std::string temporary = path + ".arvrc-tmp";
  FILE *file = std::fopen(temporary.c_str(), "wb");
  if (!file) {
    error = path + ": cannot write: " + std::strerror(errno);
    return false;
  }
  int stride = image.width * image.channels;
  bool ok;
  if (ext == "png")
    ok = stbi_write_png_to_func(writeToFile, file, image.width, image.height,
                                image.channels, image.pixels.data(), stride);
  else if (ext == "jpg" || ext == "jpeg")
    ok = stbi_write_jpg_to_func(writeToFile, file, image.width, image.height,
                                image.channels, image.pixels.data(), 95);
  else if (ext == "bmp")
    ok = stbi_write_bmp_to_func(writeToFile, file, image.width, image.height,
                                image.channels, image.pixels.data());
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
