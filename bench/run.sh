#!/usr/bin/env bash
# Benchmarks aurender side by side with the reference tools, in one run, on generated files.
# Usage: bench/run.sh [passthrough|eq|resample|resample-quality|mix|memory|batch|all]   (default: all). Figures print as tables;
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

# A stereo 44.1 kHz 16-bit WAV of pink noise with a tone, MINUTES long, made once
# (with a second argument, brown noise and another tone: a second, different input).
make_input() {
    local minutes=$1 suffix=${2:+-b} path
    path="$work/input-${1}min${suffix}.wav"
    if [ ! -f "$path" ]; then
        if [ -n "$suffix" ]; then
            sox -n -r 44100 -c 2 -b 16 "$path" synth "$((minutes * 60))" brownnoise synth sine mix 220 vol 0.4
        else
            sox -n -r 44100 -c 2 -b 16 "$path" synth "$((minutes * 60))" pinknoise synth sine mix 440 vol 0.4
        fi
    fi
    echo "$path"
}

# The five non-zero bands of the Bass Booster preset, as FFmpeg and SoX filters (Q = 1.414).
bass_booster_ffmpeg=""
bass_booster_sox=""
for band in 32:5.5 64:4.5 125:3.5 250:2.5 500:1.25; do
    bass_booster_ffmpeg+="${bass_booster_ffmpeg:+,}equalizer=f=${band%%:*}:t=q:w=1.414:g=${band##*:}"
    bass_booster_sox+=" equalizer ${band%%:*} 1.414q ${band##*:}"
done

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
    local input
    input=$(make_input 10)
    echo "## Bass Booster EQ, 10-minute stereo 44.1 kHz 16-bit WAV (wall time; lower is better)"
    hyperfine --warmup 1 --runs 8 -N --export-markdown "$work/eq.md" \
        -n sndfile-convert "sndfile-convert $input $work/sf.wav" \
        -n "aurender (accurate)" "$aurender --eq 'Bass Booster' $input $work/au.wav" \
        -n "aurender (classic)" "$aurender --eq 'Bass Booster' --eq-mode classic $input $work/au.wav" \
        -n "ffmpeg -filter_threads 1" "ffmpeg -y -v error -filter_threads 1 -i $input -af $bass_booster_ffmpeg $work/ff.wav" \
        -n sox "sox $input $work/sx.wav$bass_booster_sox" >/dev/null
    cat "$work/eq.md"
}

resample() {
    local input down
    input=$(make_input 3)
    down=$work/input-3min-48k.wav
    [ -f "$down" ] || sox "$input" "$down" rate -v 48000
    for rates in "44100 48000 $input" "48000 44100 $down"; do
        set -- $rates
        echo "## $1 -> $2 Hz, 3-minute stereo 16-bit WAV (wall time; lower is better)"
        hyperfine --warmup 1 --runs 5 -N --export-markdown "$work/resample-$2.md" \
            -n "aurender --rate $2 (soxr best)" "$aurender $3 $work/au-$2.wav --rate $2" \
            -n "aurender --rate $2 --resampler libsamplerate (best)" "$aurender $3 $work/au-lsr-$2.wav --rate $2 --resampler libsamplerate" \
            -n "sox rate -v" "sox $3 $work/sx-$2.wav rate -v $2" \
            -n "ffmpeg aresample" "ffmpeg -y -v error -i $3 -af aresample=$2 $work/ff-$2.wav" >/dev/null
        cat "$work/resample-$2.md"
        echo "peak memory of aurender --rate $2: $(( $(/usr/bin/time -f %M "$aurender" "$3" "$work/au-$2.wav" --rate "$2" 2>&1 >/dev/null | tail -1) / 1024 )) MB"
        echo
    done
}

