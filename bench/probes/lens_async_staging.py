"""A probe, not a pass: the staged lens's copy as cp.async, its barrier later.

`arvrc build --stage-samples` (arvr-gpu-stage-samples) copies each proved
block's source box into shared memory, every thread's 16-byte loads
before its stores, then `bar.sync 0`, and only then does any thread start
its points: the block waits for memory with nothing to do, and the copy's
registers carry the bytes. Measured slower than the direct kernel
(docs/gpu-runs.md, 2026-12-07 16:04). This probe asks how much of that is
the wait, on the PTX of the lens built with the flag (the aligned copy;
rows of 16-byte multiples, as the bench's frames):

  async  each `ld.global.nc.v4.b32` of the copy becomes
         `cp.async.cg.shared.global` to its place in the tile (no
         registers, no `st.shared`), and `cp.async.wait_all` precedes the
         barrier, which stays where it was;
  late   as async, but the barrier moves into both versions: in the
         interior one just before its first shared read, so that the
         first point's arithmetic runs while the copy is in flight, and at
         the start of the border one. Each thread takes one version, so
         each meets one barrier; threads of a block may take different
         versions (the block's last points past the image), so the
         barrier is `barrier.sync 0`, the form allowed in divergent code,
         not `bar.sync` (`barrier.sync.aligned`);
  lateN  as late, and the interior's arithmetic that does not depend on a
         shared read, up to its N-th group of four taps, moved above the
         barrier (more work in flight, more registers).

  python3 lens_async_staging.py IN.ptx OUT.ptx async|late|lateN

Outputs must stay identical (the bench checks each extra's against arvrc's).
"""
import re
import sys

src, dst, form = sys.argv[1], sys.argv[2], sys.argv[3]
L = open(src).read().split('\n')
start = next(i for i, l in enumerate(L)
             if l.startswith('.visible .entry lens_undistort_out('))
end = next(i for i in range(start, len(L)) if L[i] == '}')
K = L[start:end + 1]

# The aligned copy: its lane's row and byte (`shr.u32 R, T, 5` and
# `and.b32 B, X, 496`), its loads, and its stores.
row = next(re.match(r'\tshr\.u32 \t(%r\d+), %r\d+, 5;', l).group(1)
           for l in K if re.match(r'\tshr\.u32 \t%r\d+, %r\d+, 5;', l))
at = next(i for i, l in enumerate(K)
          if re.match(r'\tand\.b32 \t%r\d+, %r\d+, 496;', l))
byte = re.match(r'\tand\.b32 \t(%r\d+),', K[at]).group(1)
loads = [i for i, l in enumerate(K) if 'ld.global.nc.v4.b32' in l]
stores = [i for i, l in enumerate(K) if 'st.shared.v4.b32' in l]
assert len(loads) == len(stores) > 0, (len(loads), len(stores))
offsets = [int(re.search(r'\+(\d+)\]', K[i]).group(1))
           if '+' in K[i].split('[')[1] else 0 for i in stores]

out = []
for i, l in enumerate(K):
    if l.startswith('\t.reg .b64 \t%rd<'):
        out += [l, '\t.reg .b32 \t%rqa<3>;', '\t.reg .b64 \t%rdqa<4>;']
        continue
    if i == at:
        out += [l, f'\tshl.b32 \t%rqa0, {row}, 9;',
                f'\tor.b32 \t%rqa1, %rqa0, {byte};',
                '\tcvt.u64.u32 \t%rdqa0, %rqa1;',
                '\tmov.b64 \t%rdqa1, __dynamic_shmem__0;',
                '\tadd.s64 \t%rdqa2, %rdqa1, %rdqa0;']
        continue
    if i in loads:
        k = loads.index(i)
        src_addr = re.search(r'\[(%rd\d+)\]', l).group(1)
        out.append(f'\tcp.async.cg.shared.global \t[%rdqa2+{offsets[k]}], '
                   f'[{src_addr}], 16;')
        continue
    if i in stores:
        continue
    out.append(l)
K = out

bar = next(i for i, l in enumerate(K) if l.strip() == 'bar.sync \t0;')
if form == 'async':
    K[bar:bar + 1] = ['\tcp.async.wait_all;', '\tbar.sync \t0;']
else:
    m = re.fullmatch(r'late(\d*)', form)
    assert m, form
    hoist_groups = int(m.group(1) or 0)
    del K[bar]
    # The interior version: from the branch to the border version (the
    # first `@%p bra` after the barrier) to its `bra.uni` to the exit.
    branch = next(i for i in range(bar, len(K))
                  if re.match(r'\t@%p\d+ bra \t\$L__BB\d+_\d+;', K[i]))
    border = re.search(r'(\$L__BB\d+_\d+)', K[branch]).group(1)
    stop = next(i for i in range(branch, len(K)) if 'bra.uni' in K[i])
    body = K[branch + 1:stop]
    reads = [i for i, l in enumerate(body) if 'ld.shared' in l]
    first = reads[0]
    # Groups of four taps; the arithmetic up to the group that ends the
    # hoisted ones, minus what depends on a shared read.
    cut = first
    if hoist_groups:
        cut = reads[min(len(reads), 4 * hoist_groups) - 1] + 1
    tainted, above, below = set(), [], []
    for j, l in enumerate(body[:cut]):
        dst_reg = re.match(r'\t[\w.]+ \t(%\w+)', l)
        uses = set(re.findall(r'%\w+', l.split(',', 1)[1])) \
            if ',' in l else set()
        memory = re.search(r'\b(ld|st|cp|bar|barrier|atom)\.', l)
        if j < first or (not memory and not (uses & tainted)
                         and not l.startswith('$')):
            above.append(l)
        else:
            below.append(l)
            if dst_reg:
                tainted.add(dst_reg.group(1))
    K[branch + 1:stop] = (above + ['\tcp.async.wait_all;',
                                   '\tbarrier.sync \t0;'] + below +
                          body[cut:])
    lab = next(i for i, l in enumerate(K) if l == border + ':')
    K[lab + 1:lab + 1] = ['\tcp.async.wait_all;', '\tbarrier.sync \t0;']

open(dst, 'w').write('\n'.join(L[:start] + K + L[end + 1:]))
