//===- Video.h - Video files for arvrc run ----------------------*- C++ -*-===//
//
// Reading a video's frames into images of a kernel's parameter type and
// writing a kernel's outputs as a video, through libarvr_video.so (FFmpeg's
// libraries; driver/video/arvr_video.h), loaded on first use from arvrc's
// lib/arvrc folder.
//
//===----------------------------------------------------------------------===//

#ifndef ARVRC_DRIVER_VIDEO_H
#define ARVRC_DRIVER_VIDEO_H

#include "Image.h"
#include "video/arvr_video.h"

#include <memory>
#include <string>

namespace arvrc {

/// Whether `path` names a video container or stream by its extension
/// (.mp4, .mkv, .mov, .avi, .webm, .m4v, .y4m).
bool isVideoPath(const std::string &path);

/// Whether an output at `path` is written as a video: a container above,
/// or .nv12 (raw NV12 frames).
bool isVideoOutputPath(const std::string &path);

/// The video module's interface, loaded once; null with `error` (why it
/// cannot be loaded, and what to install) if it cannot.
const arvr_video_api *videoApi(std::string &error);

/// What a reader decodes to: u8 grey, RGB or RGBA (`channels` 1, 3, 4),
/// u16 the same (`elementBytes` 2), or NV12 (`nv12`).
struct VideoFrameType {
  int channels = 3;
  int elementBytes = 1;
  bool nv12 = false;
};

class VideoReader {
public:
  /// Opens `path` from `start` seconds; a raw NV12 stream when
  /// `rawWidth` > 0 (at `rawFps`). Null with `error`, naming the file.
  static std::unique_ptr<VideoReader> open(const std::string &path,
                                           VideoFrameType type, int rawWidth,
                                           int rawHeight, double rawFps,
                                           double start, std::string &error);
  ~VideoReader();
  const arvr_video_info &info() const { return details; }
  /// The next frame into `image` (an NV12 frame's luma; its chroma into
  /// `chroma`): true; false at the end (`error` empty) or on an error
  /// (`error` set, naming the file).
  bool read(Image &image, Image *chroma, std::string &error);
  /// Whether read() found the end of the stream.
  bool atEnd() const { return ended; }
  /// Whether a frame is left (one is read, and dropped, to know).
  bool hasMore();

private:
  VideoReader() = default;
  bool ended = false;
  const arvr_video_api *api = nullptr;
  arvr_video_reader *reader = nullptr;
  arvr_video_info details{};
  VideoFrameType type;
  std::string path;
};

class VideoWriter {
public:
  /// Opens `path` for frames like `first` (u8, 1, 3 or 4 channels) at
  /// `fps`; null with `error`, naming the file.
  static std::unique_ptr<VideoWriter> open(const std::string &path,
                                           const Image &first, double fps,
                                           int crf, std::string &error);
  /// Frees the writer; unless finished, nothing is left at its path.
  ~VideoWriter();
  bool write(const Image &image, std::string &error);
  /// Flushes, ends and renames the file into place.
  bool finish(std::string &error);
  /// "H.264 (libx264, yuv420p, crf 18) in mp4".
  std::string describe() const;
  int64_t getFrames() const { return frames; }

private:
  VideoWriter() = default;
  const arvr_video_api *api = nullptr;
  arvr_video_writer *writer = nullptr;
  std::string path;
  int width = 0, height = 0, channels = 0;
  int64_t frames = 0;
};

} // namespace arvrc

#endif // ARVRC_DRIVER_VIDEO_H
