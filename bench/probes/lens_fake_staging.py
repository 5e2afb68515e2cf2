"""A bound, not a kernel: the lens's PTX with its taps read from shared memory.

A probe (2026-12-07 13:05, docs/gpu-runs.md) of what staging each block's
source box in shared memory could gain at most: in arvrc's lens PTX (45508ff,
`--specialize src.channels=3`), every tap read through the source image's
base (`cvt` of a 32-bit offset, `add.s64 %rdN, %rd2, ...`,
`ld.global.nc.b8`) becomes a shared read at that offset masked to the tile
(`and` + `add` of the tile's base; a tap's next row at a constant offset), with
no copy into the tile and no barrier. Outputs are wrong (the tile is never
written): the bench times such a variant only when its label has "probe" in
it and its output check is lifted by hand. Mode u8 reads bytes; mode f32
reads floats (each tap's conversion gone too).

  python3 lens_fake_staging.py IN.ptx OUT.ptx u8|f32
"""
import re, sys
src, dst, mode = sys.argv[1], sys.argv[2], sys.argv[3]  # mode: u8 | f32
lines = open(src).read().split('\n')
out = []; inkernel = False
cvt = {}; rowOf = {}; smap = {}; xs = {}; n = [0]
P = 288 if mode == 'u8' else 1152
def new():
    n[0] += 1; return n[0]
pending = None
i = 0
while i < len(lines):
    l = lines[i]; s = l.strip()
    if s.startswith('.visible .entry lens_undistort_out('): inkernel = True
    if inkernel and s.startswith('.reg .b64'):
        out.append(l); out.append('\t.reg .b32 \t%xq<400>;'); out.append('\t.reg .b32 \t%xs<400>;')
        i += 1; continue
    if inkernel and s.startswith('mov.u32') and '%ctaid.x' in s:
        out.append('\tmov.u32 \t%xs0, stage;')
    if not inkernel:
        if s.startswith('.visible .entry lens_undistort_out_proof') or s.startswith('// .globl\tlens_undistort_out_proof'):
            pass
        out.append(l); i += 1; continue
    m = re.match(r'cvt\.(u64\.u32|s64\.s32)\s+(%rd\d+), (%r\d+);', s)
    if m: cvt[m.group(2)] = m.group(3)
    m = re.match(r'add\.s32\s+(%r\d+), (%r\d+), %r2;', s)
    if m: rowOf[m.group(1)] = m.group(2)
    m = re.match(r'add\.s64\s+(%rd\d+), %rd2, (%rd\d+);', s)
    if m and m.group(2) in cvt:
        rX = cvt[m.group(2)]; k = new(); sB = '%%xs%d' % k
        if rX in rowOf and rowOf[rX] in xs:
            out.append('\tadd.u32 \t%s, %s, %d;' % (sB, xs[rowOf[rX]], P))
        else:
            if mode == 'u8':
                out.append('\tand.b32 \t%%xq%d, %s, 8191;' % (k, rX)); out.append('\tadd.u32 \t%s, %%xq%d, %%xs0;' % (sB, k))
            else:
                out.append('\tand.b32 \t%%xq%d, %s, 2047;' % (k, rX)); out.append('\tmad.lo.s32 \t%s, %%xq%d, 4, %%xs0;' % (sB, k))
        smap[m.group(1)] = sB; xs[rX] = sB; out.append(l); i += 1; continue
    m = re.match(r'add\.s64\s+(%rd\d+), (%rd\d+), (%rd\d+);', s)
    if m and m.group(2) in smap and cvt.get(m.group(3)) == '%r2':
        k = new(); sB = '%%xs%d' % k
        out.append('\tadd.u32 \t%s, %s, %d;' % (sB, smap[m.group(2)], P)); smap[m.group(1)] = sB; out.append(l); i += 1; continue
    m = re.match(r'ld\.global\.nc\.b8\s+(%rs\d+), \[(%rd\d+)(\+\d+)?\];', s)
    if m and m.group(2) in smap:
        off = int(m.group(3) or 0)
        if mode == 'u8':
            out.append('\tld.shared.u8 \t%s, [%s+%d];' % (m.group(1), smap[m.group(2)], off)); i += 1; continue
        nxt = lines[i+1].strip()
        m2 = re.match(r'cvt\.rn\.f32\.u16\s+(%r\d+), ' + re.escape(m.group(1)) + ';', nxt)
        if m2:
            out.append('\tld.shared.f32 \t%s, [%s+%d];' % (m2.group(1), smap[m.group(2)], 4*off)); i += 2; continue
    out.append(l); i += 1
txt = '\n'.join(out)
txt = txt.replace('.visible .entry lens_undistort_out(', '.shared .align 16 .b8 stage[12288];\n\n.visible .entry lens_undistort_out(', 1)
open(dst, 'w').write(txt)
