#!/usr/bin/env bash
# Regenerates the fat binary images in this folder from scale.cu (needs nvcc 13 and python3).
# Each image is the fat binary that the program registers: the one the version-1
# __fatBinC_Wrapper_t in .nvFatBinSegment points to (reference/fatbin.md section 2), cut out
# of the executable from its 16-byte header to its end. Also writes the `nvcc -ptx` text
# that the tests compare the embedded PTX against.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$here"

extract() {  # extract <executable> <output image>
  python3 - "$1" "$2" <<'PY'
import struct, sys
exe = open(sys.argv[1], 'rb').read()
shoff, = struct.unpack_from('<Q', exe, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', exe, 0x3a)
def section(i):
    return struct.unpack_from('<IIQQQQIIQQ', exe, shoff + i * shentsize)
names = section(shstrndx)[4]
def name_of(s):
    start = names + s[0]
    return exe[start:exe.index(b'\0', start)].decode()
sections = [section(i) for i in range(shnum)]
by_name = {name_of(s): s for s in sections}
def file_offset(vma):
    for s in sections:
        if s[1] != 8 and s[3] <= vma < s[3] + s[5]:  # not NOBITS
            return s[4] + vma - s[3]
    raise SystemExit('address 0x%x is in no section' % vma)
def relative_addend(vma):  # PIE: the pointer may live only in an R_X86_64_RELATIVE addend
    rela = by_name.get('.rela.dyn')
    for k in range(rela[5] // 24 if rela else 0):
        off, info, addend = struct.unpack_from('<QQq', exe, rela[4] + 24 * k)
        if off == vma and info & 0xffffffff == 8:
            return addend
    return 0
seg = by_name['.nvFatBinSegment']
for w in range(seg[5] // 24):
    magic, version, data = struct.unpack_from('<IIQ', exe, seg[4] + 24 * w)
    if magic != 0x466243B1 or version != 1:
        continue
    data = data or relative_addend(seg[3] + 24 * w + 8)
    start = file_offset(data)
    fat_magic, _, header_size, size = struct.unpack_from('<IHHQ', exe, start)
    assert fat_magic == 0xBA55ED50, hex(fat_magic)
    open(sys.argv[2], 'wb').write(exe[start:start + header_size + size])
    break
else:
    raise SystemExit('no version-1 fat binary wrapper in ' + sys.argv[1])
PY
}

build() {  # build <name> <nvcc options...>
  local name=$1
  shift
  nvcc -cudart shared "$@" -o "$work/$name" scale.cu
  extract "$work/$name" "$name.fatbin"
}

build sm80_zstd   -arch=sm_80
build sm80_lz4    -arch=sm_80 --compress-mode=speed
build sm80_plain  -arch=sm_80 --no-compress
build sm80_all_zstd -arch=sm_80 --compress-mode=size
build sm80_all_lz4  -arch=sm_80 -Xfatbin -compress-all --compress-mode=speed
build sm80_lineinfo -arch=sm_80 -lineinfo
build sm80_sass   -gencode arch=compute_80,code=sm_80
build sm90_zstd   -arch=sm_90
build sass80_ptx90 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=compute_90
build ptx80_ptx90 -gencode arch=compute_80,code='[sm_80,compute_80]' -gencode arch=compute_90,code=compute_90

nvcc -ptx -arch=sm_80 -o scale_sm80.ptx scale.cu
nvcc -ptx -arch=sm_90 -o scale_sm90.ptx scale.cu
nvcc -ptx -arch=sm_80 -lineinfo -o scale_sm80_lineinfo.ptx scale.cu
