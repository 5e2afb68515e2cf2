"""The CPU bench (issue 18): arvrc's CPU target against OpenCV, in one run.

For the three examples at 1080p and 4K, on frames made from a photo
(tests/data/baboon.jpg, resized): the median of RUNS timings of each,
after a warm-up. arvrc's time is what `arvrc run --target cpu --repeat
RUNS` reports as a frame's running time (the median of RUNS runs of its
kernel through the runtime library after a first, all cores, no file
being read or written meanwhile); OpenCV's is the call's wall time with
cv2.setNumThreads(cores). The same parameters for both: the
Gaussian r=4 sigma 2 with reflect-101 borders (cv2.GaussianBlur), the lens
with the bench's calibration scaled to the frame and no chromatic
aberration (cv2.undistort, its maps included, as a user calls it), NV12
to RGB (cv2.cvtColor COLOR_YUV2RGB_NV12).

    python3 bench/cpu/bench.py ARVRC SOURCE_DIR OUT_DIR [RUNS]

Writes OUT_DIR/cpu-bench.csv and OUT_DIR/cpu-bench.md and prints the
table. Exit 0, or 1 if arvrc fails.
"""
import os
import re
import statistics
import subprocess
import sys
import time

import cv2
import numpy as np

SIZES = [("1080p", 1920, 1080), ("4K", 3840, 2160)]


def lens_params(width, height):
    # OpenCV's sample calibration (640x480), scaled to the frame, as the GPU
    # bench does (bench/arvr_bench.cu, lensFor); no chromatic aberration.
    sx, sy = width / 640.0, height / 480.0
    return {"fx": 535.915733961632 * sx, "fy": 535.915733961632 * sy,
            "cx": 342.283154737084 * sx, "cy": 235.570829097882 * sy,
            "k1": -0.266372609096607, "k2": -0.0385888989223047,
            "p1": 0.00178319470428530, "p2": -0.000281221004411155,
            "k3": 0.238391530808785, "ca_red": 1.0, "ca_blue": 1.0}


def arvrc_ms(arvrc, kernel_file, frame_glob, out_dir, params, runs):
    """The median over `runs` of arvrc's running time for one frame: one
    process, the kernel compiled (or read from the cache) and run once,
    then `runs` times (`--repeat`), as OpenCV's call is timed warm."""
    command = [arvrc, "run", kernel_file, "-i", frame_glob, "-o", out_dir,
               "--target", "cpu", "--repeat", str(runs)]
    for name, value in params.items():
        command += ["-p", f"{name}={value!r}" if isinstance(value, float)
                    else f"{name}={value}"]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"cpu bench: {' '.join(command)} failed:\n{result.stderr}")
    found = re.search(r"per frame ([0-9.]+) ms running", result.stdout)
    if not found:
        sys.exit(f"cpu bench: no running time in:\n{result.stdout}")
    return float(found.group(1))


def opencv_ms(call, runs):
    call()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(1e3 * (time.perf_counter() - start))
    return statistics.median(times)


def nv12_of(bgr):
    """The NV12 frame (Y plane, then interleaved UV) of a BGR image."""
    h, w = bgr.shape[:2]
    i420 = cv2.cvtColor(bgr, cv2.COLOR_BGR2YUV_I420)
    y = i420[:h]
    u = i420[h:h + h // 4].reshape(h // 2, w // 2)
    v = i420[h + h // 4:].reshape(h // 2, w // 2)
    uv = np.stack([u, v], axis=-1).reshape(h // 2, w)
    return np.concatenate([y, uv])


def main():
    arvrc, src, out = sys.argv[1], sys.argv[2], sys.argv[3]
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    cores = os.cpu_count()
    cv2.setNumThreads(cores)
    photo = cv2.imread(os.path.join(src, "tests/data/baboon.jpg"))
    rows = []
    for name, width, height in SIZES:
        frames = os.path.join(out, name)
        os.makedirs(os.path.join(frames, "rgb"), exist_ok=True)
        os.makedirs(os.path.join(frames, "nv12"), exist_ok=True)
        bgr = cv2.resize(photo, (width, height), interpolation=cv2.INTER_LINEAR)
        cv2.imwrite(os.path.join(frames, "rgb", "f.ppm"), bgr)
        nv12 = nv12_of(bgr)
        nv12.tofile(os.path.join(frames, "nv12", f"f_{width}x{height}.nv12"))
        outputs = os.path.join(frames, "out")
        rgb_glob = os.path.join(frames, "rgb", "*.ppm")
        lens = lens_params(width, height)
        K = np.array([[lens["fx"], 0, lens["cx"]], [0, lens["fy"], lens["cy"]],
                      [0, 0, 1]])
        dist = np.array([lens["k1"], lens["k2"], lens["p1"], lens["p2"],
                         lens["k3"]])
        cases = [
            ("gaussian_blur", rgb_glob, {"sigma": 2.0, "radius": 4},
             lambda: cv2.GaussianBlur(bgr, (9, 9), 2.0,
                                      borderType=cv2.BORDER_REFLECT_101),
             "cv2.GaussianBlur"),
            ("lens_undistort", rgb_glob, lens,
             lambda: cv2.undistort(bgr, K, dist), "cv2.undistort"),
            ("nv12_to_rgb", os.path.join(frames, "nv12", "*.nv12"), {},
             lambda: cv2.cvtColor(nv12, cv2.COLOR_YUV2RGB_NV12),
             "cv2.cvtColor"),
        ]
        for kernel, inputs, params, call, peer in cases:
            ours = arvrc_ms(arvrc, os.path.join(src, "examples", kernel + ".arvr"),
                            inputs, outputs, params, runs)
            theirs = opencv_ms(call, runs)
            rows.append((kernel, name, ours, theirs, peer))
    with open(os.path.join(out, "cpu-bench.csv"), "w") as f:
        f.write("kernel,size,arvrc_ms,opencv_ms,ratio,opencv_call\n")
        for kernel, size, ours, theirs, peer in rows:
            f.write(f"{kernel},{size},{ours:.2f},{theirs:.2f},{ours / theirs:.2f},{peer}\n")
    lines = [f"CPU: {cores} cores ({os.uname().machine}), OpenCV {cv2.__version__} "
             f"with {cores} threads; median of {runs} runs, ms per frame",
             "", "| kernel | size | arvrc | OpenCV | arvrc / OpenCV |",
             "| --- | --- | ---: | ---: | ---: |"]
    for kernel, size, ours, theirs, peer in rows:
        lines.append(f"| {kernel} | {size} | {ours:.1f} | {theirs:.1f} ({peer}) "
                     f"| {ours / theirs:.1f}x |")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out, "cpu-bench.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
