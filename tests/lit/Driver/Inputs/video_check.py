"""Checks of video files for the video tests, by OpenCV (its own FFmpeg).

video_check.py count VIDEO N W H: OpenCV decodes N frames of W x H.
video_check.py close VIDEO FOLDER MEAN: the frames OpenCV decodes are
  within MEAN (mean absolute difference) of FOLDER's PNGs, in name order,
  which are as many (arvrc's decoding agrees with OpenCV's but for
  rounding and chroma interpolation).
video_check.py psnr FOLDER_A FOLDER_B DB: each pair of PNGs (name order) at
  least DB apart in PSNR (an encoding kept close to its frames).
video_check.py luma FOLDER NV12 W H: FOLDER's grey PNGs are the luma
  planes of the raw NV12 stream, exactly.
"""
import glob
import os
import sys

import cv2
import numpy as np


def frames_of(video):
    capture = cv2.VideoCapture(video)
    frames = []
    while True:
        ok, frame = capture.read()
        if not ok:
            return frames
        frames.append(frame)


def pngs(folder):
    return sorted(glob.glob(os.path.join(folder, "*.png")))


def fail(message):
    print("video_check: " + message)
    sys.exit(1)


def main():
    what = sys.argv[1]
    if what == "count":
        frames = frames_of(sys.argv[2])
        n, w, h = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
        if len(frames) != n:
            fail("%d frames, not %d" % (len(frames), n))
        for frame in frames:
            if frame.shape[:2] != (h, w):
                fail("a frame is %dx%d" % (frame.shape[1], frame.shape[0]))
    elif what == "close":
        frames = frames_of(sys.argv[2])
        files = pngs(sys.argv[3])
        if len(frames) != len(files):
            fail("%d frames against %d files" % (len(frames), len(files)))
        for frame, path in zip(frames, files):
            ours = cv2.imread(path)
            mean = np.abs(ours.astype(int) - frame.astype(int)).mean()
            if mean > float(sys.argv[4]):
                fail("%s: mean difference %.2f" % (path, mean))
    elif what == "psnr":
        a, b = pngs(sys.argv[2]), pngs(sys.argv[3])
        if len(a) != len(b) or not a:
            fail("%d files against %d" % (len(a), len(b)))
        for x, y in zip(a, b):
            psnr = cv2.PSNR(cv2.imread(x), cv2.imread(y))
            if psnr < float(sys.argv[4]):
                fail("%s: PSNR %.1f dB" % (y, psnr))
    elif what == "luma":
        files = pngs(sys.argv[2])
        w, h = int(sys.argv[4]), int(sys.argv[5])
        data = np.fromfile(sys.argv[3], np.uint8)
        size = w * h + 2 * ((w + 1) // 2) * ((h + 1) // 2)
        if len(files) * size != data.size:
            fail("%d files for %d bytes" % (len(files), data.size))
        for i, path in enumerate(files):
            luma = data[i * size: i * size + w * h].reshape(h, w)
            if not np.array_equal(cv2.imread(path, cv2.IMREAD_UNCHANGED), luma):
                fail("%s is not the stream's luma" % path)
    else:
        fail("unknown check " + what)


main()
