#!/usr/bin/env bash
# The manifest's cost per job over the command line: JOBS tiny renders (a 1-second mono WAV
# through --eq Rock) made by one `aurender batch -j 1` and by JOBS separate `aurender`
# invocations, each ROUNDS times; prints the best time of each per job and their difference.
# Usage: bench/manifest-cost.sh [AURENDER] [JOBS] [ROUNDS]   (default: .build/release/aurender 200 3)
set -euo pipefail
aurender=$(realpath "${1:-.build/release/aurender}")
jobs=${2:-200} rounds=${3:-3}
work=$(mktemp -d /tmp/aurender-manifest-cost.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
python3 - "$jobs" <<'PY'
import json, math, struct, sys, wave
with wave.open("in.wav", "wb") as file:
    file.setnchannels(1)
    file.setsampwidth(2)
    file.setframerate(44100)
    file.writeframes(struct.pack("<44100h", *[int(8000 * math.sin(2 * math.pi * 440 * n / 44100)) for n in range(44100)]))
with open("jobs.jsonl", "w") as file:
    for job in range(int(sys.argv[1])):
        file.write(json.dumps({"input": "in.wav", "output": f"manifest/{job}.wav", "options": {"eq": "Rock"}}) + "\n")
PY
best() { sort -n | head -n 1; }
manifest=$(for _ in $(seq "$rounds"); do
    rm -rf manifest
    start=$EPOCHREALTIME; "$aurender" batch jobs.jsonl -j 1 >/dev/null; echo "$EPOCHREALTIME - $start" | bc -l
done | best)
separate=$(for _ in $(seq "$rounds"); do
    rm -rf separate; mkdir separate
    start=$EPOCHREALTIME
    for job in $(seq 0 $((jobs - 1))); do "$aurender" -q --eq Rock in.wav "separate/$job.wav"; done
    echo "$EPOCHREALTIME - $start" | bc -l
done | best)
for job in $(seq 0 $((jobs - 1))); do cmp -s "manifest/$job.wav" "separate/$job.wav" || { echo "job $job differs" >&2; exit 1; }; done
awk -v m="$manifest" -v s="$separate" -v n="$jobs" 'BEGIN {
    printf "aurender batch -j 1: %.3f s, %.2f ms a job\n", m, 1000 * m / n
    printf "separate aurender:   %.3f s, %.2f ms a job\n", s, 1000 * s / n
    printf "manifest cost per job over the command line: %+.2f ms\n", 1000 * (m - s) / n }'
