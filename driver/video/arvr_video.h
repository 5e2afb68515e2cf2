/*===- arvr_video.h - Video files through FFmpeg's libraries, a C API -----===*
 *
 * The interface of libarvr_video.so, the module through which arvrc reads
 * and writes video: decoding to the frame type a kernel's parameter asks
 * for (NV12 kept NV12, RGB as RGB) and encoding its outputs (H.264, y4m,
 * raw NV12), with FFmpeg's libavformat, libavcodec and libswscale. arvrc
 * loads the module when a run names a video, so that arvrc itself starts
 * where FFmpeg's libraries are missing (the GPU bundle), and says why
 * video cannot be had there. A C interface: the module and arvrc may use
 * different C++ libraries.
 *
 *===----------------------------------------------------------------------===*/

#ifndef ARVR_VIDEO_H
#define ARVR_VIDEO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ARVR_VIDEO_API_VERSION 1

/** Frames in memory: rows without padding, channels interleaved, 16-bit
 *  values in the host's byte order. NV12 is a W x H plane of luma, then a
 *  ceil(W/2) x ceil(H/2) plane of interleaved U, V. */
enum arvr_video_format {
  ARVR_VIDEO_GRAY8 = 1,
  ARVR_VIDEO_RGB24,
  ARVR_VIDEO_RGBA,
  ARVR_VIDEO_GRAY16,
  ARVR_VIDEO_RGB48,
  ARVR_VIDEO_RGBA64,
  ARVR_VIDEO_NV12,
};

typedef struct arvr_video_reader arvr_video_reader;
typedef struct arvr_video_writer arvr_video_writer;

/** What a reader knows before decoding: the frame size, frames a second,
 *  and the number of frames from `start` on (-1 when the container does
 *  not say). */
typedef struct arvr_video_info {
  int width, height;
  double fps;
  int64_t frames;
} arvr_video_info;

typedef struct arvr_video_api {
  int version; /**< ARVR_VIDEO_API_VERSION */
  /** Opens `path` (a container FFmpeg reads, a .y4m, or with `raw_width`
   *  > 0 a raw NV12 stream of that size at `raw_fps`) to decode frames in
   *  `format`, from the first frame at or after `start` seconds. Null with
   *  `error` (naming the file) if it cannot be. */
  arvr_video_reader *(*open_reader)(const char *path, int format, int raw_width,
                                    int raw_height, double raw_fps,
                                    double start, char *error,
                                    size_t error_size);
  void (*reader_info)(const arvr_video_reader *reader, arvr_video_info *info);
  /** The next frame into `plane0` (and an NV12 frame's chroma into
   *  `plane1`): 1; 0 at the end of the stream; -1 with `error`. */
  int (*read)(arvr_video_reader *reader, uint8_t *plane0, uint8_t *plane1,
              char *error, size_t error_size);
  void (*close_reader)(arvr_video_reader *reader);

  /** Opens `path` to encode frames of `format` by the container its
   *  extension names: .mp4, .mkv, .mov, .avi (H.264, or MPEG-4 part 2
   *  where FFmpeg has no H.264 encoder), .y4m (raw YUV), .nv12 (raw NV12
   *  frames). Written to a temporary file, renamed by finish(). `crf` is
   *  H.264's constant rate factor (0 lossless, 51 worst). */
  arvr_video_writer *(*open_writer)(const char *path, int width, int height,
                                    int format, double fps, int crf,
                                    char *error, size_t error_size);
  /** "H.264 (libx264, yuv420p, crf 18) in mp4". */
  const char *(*writer_description)(const arvr_video_writer *writer);
  int (*write)(arvr_video_writer *writer, const uint8_t *plane0,
               const uint8_t *plane1, char *error, size_t error_size);
  /** Flushes the encoder, ends the file and renames it into place: 0, or
   *  -1 with `error`. */
  int (*finish)(arvr_video_writer *writer, char *error, size_t error_size);
  /** Frees the writer; an unfinished one's temporary file is removed. */
  void (*close_writer)(arvr_video_writer *writer);
  /** "libavformat 59.27.100, libavcodec 59.37.100, libswscale 6.7.100". */
  const char *(*versions)(void);
} arvr_video_api;

/** The module's one exported symbol. */
const arvr_video_api *arvr_video_get_api(void);

#ifdef __cplusplus
}
#endif

#endif /* ARVR_VIDEO_H */