# The quality table: 48 -> 44.1 kHz through each aurender engine and quality, SoX and FFmpeg,
# measured by bench/resample_quality.py (python3 with numpy).
resample_quality() {
    python3 -c "import numpy" 2>/dev/null || {
        sudo=$([ "$(id -u)" = 0 ] || echo sudo)
        $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-numpy; }
    echo "## 48 -> 44.1 kHz quality (float32 in and out)"
    echo "| converter | passband ripple to 19.8 kHz | -0.1 dB up to | -3 dB at | 23 kHz tone left | THD+N, 1 kHz at -1 dBFS |"
    echo "|---|---|---|---|---|---|"
    local engine quality
    for engine in soxr libsamplerate; do
        for quality in best high medium fastest; do
            [ "$engine/$quality" = libsamplerate/high ] && continue
            python3 bench/resample_quality.py "$work" "aurender $engine $quality" \
                "$aurender {in} {out} --rate 44100 --resampler $engine --src-quality $quality --quiet"
        done
    done
    python3 bench/resample_quality.py "$work" "sox rate -v" "sox {in} -e floating-point -b 32 {out} rate -v 44100"
    python3 bench/resample_quality.py "$work" "sox rate -h" "sox {in} -e floating-point -b 32 {out} rate -h 44100"
    python3 bench/resample_quality.py "$work" "ffmpeg aresample (default)" "ffmpeg -y -v error -i {in} -af aresample=44100 -c:a pcm_f32le {out}"
    rm -f "$work"/q-*.wav
}

mix() {
    local a b
    a=$(make_input 10)
    b=$(make_input 10 second)
    echo "## Mix of two 10-minute stereo files, Bass Booster on the second (wall time; lower is better)"
    hyperfine --warmup 1 --runs 5 -N --export-markdown "$work/mix.md" \
        -n "aurender mix" "$aurender mix $a $b@eq=bass-booster -o $work/mix-au.wav" \
        -n "sox -m (EQ through a pipe)" "bash -c 'sox $b -t wav -$bass_booster_sox | sox -m $a -t wav - $work/mix-sx.wav'" \
        -n "ffmpeg amix normalize=0" "ffmpeg -y -v error -filter_threads 1 -i $a -i $b -filter_complex [1:a]$bass_booster_ffmpeg[b];[0:a][b]amix=inputs=2:normalize=0 $work/mix-ff.wav" >/dev/null
    cat "$work/mix.md"
    echo "peak memory of aurender mix: $(( $(/usr/bin/time -f %M "$aurender" mix "$a" "$b@eq=bass-booster" -o "$work/mix-au.wav" 2>&1 >/dev/null | tail -1) / 1024 )) MB"
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

batch() {
    local folder=$work/batch-in minute
    mkdir -p "$folder"
    for minute in $(seq -w 1 20); do
        [ -f "$folder/take-$minute.wav" ] || sox -n -r 44100 -c 2 -b 16 "$folder/take-$minute.wav" \
            synth 60 pinknoise synth sine mix "$((200 + 37 * 10#$minute))" vol 0.4
    done
    echo "## Twenty 1-minute stereo 44.1 kHz 16-bit WAVs through Bass Booster (wall time; lower is better)"
    hyperfine --warmup 1 --runs 5 -N --export-markdown "$work/batch.md" \
        -n "aurender -j 1" "$aurender --eq 'Bass Booster' -j 1 -o $work/batch-j1 $folder" \
        -n "aurender -j 2" "$aurender --eq 'Bass Booster' -j 2 -o $work/batch-j2 $folder" \
        -n "aurender -j 1 held to one core (taskset)" "taskset -c 0 $aurender --eq 'Bass Booster' -j 1 -o $work/batch-t1 $folder" \
        -n "shell loop of ffmpeg -filter_threads 1" \
        "bash -c 'mkdir -p $work/batch-ff; for f in $folder/*.wav; do ffmpeg -y -v error -filter_threads 1 -i \$f -af $bass_booster_ffmpeg $work/batch-ff/\${f##*/} || exit; done'" >/dev/null
    cat "$work/batch.md"
    for jobs in 1 2; do
        /usr/bin/time -f "aurender -j $jobs: %e s wall, %U s user + %S s system = %P of one core" \
            "$aurender" --eq 'Bass Booster' -j "$jobs" -o "$work/batch-j$jobs" "$folder"
    done
    cmp -s "$work/batch-j1/take-07.wav" "$work/batch-j2/take-07.wav" && echo "-j 1 and -j 2 outputs are byte-identical" || echo "-j 1 and -j 2 outputs differ"
}

case $which in
    passthrough) passthrough ;;
    eq) eq ;;
    resample) resample ;;
    resample-quality) resample_quality ;;
    mix) mix ;;
    memory) memory ;;
    batch) batch ;;
    all) passthrough; echo; eq; echo; resample; echo; resample_quality; echo; mix; echo; memory; echo; batch ;;
    *) echo "usage: bench/run.sh [passthrough|eq|resample|resample-quality|mix|memory|batch|all]" >&2; exit 64 ;;
esac
