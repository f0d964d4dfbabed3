#!/usr/bin/env python3
"""The hand-built golden-folder check `bench/run.sh diff` times aurender against: every file of
APPROVED paired with RENDERED's by relative path, both read with soundfile, compared with NumPy
(largest absolute difference and RMS of the difference, in dBFS); exit 1 when a file is missing
or a pair differs beyond the tolerance.

Usage: diff_folders.py APPROVED RENDERED TOLERANCE_DBFS
"""
import math
import os
import sys

import numpy as np
import soundfile


def files(folder):
    found = set()
    for root, _, names in os.walk(folder):
        for name in names:
            if not name.startswith("."):
                found.add(os.path.relpath(os.path.join(root, name), folder))
    return found


def dbfs(value):
    return 20 * math.log10(value) if value > 0 else -math.inf


def main():
    approved, rendered, tolerance = sys.argv[1], sys.argv[2], float(sys.argv[3])
    a_files, b_files = files(approved), files(rendered)
    failed = len(a_files ^ b_files)
    for path in sorted(a_files & b_files):
        a, rate_a = soundfile.read(os.path.join(approved, path), dtype="float32", always_2d=True)
        b, rate_b = soundfile.read(os.path.join(rendered, path), dtype="float32", always_2d=True)
        if rate_a != rate_b or a.shape != b.shape:
            print(f"failed {path}: formats or lengths differ")
            failed += 1
            continue
        difference = a - b
        largest = float(np.max(np.abs(difference))) if difference.size else 0.0
        rms = float(np.sqrt(np.mean(np.square(difference, dtype=np.float64)))) if difference.size else 0.0
        ok = dbfs(largest) <= tolerance
        print(f"{'passed' if ok else 'failed'} {path}: max {dbfs(largest):.2f} dBFS, rms {dbfs(rms):.2f} dBFS")
        failed += 0 if ok else 1
    print(f"result: {failed} of {len(a_files | b_files)} pairs failed")
    sys.exit(1 if failed else 0)


main()
