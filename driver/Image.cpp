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

bool arvrc::probeImage(const std::string &path, int &width, int &height,
                       int &channels, std::string &error) {
  FILE *file = std::fopen(path.c_str(), "rb");
  if (!file) {
    error = path + ": cannot open: " + std::strerror(errno);
    return false;
  }
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
