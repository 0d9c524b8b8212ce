#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""pack.py OPTS FILE... > SEED - one input of the file-based fuzz targets
(tests/fuzz/fuzzlib.h): the options byte OPTS (0x.. or decimal), each file
but the last as a little-endian u32 length, then every file's bytes."""
import struct
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    opts = int(sys.argv[1], 0)
    parts = []
    for p in sys.argv[2:]:
        with open(p, 'rb') as f:
            parts.append(f.read())
    out = bytes([opts]) + b''.join(struct.pack('<I', len(p)) for p in parts[:-1])
    sys.stdout.buffer.write(out + b''.join(parts))


main()
