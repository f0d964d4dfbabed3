#!/bin/sh
# The analysis module's cost under callgrind: instructions a frame a SignalSketcher adds, for one
# minute of stereo 44.1 kHz noise, with the length known and unknown (the noise's generation,
# measured alone, is subtracted). Release build.
set -eu
cd "$(dirname "$0")/.."
swift build -c release --product SketchBenchmark >/dev/null
# Valgrind cannot read the Swift toolchain's DWARF 5, so it runs a stripped copy.
binary=$(mktemp)
trap 'rm -f "$binary"' EXIT
strip -o "$binary" .build/release/SketchBenchmark
frames=2646000
instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$binary" "$1" 2>&1 >/dev/null \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p' 
}
base=$(instructions none)
for mode in sketch unknown; do
    total=$(instructions "$mode")
    "$binary" "$mode"
    echo "$mode: $(( total - base )) instructions, $(echo "scale=2; ($total - $base) / $frames" | bc) a frame"
done
