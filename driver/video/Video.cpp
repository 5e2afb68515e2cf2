//===- Video.cpp - libarvr_video.so: video files through FFmpeg -----------===//
//
// Decodes a video stream (libavformat, libavcodec) into frames of the type a
// kernel's parameter asks for, converted by libswscale (yuv420p to NV12 is
// an interleave of the chroma, never through RGB; YUV to RGB by the
// stream's own colour matrix and range), and encodes frames into H.264 (or
// MPEG-4 part 2 where libavcodec has no H.264 encoder), y4m or raw NV12. A
// written file is a temporary one until finish() renames it into place.
// FFmpeg's own log is kept quiet; its last error message joins ours.
//
//===----------------------------------------------------------------------===//

#include "arvr_video.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <unistd.h>

namespace {

/// FFmpeg's last message of error level, per thread (readers and writers
/// run on different threads).
thread_local std::string lastLogError;

void logCallback(void *, int level, const char *format, va_list args) {
  if (level > AV_LOG_ERROR)
    return;
  char text[512];
  std::vsnprintf(text, sizeof(text), format, args);
  std::string message = text;
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ' ||
                              message.back() == '.'))
    message.pop_back();
  if (!message.empty())
    lastLogError = message;
}

void setUp() {
  static std::once_flag once;
  std::call_once(once, [] { av_log_set_callback(logCallback); });
}

void setError(char *error, size_t size, const std::string &message) {
  if (size)
    std::snprintf(error, size, "%s", message.c_str());
}

/// "Invalid data found when processing input (moov atom not found)".
std::string describe(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {0};
  av_strerror(code, text, sizeof(text));
  std::string message = text;
  if (!lastLogError.empty() && lastLogError != message)
    message += " (" + lastLogError + ")";
  lastLogError.clear();
  return message;
}

AVPixelFormat pixelFormatOf(int format) {
  switch (format) {
  case ARVR_VIDEO_GRAY8:
    return AV_PIX_FMT_GRAY8;
  case ARVR_VIDEO_RGB24:
    return AV_PIX_FMT_RGB24;
  case ARVR_VIDEO_RGBA:
    return AV_PIX_FMT_RGBA;
  case ARVR_VIDEO_GRAY16:
    return AV_PIX_FMT_GRAY16;
  case ARVR_VIDEO_RGB48:
    return AV_PIX_FMT_RGB48;
  case ARVR_VIDEO_RGBA64:
    return AV_PIX_FMT_RGBA64;
  case ARVR_VIDEO_NV12:
    return AV_PIX_FMT_NV12;
  default:
    return AV_PIX_FMT_NONE;
  }
}

/// Plane pointers and strides of a packed frame in `format` (or an NV12
/// frame's two planes), rows unpadded.
void planesOf(int format, int width, uint8_t *plane0, uint8_t *plane1,
              uint8_t *data[4], int linesize[4]) {
  data[0] = plane0;
  data[1] = data[2] = data[3] = nullptr;
  linesize[1] = linesize[2] = linesize[3] = 0;
  if (format == ARVR_VIDEO_NV12) {
    linesize[0] = width;
    data[1] = plane1;
    linesize[1] = 2 * ((width + 1) / 2);
    return;
  }
  int bytes = format == ARVR_VIDEO_GRAY8    ? 1
              : format == ARVR_VIDEO_RGB24  ? 3
              : format == ARVR_VIDEO_RGBA   ? 4
              : format == ARVR_VIDEO_GRAY16 ? 2
              : format == ARVR_VIDEO_RGB48  ? 6
                                            : 8;
  linesize[0] = width * bytes;
}

bool isYuv(AVPixelFormat format) {
  const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(format);
  return d && !(d->flags & AV_PIX_FMT_FLAG_RGB) && d->nb_components >= 3;
}

