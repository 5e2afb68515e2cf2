#!/usr/bin/env python3
"""Turns the CSV of arvr_bench (and the compile times of bench/run.sh) into
a Markdown report and a PNG chart: time per frame of each implementation
against the floor (the ideal bytes at the copy bandwidth measured in the
same run), per kernel, at 4K, batch 8.

    report.py BENCH_CSV COMPILE_CSV MACHINE_TXT OUT_MD OUT_PNG [COUNT_LOG NCU_CSV]...

With pairs of COUNT_LOG (the "# count" lines of one `arvr_bench --count`
run) and NCU_CSV (Nsight Compute's CSV of that run), a table of the
instructions each implementation executes a pixel.
"""
import csv
import sys


def read_rows(path):
    rows, extra, end_to_end = [], {}, []
    with open(path) as f:
        header = None
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# copy_GBps,"):
                extra["copy_GBps"] = float(line.split(",")[1])
                continue
            if line.startswith("#") or not line:
                continue
            fields = next(csv.reader([line]))
            if header is None:
                header = fields
            elif fields[0] == "end-to-end":
                end_to_end.append(fields)
            else:
                # The output check may hold commas: it is the rest.
                n = len(header)
                fields = fields[: n - 1] + [",".join(fields[n - 1:])]
                rows.append(dict(zip(header, fields)))
    return rows, extra, end_to_end


