"""Frames of a pan across a photo, for the video tests (issue 19).

make_clip.py PHOTO OUT W H N: OUT/pan/f000.png ... (N frames of W x H, the
window moving 4 pixels right and 1 down a frame), OUT/stream_WxH.nv12 (the
same frames as one raw NV12 stream, BT.601 limited range as OpenCV
converts), OUT/one/fNNN_WxH.nv12 (each frame of it alone).
"""
import os
import sys

import cv2
import numpy as np


def nv12_of(bgr):
    h, w = bgr.shape[:2]
    i420 = cv2.cvtColor(bgr, cv2.COLOR_BGR2YUV_I420).reshape(-1)
    y = i420[: w * h]
    u = i420[w * h: w * h + (w // 2) * (h // 2)]
    v = i420[w * h + (w // 2) * (h // 2):]
    uv = np.empty(u.size * 2, np.uint8)
    uv[0::2], uv[1::2] = u, v
    return y.tobytes() + uv.tobytes()


def main():
    photo, out = sys.argv[1], sys.argv[2]
    w, h, n = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    img = cv2.imread(photo)
    os.makedirs(os.path.join(out, "pan"), exist_ok=True)
    os.makedirs(os.path.join(out, "one"), exist_ok=True)
    size = "%dx%d" % (w, h)
    with open(os.path.join(out, "stream_%s.nv12" % size), "wb") as stream:
        for i in range(n):
            x, y = 4 * i, 20 + i
            frame = np.ascontiguousarray(img[y:y + h, x:x + w])
            assert frame.shape[:2] == (h, w), "the photo is too small"
            cv2.imwrite(os.path.join(out, "pan", "f%03d.png" % i), frame)
            if w % 2 == 0 and h % 2 == 0:
                data = nv12_of(frame)
                stream.write(data)
                with open(os.path.join(out, "one", "f%03d_%s.nv12" % (i, size)),
                          "wb") as one:
                    one.write(data)


main()