/// A converter from `from` to `to` at one size, with YUV's matrix and range
/// as tagged (BT.601 limited range when untagged).
/// `flags`: libswscale's; decoding takes its fast YUV to RGB (SIMD, as
/// OpenCV's capture does: 0.7 ms a 1080p frame here against 7 for the
/// exactly rounded, interpolated chroma).
SwsContext *converter(SwsContext *old, int width, int height,
                      AVPixelFormat from, AVPixelFormat to, AVColorSpace space,
                      AVColorRange range, int flags) {
  SwsContext *sws =
      sws_getCachedContext(old, width, height, from, width, height, to, flags,
                           nullptr, nullptr, nullptr);
  if (!sws)
    return nullptr;
  int matrix = space == AVCOL_SPC_BT709 ? SWS_CS_ITU709
               : space == AVCOL_SPC_BT2020_NCL || space == AVCOL_SPC_BT2020_CL
                   ? SWS_CS_BT2020
                   : SWS_CS_ITU601;
  int full = range == AVCOL_RANGE_JPEG ? 1 : 0;
  const int *table = sws_getCoefficients(matrix);
  // Only the YUV side's range matters; RGB is always full range.
  int srcRange = isYuv(from) ? full : 1, dstRange = isYuv(to) ? full : 1;
  sws_setColorspaceDetails(sws, table, srcRange, table, dstRange, 0, 1 << 16,
                           1 << 16);
  return sws;
}

} // namespace

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

struct arvr_video_reader {
  std::string path;
  AVFormatContext *format = nullptr;
  AVCodecContext *decoder = nullptr;
  AVPacket *packet = nullptr;
  AVFrame *frame = nullptr;
  SwsContext *sws = nullptr;
  int stream = -1;
  int want = 0;
  double start = 0;
  arvr_video_info info{};
  bool flushed = false, ended = false;
  int64_t delivered = 0;
  /// Whether the container's frame count was exact (read from the start).
  bool countIsExact = false;

  ~arvr_video_reader() {
    sws_freeContext(sws);
    av_frame_free(&frame);
    av_packet_free(&packet);
    avcodec_free_context(&decoder);
    avformat_close_input(&format);
  }
  bool open(int rawWidth, int rawHeight, double rawFps, std::string &error);
  /// 1: a decoded frame in `frame`; 0: the end; -1: error.
  int decodeNext(std::string &error);
  int read(uint8_t *plane0, uint8_t *plane1, std::string &error);
};

bool arvr_video_reader::open(int rawWidth, int rawHeight, double rawFps,
                             std::string &error) {
  AVDictionary *options = nullptr;
  const AVInputFormat *forced = nullptr;
  if (rawWidth > 0) {
    forced = av_find_input_format("rawvideo");
    std::string size =
        std::to_string(rawWidth) + "x" + std::to_string(rawHeight);
    av_dict_set(&options, "video_size", size.c_str(), 0);
    av_dict_set(&options, "pixel_format", "nv12", 0);
    av_dict_set(&options, "framerate", std::to_string(rawFps).c_str(), 0);
  }
  int code = avformat_open_input(&format, path.c_str(), forced, &options);
  av_dict_free(&options);
  if (code < 0) {
    error = "cannot read this video: " + describe(code);
    return false;
  }
  if ((code = avformat_find_stream_info(format, nullptr)) < 0) {
    error = "cannot read this video: " + describe(code);
    return false;
  }
  // The stream first, then its decoder (FFmpeg's search for both fails
  // alike when there is a video without a decoder).
  stream = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
  if (stream < 0) {
    error = "holds no video stream";
    return false;
  }
  AVStream *video = format->streams[stream];
  const char *name = avcodec_get_name(video->codecpar->codec_id);
  const AVCodec *codec = avcodec_find_decoder(video->codecpar->codec_id);
  if (!codec) {
    error = std::string("its video is ") + name +
            ", which this FFmpeg cannot decode";
    return false;
  }
  decoder = avcodec_alloc_context3(codec);
  packet = av_packet_alloc();
  frame = av_frame_alloc();
  if (!decoder || !packet || !frame) {
    error = "out of memory";
    return false;
  }
  avcodec_parameters_to_context(decoder, video->codecpar);
  decoder->thread_count = 0; // As many as the machine has.
  if ((code = avcodec_open2(decoder, codec, nullptr)) < 0) {
    error =
        std::string("cannot decode its ") + name + " video: " + describe(code);
    return false;
  }
  info.width = video->codecpar->width;
  info.height = video->codecpar->height;
  if (info.width <= 0 || info.height <= 0) {
    error = "its video has no frame size";
    return false;
  }
  AVRational rate = av_guess_frame_rate(format, video, nullptr);
  info.fps = rate.num > 0 && rate.den > 0 ? av_q2d(rate) : 0;
  info.frames = video->nb_frames > 0 ? video->nb_frames : -1;
  if (info.frames < 0 && format->duration > 0 && info.fps > 0)
    info.frames =
        std::llround(format->duration / double(AV_TIME_BASE) * info.fps);
  else
    countIsExact = info.frames > 0;
  if (start > 0) {
    countIsExact = false;
    if (info.frames > 0 && info.fps > 0)
      info.frames =
          std::max<int64_t>(0, info.frames - std::llround(start * info.fps));
    // To the key frame at or before `start`; frames before it are then
    // decoded and dropped (a stream that cannot seek is decoded from its
    // beginning).
    av_seek_frame(format, -1, static_cast<int64_t>(start * AV_TIME_BASE),
                  AVSEEK_FLAG_BACKWARD);
  }
  return true;
}