def chart(rows, path):
    picked = [r for r in rows if r["size"] == "4K" and r["batch"] == "8"]
    kernels = []
    for r in picked:
        if r["kernel"] not in kernels:
            kernels.append(r["kernel"])
    if not kernels:
        print("report.py: no 4K batch-8 rows, no chart")
        return
    impls = ["arvrc", "hand CUDA", "NPP"]
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, axes = plt.subplots(1, len(kernels), figsize=(4 * len(kernels), 4))
        if len(kernels) == 1:
            axes = [axes]
        for ax, k in zip(axes, kernels):
            these = [r for r in picked if r["kernel"] == k]
            names = [i for i in impls if any(r["implementation"] == i for r in these)]
            times = [float(next(r for r in these if r["implementation"] == i)["median_us"]) for i in names]
            ax.bar(names, times, color=["#1f77b4", "#ff7f0e", "#2ca02c"][: len(names)])
            floor = float(these[0]["floor_us"])
            ax.axhline(floor, color="red", linestyle="--", label=f"floor {floor:.1f} us")
            ax.set_title(f"{k}, 4K, batch 8")
            ax.set_ylabel("us per frame (median)")
            ax.legend()
        fig.tight_layout()
        fig.savefig(path, dpi=100)
        return
    except ImportError:
        pass
    import cv2
    import numpy as np
    width, height = 300 * len(kernels), 360
    img = np.full((height, width, 3), 255, np.uint8)
    colors = [(180, 119, 31), (14, 127, 255), (44, 160, 44)]
    for n, k in enumerate(kernels):
        these = [r for r in picked if r["kernel"] == k]
        top = max(float(r["median_us"]) for r in these) * 1.15
        x0 = n * 300
        cv2.putText(img, f"{k} 4K b8", (x0 + 10, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 1)
        for j, i in enumerate(impls):
            r = next((r for r in these if r["implementation"] == i), None)
            if r is None:
                continue
            t = float(r["median_us"])
            h = int((height - 80) * t / top)
            cv2.rectangle(img, (x0 + 30 + j * 85, height - 40 - h), (x0 + 95 + j * 85, height - 40), colors[j], -1)
            cv2.putText(img, f"{i}", (x0 + 30 + j * 85, height - 25), cv2.FONT_HERSHEY_SIMPLEX, 0.35, (0, 0, 0), 1)
            cv2.putText(img, f"{t:.0f}us", (x0 + 30 + j * 85, height - 45 - h), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 1)
        floor = float(these[0]["floor_us"])
        y = height - 40 - int((height - 80) * floor / top)
        cv2.line(img, (x0 + 20, y), (x0 + 290, y), (0, 0, 255), 1)
        cv2.putText(img, f"floor {floor:.1f}us", (x0 + 200, y - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.35, (0, 0, 255), 1)
    cv2.imwrite(path, img)


def instruction_counts(count_log, ncu_csv):
    """Per "# count" line of `arvr_bench --count`: (kernel, implementation,
    pixels, thread instructions, warp instructions, kernels launched), from
    the kernels Nsight Compute profiled after each marker; None when the
    two do not line up."""
    cases = []
    with open(count_log) as f:
        for line in f:
            if line.startswith("# count,"):
                fields = line.rstrip("\n").split(",", 5)
                w, h = (int(v) for v in fields[3].split("x"))
                cases.append((fields[1], fields[5], w * h * int(fields[4])))
    with open(ncu_csv) as f:
        rows = [r for r in csv.reader(f) if len(r) > 5]
    head = rows[0]
    col = {name: i for i, name in enumerate(head)}
    kernels = {}  # ID -> [name, thread instructions, warp instructions]
    for r in rows[1:]:
        entry = kernels.setdefault(int(r[col["ID"]]), [r[col["Kernel Name"]], 0.0, 0.0])
        value = float(r[col["Metric Value"]].replace(",", ""))
        if r[col["Metric Name"]] == "smsp__thread_inst_executed.sum":
            entry[1] = value
        elif r[col["Metric Name"]] == "smsp__inst_executed.sum":
            entry[2] = value
    groups = []
    for _, (name, threads, warps) in sorted(kernels.items()):
        if "countMarker" in name:
            groups.append([0.0, 0.0, 0])
        elif groups:
            groups[-1][0] += threads
            groups[-1][1] += warps
            groups[-1][2] += 1
    if len(groups) != len(cases):
        return None
    return [(k, impl, px, g[0], g[1], g[2]) for (k, impl, px), g in zip(cases, groups)]


def main():
    bench_csv, compile_csv, machine, out_md, out_png = sys.argv[1:6]
    counts = None
    pairs = sys.argv[6:]
    if len(pairs) >= 2:
        counts = []
        for log, ncu in zip(pairs[0::2], pairs[1::2]):
            try:
                these = instruction_counts(log, ncu)
            except (OSError, ValueError, KeyError, IndexError) as e:
                print(f"report.py: no instruction counts from {ncu}: {e}", file=sys.stderr)
                these = None
            if these is None:
                counts = None
                break
            counts += these
    rows, extra, end_to_end = read_rows(bench_csv)
    out = []
    out.append("# arvrc against hand-written CUDA and NPP\n")
    with open(machine) as f:
        out.append("```text\n" + f.read().strip() + "\n```\n")
    out.append(f"Device-to-device copy, measured in the same run: "
               f"**{extra.get('copy_GBps', 0):.0f} GB/s** (read + write). "
               "The floor of a kernel is its ideal bytes (each input read once, "
               "each output written once: lens, Gaussian, bilateral and warp 6 "
               "B/pixel, NV12 4.5, Harris 5, pyr_down 3.98, stereo 3) "
               "at that bandwidth; `% of copy` = floor / time.\n")
    out.append("Times are medians of the timed repetitions (CUDA events, after "
               "warm-up, implementations interleaved, buffers rotated over more "
               "than 4x the L2, each launch reading the frames after the "
               "previous launch's), in us per frame; batch 8 launches 8 frames "
               "between two events.\n")
    for kernel in dict.fromkeys(r["kernel"] for r in rows):
        out.append(f"\n## {kernel}\n")
        out.append("| size | batch | implementation | median us | min-max us | GB/s | % of copy | registers | spills (B) | occupancy | vs hand | vs NPP | output check |")
        out.append("| --- | --- | --- | ---: | --- | ---: | ---: | --- | --- | --- | ---: | ---: | --- |")
        for r in rows:
            if r["kernel"] != kernel:
                continue
            out.append(f"| {r['size']} | {r['batch']} | {r['implementation']} | "
                       f"{float(r['median_us']):.1f} | {float(r['min_us']):.1f}-{float(r['max_us']):.1f} | "
                       f"{float(r['GBps']):.0f} | {float(r['pct_of_copy']):.0f}% | {r['registers']} | "
                       f"{r['spill_bytes']} | {r['occupancy']} | {r['vs_hand'] or '-'} | "
                       f"{r['vs_npp'] or '-'} | {r['output_check']} |")
    if counts:
        out.append("\n## Instructions executed a pixel (4K, batch 8, Nsight Compute)\n")
        out.append("Thread instructions executed (`smsp__thread_inst_executed.sum`, "
                   "SASS instructions summed over the lanes that ran them) over "
                   "output pixels, all kernels of the implementation's batch "
                   "together (`arvr_bench --count`); warp instructions "
                   "(`smsp__inst_executed.sum`) x 32 over pixels counts idle "
                   "lanes too.\n")
        out.append("| kernel | implementation | thread instr / pixel | warp instr x 32 / pixel | kernels |")
        out.append("| --- | --- | ---: | ---: | ---: |")
        for k, impl, px, threads, warps, n in counts:
            out.append(f"| {k} | {impl} | {threads / px:.1f} | {warps * 32 / px:.1f} | {n} |")
    elif len(pairs) >= 2:
        out.append("\n(Instruction counts: the profile did not line up with "
                   "the implementations; none reported.)\n")
    if end_to_end:
        out.append("\n## End to end, one 4K frame through arvrc (pinned memory)\n")
        out.append("| kernel | total us | upload us | kernels us | download us |")
        out.append("| --- | ---: | ---: | ---: | ---: |")
        for f in end_to_end:
            out.append(f"| {f[1]} | {f[5]} | {f[6]} | {f[7]} | {f[8]} |")
    try:
        with open(compile_csv) as f:
            lines = [l.strip().split(",") for l in f if l.strip()]
        out.append("\n## Compile time (`arvrc build` to PTX without the compile cache, wall clock, median of three)\n")
        out.append("| kernel | ms |")
        out.append("| --- | ---: |")
        for k, ms in lines:
            out.append(f"| {k} | {ms} |")
    except OSError:
        pass
    with open(out_md, "w") as f:
        f.write("\n".join(out) + "\n")
    chart(rows, out_png)


if __name__ == "__main__":
    main()
