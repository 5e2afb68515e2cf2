"""A probe, not a pass: the lens's interior floors as a rounding addition.

Measured on the H200 2026-12-07 18:47 (docs/gpu-runs.md). In arvrc's lens
PTX (`--specialize src.channels=3`), the interior version's (the code
before the first `bra.uni` after the block proof's branch) floors of a
sample's coordinates, `cvt.rmi.f32.f32` then `cvt.rzi.s32.f32` of it (SASS
FRND and F2I, both on the XU pipe at a quarter rate), become
`add.rm.f32 t, u, 0f4B400000` (1.5 * 2^23: rounding towards -inf leaves
floor(u) in t's low mantissa bits) and `sub.rn.f32 floor, t, 0f4B400000`;
the integer is t's bits, its bias folded into the tap's address
(`mad.lo` of the row with -0x4B400000 * (row pitch + 3)). Exact for
|u| < 2^22, which the interior's proved taps give only for images narrower
than 2^22 pixels: a pass has to prove that bound first (branch
floors-after-proofs: arvr-gpu-tested-floors, 2^23 as the bias, the inside
test's last index capped at 2^23).

  python3 lens_magic_floor.py IN.ptx OUT.ptx
"""
import re
import sys

src, dst = sys.argv[1], sys.argv[2]
L = open(src).read().split('\n')
start = next(i for i, l in enumerate(L)
             if l.startswith('.visible .entry lens_undistort_out('))
b = next(i for i in range(start, len(L))
         if re.search(r'@%p\d+ bra \t\$L__BB1_2;', L[i]))
e = next(i for i in range(b, len(L)) if 'bra.uni' in L[i])
floor_of, int_of, out, n = {}, {}, [], 0
for i, l in enumerate(L):
    if b < i < e:
        m = re.match(r'\tcvt\.rmi\.f32\.f32 \t(%r\d+), (%r\d+);', l)
        if m:
            F, U = m.groups()
            T = F.replace('%r', '%rm')
            out += [f'\tadd.rm.f32 \t{T}, {U}, 0f4B400000;',
                    f'\tsub.rn.f32 \t{F}, {T}, 0f4B400000;']
            floor_of[F] = T
            n += 1
            continue
        m = re.match(r'\tcvt\.rzi\.s32\.f32 \t(%r\d+), (%r\d+);', l)
        if m and m.group(2) in floor_of:
            int_of[m.group(1)] = floor_of[m.group(2)]
            continue
        m = re.match(r'\tmul\.lo\.s32 \t(%r\d+), %r2, (%r\d+);', l)
        if m and m.group(2) in int_of:
            out.append(f'\tmad.lo.s32 \t{m.group(1)}, %r2, '
                       f'{int_of[m.group(2)]}, %rmk;')
            continue
        m = re.match(r'\tmad\.lo\.s32 \t(%r\d+), (%r\d+), 3, (%r\d+);', l)
        if m and m.group(2) in int_of:
            out.append(f'\tmad.lo.s32 \t{m.group(1)}, {int_of[m.group(2)]}, '
                       f'3, {m.group(3)};')
            continue
    if i > start and l.startswith('\tmul.lo.s32 \t%r2, '):
        # %r2 is the row pitch in bytes; the bias of both coordinates.
        out += [l, '\tadd.s32 \t%rmk, %r2, 3;',
                '\tmul.lo.s32 \t%rmk, %rmk, -1262485504;']
        continue
    if i > start and l.startswith('\t.reg .b32 \t%r<'):
        out += [l, '\t.reg .b32 \t%rm<9999>;', '\t.reg .b32 \t%rmk;']
        continue
    out.append(l)
for I in int_of:  # every integer must have gone into an address
    assert not re.search(re.escape(I) + r'[;,]', '\n'.join(out[start:])), I
open(dst, 'w').write('\n'.join(out))
print('floors', n, 'integers', len(int_of))