int arvr_video_reader::decodeNext(std::string &error) {
  while (true) {
    int code = avcodec_receive_frame(decoder, frame);
    if (code == 0)
      return 1;
    if (code == AVERROR_EOF)
      return 0;
    if (code != AVERROR(EAGAIN)) {
      error = "cannot decode frame " + std::to_string(delivered + 1) + ": " +
              describe(code);
      return -1;
    }
    if (flushed)
      return 0;
    code = av_read_frame(format, packet);
    if (code == AVERROR_EOF) {
      flushed = true;
      avcodec_send_packet(decoder, nullptr);
      continue;
    }
    if (code < 0) {
      error = "cannot read past frame " + std::to_string(delivered) +
              " (the file is damaged or ends early): " + describe(code);
      return -1;
    }
    if (packet->stream_index == stream) {
      code = avcodec_send_packet(decoder, packet);
      if (code < 0 && code != AVERROR(EAGAIN)) {
        av_packet_unref(packet);
        error = "cannot decode frame " + std::to_string(delivered + 1) + ": " +
                describe(code);
        return -1;
      }
    }
    av_packet_unref(packet);
  }
}

int arvr_video_reader::read(uint8_t *plane0, uint8_t *plane1,
                            std::string &error) {
  if (ended)
    return 0;
  AVStream *video = format->streams[stream];
  while (true) {
    int got = decodeNext(error);
    if (got <= 0) {
      ended = true;
      // A container that counts its frames, read from the start, must
      // deliver them all: fewer means the file was cut.
      if (got == 0 && countIsExact && delivered < info.frames) {
        error = "the file ends early: " + std::to_string(delivered) +
                " of its " + std::to_string(info.frames) + " frames decoded";
        return -1;
      }
      return got;
    }
    if (start > 0) {
      int64_t pts = frame->best_effort_timestamp;
      double halfFrame = info.fps > 0 ? 0.5 / info.fps : 0;
      if (pts != AV_NOPTS_VALUE &&
          pts * av_q2d(video->time_base) < start - halfFrame) {
        av_frame_unref(frame);
        continue;
      }
    }
    break;
  }
  if (frame->width != info.width || frame->height != info.height) {
    error = "frame " + std::to_string(delivered + 1) + " is " +
            std::to_string(frame->width) + "x" + std::to_string(frame->height) +
            ", but the first was " + std::to_string(info.width) + "x" +
            std::to_string(info.height) +
            " (frames of a video must keep one size)";
    av_frame_unref(frame);
    return -1;
  }
  AVPixelFormat from = static_cast<AVPixelFormat>(frame->format);
  uint8_t *data[4];
  int linesize[4];
  planesOf(want, info.width, plane0, plane1, data, linesize);
  if (want == ARVR_VIDEO_NV12 &&
      (from == AV_PIX_FMT_YUV420P || from == AV_PIX_FMT_YUVJ420P)) {
    // The chroma planes interleaved, as they are.
    int cw = (info.width + 1) / 2, ch = (info.height + 1) / 2;
    av_image_copy_plane(data[0], linesize[0], frame->data[0],
                        frame->linesize[0], info.width, info.height);
    for (int y = 0; y < ch; ++y) {
      const uint8_t *u = frame->data[1] + y * frame->linesize[1];
      const uint8_t *v = frame->data[2] + y * frame->linesize[2];
      uint8_t *uv = data[1] + y * linesize[1];
      for (int x = 0; x < cw; ++x) {
        uv[2 * x] = u[x];
        uv[2 * x + 1] = v[x];
      }
    }
    av_frame_unref(frame);
    ++delivered;
    return 1;
  }
  if (from == pixelFormatOf(want)) {
    av_image_copy(data, linesize, const_cast<const uint8_t **>(frame->data),
                  frame->linesize, from, info.width, info.height);
    av_frame_unref(frame);
    ++delivered;
    return 1;
  }
  sws = converter(sws, info.width, info.height, from, pixelFormatOf(want),
                  frame->colorspace, frame->color_range, SWS_BILINEAR);
  if (!sws) {
    error = std::string("cannot convert its frames (") +
            (av_get_pix_fmt_name(from) ? av_get_pix_fmt_name(from) : "?") +
            ") to the kernel's frame type";
    av_frame_unref(frame);
    return -1;
  }
  sws_scale(sws, frame->data, frame->linesize, 0, info.height, data, linesize);
  av_frame_unref(frame);
  ++delivered;
  return 1;
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

struct arvr_video_writer {
  std::string path, temporary, description;
  AVFormatContext *format = nullptr;
  AVCodecContext *encoder = nullptr;
  AVStream *stream = nullptr;
  AVFrame *frame = nullptr;
  AVPacket *packet = nullptr;
  SwsContext *sws = nullptr;
  int width = 0, height = 0, given = 0;
  int64_t written = 0;
  bool headerWritten = false, finished = false;

  ~arvr_video_writer() {
    if (format && format->pb)
      avio_closep(&format->pb);
    if (!finished && !temporary.empty())
      unlink(temporary.c_str());
    sws_freeContext(sws);
    av_frame_free(&frame);
    av_packet_free(&packet);
    avcodec_free_context(&encoder);
    avformat_free_context(format);
  }
  bool open(double fps, int crf, std::string &error);
  /// Sends `input` (null: flush) and writes what the encoder gives back.
  bool encode(AVFrame *input, std::string &error);
};

static bool endsWith(const std::string &text, const char *suffix) {
  size_t n = std::strlen(suffix);
  if (text.size() < n)
    return false;
  for (size_t i = 0; i < n; ++i)
    if (std::tolower(static_cast<unsigned char>(text[text.size() - n + i])) !=
        suffix[i])
      return false;
  return true;
}

bool arvr_video_writer::open(double fps, int crf, std::string &error) {
  bool raw = endsWith(path, ".nv12"), y4m = endsWith(path, ".y4m");
  const char *container = raw ? "rawvideo" : y4m ? "yuv4mpegpipe" : nullptr;
  // The format by the path's extension, the file a temporary beside it
  // (the muxer reopens it by that name to move MP4's index first).
  temporary = path + ".partial." + std::to_string(getpid());
  const AVOutputFormat *muxer =
      av_guess_format(container, path.c_str(), nullptr);
  int code = muxer ? avformat_alloc_output_context2(&format, muxer, nullptr,
                                                    temporary.c_str())
                   : -1;
  if (code < 0 || !format) {
    temporary.clear();
    error = "cannot write video in this format (by its extension; .mp4, "
            ".mkv, .mov, .avi, .y4m and .nv12 are)";
    return false;
  }
  const AVCodec *codec = nullptr;
  AVPixelFormat pixels;
  bool grey = given == ARVR_VIDEO_GRAY8 || given == ARVR_VIDEO_GRAY16;
  if (raw || y4m) {
    // y4m's muxer takes frames as they are (wrapped), raw NV12 bytes.
    codec = avcodec_find_encoder(raw ? AV_CODEC_ID_RAWVIDEO
                                     : AV_CODEC_ID_WRAPPED_AVFRAME);
    pixels = raw    ? AV_PIX_FMT_NV12
             : grey ? AV_PIX_FMT_GRAY8
                    : (given == ARVR_VIDEO_NV12 ? AV_PIX_FMT_YUV420P
                                                : AV_PIX_FMT_YUV444P);
  } else {
    codec = avcodec_find_encoder(AV_CODEC_ID_H264);
    if (!codec)
      codec = avcodec_find_encoder(AV_CODEC_ID_MPEG4);
    // 4:2:0 needs an even size; odd frames keep their chroma whole.
    bool even = width % 2 == 0 && height % 2 == 0;
    pixels = even || !codec || codec->id != AV_CODEC_ID_H264
                 ? AV_PIX_FMT_YUV420P
                 : AV_PIX_FMT_YUV444P;
  }
  if (!codec) {
    error = "this FFmpeg has no encoder for it";
    return false;
  }
  if (codec->id == AV_CODEC_ID_MPEG4 && (width % 2 || height % 2)) {
    error = "MPEG-4 part 2 needs an even width and height";
    return false;
  }
  stream = avformat_new_stream(format, nullptr);
  encoder = avcodec_alloc_context3(codec);
  frame = av_frame_alloc();
  packet = av_packet_alloc();
  if (!stream || !encoder || !frame || !packet) {
    error = "out of memory";
    return false;
  }
  AVRational rate = av_d2q(fps > 0 ? fps : 30, 100000);
  encoder->width = width;
  encoder->height = height;
  encoder->pix_fmt = pixels;
  encoder->time_base = av_inv_q(rate);
  encoder->framerate = rate;
  encoder->colorspace = AVCOL_SPC_SMPTE170M;
  encoder->color_range = AVCOL_RANGE_MPEG;
  encoder->thread_count = 0;
  if (format->oformat->flags & AVFMT_GLOBALHEADER)
    encoder->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  AVDictionary *options = nullptr;
  if (codec->id == AV_CODEC_ID_H264) {
    av_dict_set(&options, "preset", "veryfast", 0);
    av_dict_set(&options, "crf", std::to_string(crf).c_str(), 0);
  } else if (codec->id == AV_CODEC_ID_MPEG4) {
    encoder->flags |= AV_CODEC_FLAG_QSCALE;
    encoder->global_quality = FF_QP2LAMBDA * 2;
  }
  code = avcodec_open2(encoder, codec, &options);
  av_dict_free(&options);
  if (code < 0) {
    error = std::string("cannot open the ") + codec->name +
            " encoder: " + describe(code);
    return false;
  }
  avcodec_parameters_from_context(stream->codecpar, encoder);
  stream->time_base = encoder->time_base;
  frame->format = pixels;
  frame->width = width;
  frame->height = height;
  if ((code = av_frame_get_buffer(frame, 0)) < 0) {
    error = "out of memory";
    return false;
  }
  if ((code = avio_open(&format->pb, temporary.c_str(), AVIO_FLAG_WRITE)) < 0) {
    temporary.clear();
    error = "cannot write this file: " + describe(code);
    return false;
  }
  // MP4 and MOV with their index first, so that a player (or arvrc) can
  // start before the end, and a cut file is found out.
  AVDictionary *muxing = nullptr;
  if (!std::strcmp(format->oformat->name, "mp4") ||
      !std::strcmp(format->oformat->name, "mov"))
    av_dict_set(&muxing, "movflags", "+faststart", 0);
  code = avformat_write_header(format, &muxing);
  av_dict_free(&muxing);
  if (code < 0) {
    error = "cannot write this file: " + describe(code);
    return false;
  }
  headerWritten = true;
  std::string layout = av_get_pix_fmt_name(pixels);
  if (raw || y4m)
    description = "raw " + layout + (raw ? " frames" : " frames in y4m");
  else if (codec->id == AV_CODEC_ID_H264)
    description = "H.264 (" + std::string(codec->name) + ", " + layout +
                  ", crf " + std::to_string(crf) + ") in " +
                  format->oformat->name;
  else
    description = "MPEG-4 part 2 (" + layout + ") in " +
                  std::string(format->oformat->name) +
                  "; this FFmpeg has no H.264 encoder";
  return true;
}

bool arvr_video_writer::encode(AVFrame *input, std::string &error) {
  int code = avcodec_send_frame(encoder, input);
  if (code < 0) {
    error = "cannot encode frame " + std::to_string(written + 1) + ": " +
            describe(code);
    return false;
  }
  while (true) {
    code = avcodec_receive_packet(encoder, packet);
    if (code == AVERROR(EAGAIN) || code == AVERROR_EOF)
      return true;
    if (code < 0) {
      error = "cannot encode: " + describe(code);
      return false;
    }
    if (packet->duration == 0)
      packet->duration = 1; // One frame, in the encoder's time base.
    av_packet_rescale_ts(packet, encoder->time_base, stream->time_base);
    packet->stream_index = stream->index;
    code = av_interleaved_write_frame(format, packet);
    if (code < 0) {
      error = "cannot write: " + describe(code);
      return false;
    }
  }
}

//===----------------------------------------------------------------------===//
// The C interface
//===----------------------------------------------------------------------===//

namespace {

arvr_video_reader *openReader(const char *path, int format, int rawWidth,
                              int rawHeight, double rawFps, double start,
                              char *error, size_t errorSize) {
  setUp();
  auto *reader = new arvr_video_reader();
  reader->path = path;
  reader->want = format;
  reader->start = start;
  std::string message;
  if (pixelFormatOf(format) == AV_PIX_FMT_NONE) {
    message = "unknown frame format";
  } else if (reader->open(rawWidth, rawHeight, rawFps > 0 ? rawFps : 30,
                          message)) {
    return reader;
  }
  setError(error, errorSize, message);
  delete reader;
  return nullptr;
}

void readerInfo(const arvr_video_reader *reader, arvr_video_info *info) {
  *info = reader->info;
}

int readFrame(arvr_video_reader *reader, uint8_t *plane0, uint8_t *plane1,
              char *error, size_t errorSize) {
  std::string message;
  int got = reader->read(plane0, plane1, message);
  if (got < 0)
    setError(error, errorSize, message);
  return got;
}

void closeReader(arvr_video_reader *reader) { delete reader; }

arvr_video_writer *openWriter(const char *path, int width, int height,
                              int format, double fps, int crf, char *error,
                              size_t errorSize) {
  setUp();
  auto *writer = new arvr_video_writer();
  writer->path = path;
  writer->width = width;
  writer->height = height;
  writer->given = format;
  std::string message;
  if (pixelFormatOf(format) == AV_PIX_FMT_NONE)
    message = "unknown frame format";
  else if (writer->open(fps, crf, message))
    return writer;
  setError(error, errorSize, message);
  delete writer;
  return nullptr;
}

const char *writerDescription(const arvr_video_writer *writer) {
  return writer->description.c_str();
}

int writeFrame(arvr_video_writer *writer, const uint8_t *plane0,
               const uint8_t *plane1, char *error, size_t errorSize) {
  std::string message;
  AVPixelFormat from = pixelFormatOf(writer->given);
  writer->sws = converter(writer->sws, writer->width, writer->height, from,
                          static_cast<AVPixelFormat>(writer->frame->format),
                          AVCOL_SPC_SMPTE170M, AVCOL_RANGE_MPEG,
                          SWS_BILINEAR | SWS_ACCURATE_RND);
  int code = writer->sws ? av_frame_make_writable(writer->frame) : -1;
  if (code < 0) {
    setError(error, errorSize, "cannot convert the frame for the encoder");
    return -1;
  }
  uint8_t *data[4];
  int linesize[4];
  planesOf(writer->given, writer->width, const_cast<uint8_t *>(plane0),
           const_cast<uint8_t *>(plane1), data, linesize);
  sws_scale(writer->sws, data, linesize, 0, writer->height, writer->frame->data,
            writer->frame->linesize);
  writer->frame->pts = writer->written;
  if (!writer->encode(writer->frame, message)) {
    setError(error, errorSize, message);
    return -1;
  }
  ++writer->written;
  return 0;
}

int finishWriter(arvr_video_writer *writer, char *error, size_t errorSize) {
  std::string message;
  if (!writer->encode(nullptr, message)) {
    setError(error, errorSize, message);
    return -1;
  }
  int code = av_write_trailer(writer->format);
  if (code >= 0)
    code = avio_closep(&writer->format->pb);
  if (code < 0) {
    setError(error, errorSize, "cannot end the file: " + describe(code));
    return -1;
  }
  if (std::rename(writer->temporary.c_str(), writer->path.c_str()) != 0) {
    setError(error, errorSize,
             std::string("cannot rename the written file into place: ") +
                 std::strerror(errno));
    return -1;
  }
  writer->finished = true;
  return 0;
}

void closeWriter(arvr_video_writer *writer) { delete writer; }

const char *versions() {
  static std::string text = [] {
    auto version = [](unsigned v) {
      return std::to_string(AV_VERSION_MAJOR(v)) + "." +
             std::to_string(AV_VERSION_MINOR(v)) + "." +
             std::to_string(AV_VERSION_MICRO(v));
    };
    return "libavformat " + version(avformat_version()) + ", libavcodec " +
           version(avcodec_version()) + ", libswscale " +
           version(swscale_version());
  }();
  return text.c_str();
}

const arvr_video_api kApi = {
    ARVR_VIDEO_API_VERSION,
    openReader,
    readerInfo,
    readFrame,
    closeReader,
    openWriter,
    writerDescription,
    writeFrame,
    finishWriter,
    closeWriter,
    versions,
};

} // namespace

extern "C" __attribute__((visibility("default"))) const arvr_video_api *
arvr_video_get_api(void) {
  return &kApi;
}
