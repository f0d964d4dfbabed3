#!/usr/bin/env bash
# Benchmarks aurender side by side with the reference tools, in one run, on generated files.
# Usage: bench/run.sh [passthrough|eq|resample|memory|all]   (default: all). Figures print as tables;
# compare the ratios, not the absolute times: these machines are noisy.
set -euo pipefail
cd "$(dirname "$0")/.."
which=${1:-all}

need=()
for tool in sndfile-convert:sndfile-programs sox:sox ffmpeg:ffmpeg hyperfine:hyperfine /usr/bin/time:time; do
    command -v "${tool%%:*}" >/dev/null || need+=("${tool##*:}")
done
if [ ${#need[@]} -gt 0 ]; then
    sudo=$([ "$(id -u)" = 0 ] || echo sudo)
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
fi

swift build -c release >/dev/null
aurender=$PWD/.build/release/aurender
work=bench/out
mkdir -p "$work"

# A stereo 44.1 kHz 16-bit WAV of pink noise with a tone, MINUTES long, made once.
make_input() {
    local minutes=$1 path="$work/input-${1}min.wav"
    [ -f "$path" ] || sox -n -r 44100 -c 2 -b 16 "$path" synth "$((minutes * 60))" pinknoise synth sine mix 440 vol 0.4
    echo "$path"
}

passthrough() {
    local input
    input=$(make_input 10)
    echo "## Pass-through, 10-minute stereo 44.1 kHz 16-bit WAV (wall time; lower is better)"
    hyperfine --warmup 2 --runs 10 -N --export-markdown "$work/passthrough.md" \
        -n sndfile-convert "sndfile-convert $input $work/sf.wav" \
        -n aurender "$aurender $input $work/au.wav" >/dev/null
    cat "$work/passthrough.md"
    cmp -s "$work/sf.wav" "$work/au.wav" && echo "outputs are byte-identical" || echo "outputs differ"
}

eq() {
    local input bands_ff="" bands_sox=""
    input=$(make_input 10)
    # The five non-zero bands of the Bass Booster preset, as FFmpeg and SoX filters (Q = 1.414).
    for band in 32:5.5 64:4.5 125:3.5 250:2.5 500:1.25; do
        bands_ff+="${bands_ff:+,}equalizer=f=${band%%:*}:t=q:w=1.414:g=${band##*:}"
        bands_sox+=" equalizer ${band%%:*} 1.414q ${band##*:}"
    done
    echo "## Bass Booster EQ, 10-minute stereo 44.1 kHz 16-bit WAV (wall time; lower is better)"
    hyperfine --warmup 1 --runs 8 -N --export-markdown "$work/eq.md" \
        -n sndfile-convert "sndfile-convert $input $work/sf.wav" \
        -n "aurender (accurate)" "$aurender --eq 'Bass Booster' $input $work/au.wav" \
        -n "aurender (classic)" "$aurender --eq 'Bass Booster' --eq-mode classic $input $work/au.wav" \
        -n "ffmpeg -filter_threads 1" "ffmpeg -y -v error -filter_threads 1 -i $input -af $bands_ff $work/ff.wav" \
        -n sox "sox $input $work/sx.wav$bands_sox" >/dev/null
    cat "$work/eq.md"
}

resample() {
    local input
    input=$(make_input 3)
    echo "## 44.1 -> 48 kHz, 3-minute stereo 16-bit WAV, libsamplerate best (wall time; lower is better)"
    hyperfine --warmup 1 --runs 5 -N --export-markdown "$work/resample.md" \
        -n "sndfile-resample -c 0" "sndfile-resample -to 48000 -c 0 $input $work/sr.wav" \
        -n "aurender --rate 48000" "$aurender $input $work/au48.wav --rate 48000" \
        -n "sox rate -v" "sox $input $work/sx48.wav rate -v 48000" \
        -n "ffmpeg aresample" "ffmpeg -y -v error -i $input -af aresample=48000 $work/ff48.wav" >/dev/null
    cat "$work/resample.md"
}

memory() {
    echo "## Peak memory (maximum resident set size)"
    echo "| input | aurender pass-through | aurender --eq 'Bass Booster' |"
    echo "|---|---|---|"
    for minutes in 10 60; do
        local input plain eq
        input=$(make_input "$minutes")
        plain=$(/usr/bin/time -f %M "$aurender" "$input" "$work/mem.wav" 2>&1 >/dev/null | tail -1)
        eq=$(/usr/bin/time -f %M "$aurender" --eq "Bass Booster" "$input" "$work/mem.wav" 2>&1 >/dev/null | tail -1)
        echo "| $minutes min | $((plain / 1024)) MB | $((eq / 1024)) MB |"
    done
    rm -f "$work/mem.wav"
}

case $which in
    passthrough) passthrough ;;
    eq) eq ;;
    resample) resample ;;
    memory) memory ;;
    all) passthrough; echo; eq; echo; resample; echo; memory ;;
    *) echo "usage: bench/run.sh [passthrough|eq|resample|memory|all]" >&2; exit 64 ;;
esac
