//===- Video.cpp - Video files for arvrc run ------------------------------===//
//
// Loads libarvr_video.so (dlopen) from the lib/arvrc folder beside arvrc's
// bin/ and wraps its C interface for the frame loop.
//
//===----------------------------------------------------------------------===//

#include "Video.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <dlfcn.h>
#include <mutex>
#include <unistd.h>

using namespace arvrc;

bool arvrc::isVideoPath(const std::string &path) {
  std::string ext = lowerExtension(path);
  return ext == "mp4" || ext == "mkv" || ext == "mov" || ext == "avi" ||
         ext == "webm" || ext == "m4v" || ext == "y4m";
}

bool arvrc::isVideoOutputPath(const std::string &path) {
  std::string ext = lowerExtension(path);
  return (isVideoPath(path) && ext != "webm" && ext != "m4v") || ext == "nv12";
}

/// The folder of the running executable.
static std::string executableFolder() {
  char buffer[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buffer, sizeof(buffer) - 1);
  if (n <= 0)
    return ".";
  std::string path(buffer, static_cast<size_t>(n));
  return path.substr(0, path.find_last_of('/'));
}

const arvr_video_api *arvrc::videoApi(std::string &error) {
  static std::once_flag once;
  static const arvr_video_api *api = nullptr;
  static std::string why;
  std::call_once(once, [] {
    std::string module = executableFolder() + "/../lib/arvrc/libarvr_video.so";
    void *handle = dlopen(module.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char *reason = dlerror();
      why = "video needs arvrc's module " + module +
            " and FFmpeg's libraries (libavformat 59, libavcodec 59, "
            "libswscale 6; Debian's libavformat59, libavcodec59, "
            "libswscale6), which cannot be loaded here: " +
            (reason ? reason : "unknown reason") +
            " (README: Video, for a machine without them)";
      return;
    }
    auto get = reinterpret_cast<const arvr_video_api *(*)()>(
        dlsym(handle, "arvr_video_get_api"));
    const arvr_video_api *found = get ? get() : nullptr;
    if (!found || found->version != ARVR_VIDEO_API_VERSION) {
      why = module + " is not this arvrc's video module";
      return;
    }
    api = found;
  });
  if (!api)
    error = why;
  return api;
}

static int formatOf(VideoFrameType type) {
  if (type.nv12)
    return ARVR_VIDEO_NV12;
  bool wide = type.elementBytes == 2;
  switch (type.channels) {
  case 1:
    return wide ? ARVR_VIDEO_GRAY16 : ARVR_VIDEO_GRAY8;
  case 3:
    return wide ? ARVR_VIDEO_RGB48 : ARVR_VIDEO_RGB24;
  case 4:
    return wide ? ARVR_VIDEO_RGBA64 : ARVR_VIDEO_RGBA;
  default:
    return 0;
  }
}

std::unique_ptr<VideoReader> VideoReader::open(const std::string &path,
                                               VideoFrameType type,
                                               int rawWidth, int rawHeight,
                                               double rawFps, double start,
                                               std::string &error) {
  std::unique_ptr<VideoReader> result(new VideoReader());
  if (!(result->api = videoApi(error)))
    return nullptr;
  if (!formatOf(type)) {
    error = path + ": video frames are decoded to 1, 3 or 4 channels, not " +
            std::to_string(type.channels);
    return nullptr;
  }
  char message[1024] = {0};
  result->reader = result->api->open_reader(path.c_str(), formatOf(type),
                                            rawWidth, rawHeight, rawFps, start,
                                            message, sizeof(message));
  if (!result->reader) {
    error = path + ": " + message;
    return nullptr;
  }
  result->api->reader_info(result->reader, &result->details);
  result->type = type;
  result->path = path;
  return result;
}

VideoReader::~VideoReader() {
  if (reader)
    api->close_reader(reader);
}

bool VideoReader::read(Image &image, Image *chroma, std::string &error) {
  int w = details.width, h = details.height;
  image.width = w;
  image.height = h;
  image.channels = type.nv12 ? 1 : type.channels;
  image.elementBytes = type.nv12 ? 1 : type.elementBytes;
  image.pixels.resize(image.bytes());
  if (chroma) {
    chroma->width = (w + 1) / 2;
    chroma->height = (h + 1) / 2;
    chroma->channels = 2;
    chroma->elementBytes = 1;
    chroma->pixels.resize(chroma->bytes());
  }
  char message[1024] = {0};
  int got = api->read(reader, image.pixels.data(),
                      chroma ? chroma->pixels.data() : nullptr, message,
                      sizeof(message));
  if (got < 0)
    error = path + ": " + message;
  ended = got == 0;
  return got > 0;
}

bool VideoReader::hasMore() {
  if (ended)
    return false;
  Image image, chroma;
  std::string error;
  return read(image, type.nv12 ? &chroma : nullptr, error);
}

std::unique_ptr<VideoWriter> VideoWriter::open(const std::string &path,
                                               const Image &first, double fps,
                                               int crf, std::string &error) {
  std::unique_ptr<VideoWriter> result(new VideoWriter());
  if (!(result->api = videoApi(error)))
    return nullptr;
  if (first.elementBytes != 1 ||
      (first.channels != 1 && first.channels != 3 && first.channels != 4)) {
    error = path +
            ": video holds 8-bit grey, RGB or RGBA frames, but this "
            "output is " +
            std::string(first.isFloat() ? "f32"
                        : first.isU16() ? "u16"
                                        : "u8") +
            " with " + std::to_string(first.channels) + " channel" +
            (first.channels == 1 ? "" : "s") +
            "; write it to a folder of "
            "images";
    return nullptr;
  }
  VideoFrameType type;
  type.channels = first.channels;
  char message[1024] = {0};
  result->writer = result->api->open_writer(path.c_str(), first.width,
                                            first.height, formatOf(type), fps,
                                            crf, message, sizeof(message));
  if (!result->writer) {
    error = path + ": " + message;
    return nullptr;
  }
  result->path = path;
  result->width = first.width;
  result->height = first.height;
  result->channels = first.channels;
  return result;
}

VideoWriter::~VideoWriter() {
  if (writer)
    api->close_writer(writer);
}

bool VideoWriter::write(const Image &image, std::string &error) {
  if (image.width != width || image.height != height ||
      image.channels != channels) {
    error = path + ": frame " + std::to_string(frames + 1) + "'s output is " +
            std::to_string(image.width) + "x" + std::to_string(image.height) +
            ", but the video's frames are " + std::to_string(width) + "x" +
            std::to_string(height) + " (a video keeps one size)";
    return false;
  }
  char message[1024] = {0};
  if (api->write(writer, image.pixels.data(), nullptr, message,
                 sizeof(message)) != 0) {
    error = path + ": " + message;
    return false;
  }
  ++frames;
  return true;
}

bool VideoWriter::finish(std::string &error) {
  char message[1024] = {0};
  if (api->finish(writer, message, sizeof(message)) != 0) {
    error = path + ": " + message;
    return false;
  }
  return true;
}

std::string VideoWriter::describe() const {
  return api->writer_description(writer);
}
