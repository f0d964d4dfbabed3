#!/usr/bin/env bash
# Benchmarks aurender side by side with the reference tools, in one run, on generated files.
# Usage: bench/run.sh [kernels|instructions|sketch|passthrough|eq|resample|resample-quality|mix|memory|batch|plugin|mp3|effects|convolution|spatial|reports|codecs|tags|loudness|diff|all]   (default: all).
# Figures print as tables; compare the ratios, not the absolute times: these machines are noisy
# (instruction counts are not). `kernels` fails when the file-edge kernels lost their vector code.
set -euo pipefail
cd "$(dirname "$0")/.."
which=${1:-all}

need=()
for tool in sndfile-convert:sndfile-programs sox:sox ffmpeg:ffmpeg mpg123:mpg123 flac:flac oggenc:vorbis-tools opusenc:opus-tools lame:lame hyperfine:hyperfine /usr/bin/time:time valgrind:valgrind; do
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

# The release build's file-edge kernels must hold packed SIMD instructions (SSE2 `...ps`/`p...`
# on xmm, AVX2 on ymm, NEON on v registers); then a C check, built as the package builds the
# kernels, compares their baseline and widest paths on awkward data, bit for bit.
kernels() {
    echo "## File-edge kernels in the release build (packed instructions in each)"
    local failed=0 kernel count
    for kernel in aurender_quantize_s16 aurender_quantize_s32 aurender_interleave_float aurender_deinterleave_s16 \
                  aurender_quantize_s16_wide aurender_quantize_s32_wide; do
        count=$(objdump -d --no-show-raw-insn "$aurender" | awk "/<$kernel>:/,/^\$/" \
            | grep -cE '\b(v?(add|sub|mul|min|max|cmp[a-z]*|and|andn|or|xor)p[sd]|v?p(add|sub|and|or|xor|cmp[a-z]+|max|min|sll|srl|sra|shuf|unpck|pack)[a-z]*|(fadd|fmul|fmin|fmax|fcm[a-z]+|add|cmgt|smax) v[0-9]+\.[0-9]+[sd])\b' || true)
        case $kernel in *_wide) [ "$(uname -m)" = x86_64 ] || continue ;; esac
        echo "$kernel: $count packed instructions"
        [ "$count" -ge 16 ] || { echo "  FAIL: $kernel is scalar code" >&2; failed=1; }
    done
    if [ "$(uname -m)" = x86_64 ]; then
        count=$(objdump -d --no-show-raw-insn "$aurender" | awk '/<aurender_biquad_pairs_wide>:/,/^$/' \
            | grep -cE '\bv(mul|add|sub)pd\b.*%ymm' || true)
        echo "aurender_biquad_pairs_wide: $count packed 4-Double instructions (the EQ's two-stage pipeline)"
        [ "$count" -ge 9 ] || { echo "  FAIL: the EQ cascade's AVX2 instance lost its pipeline" >&2; failed=1; }
    fi
    cc=$(command -v clang || echo cc)
    $cc -O2 -I Sources/CAudioKernels/include bench/kernel-paths.c Sources/CAudioKernels/SampleKernels.c -o "$work/kernel-paths"
    "$work/kernel-paths" || failed=1
    return $failed
}

# Instructions per frame (callgrind, on a stripped copy: valgrind cannot read the debug information)
# on a 1-minute stereo 44.1 kHz 16-bit file, with sndfile-convert as the floor.
instructions() {
    local input frames stripped=$work/aurender-stripped a b
    input=$(make_input 1)
    b=$(make_input 1 second)
    frames=$(soxi -s "$input")
    strip -o "$stripped" "$aurender"
    echo "## Instructions per frame, 1-minute stereo 44.1 kHz 16-bit WAV ($frames frames; callgrind)"
    echo "| command | instructions | per frame |"
    echo "|---|---|---|"
    count() {
        local label=$1 refs
        shift
        refs=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | awk '/I *refs:/ {gsub(",", "", $NF); print $NF}')
        awk -v l="$label" -v r="$refs" -v f="$frames" 'BEGIN { printf "| `%s` | %.1f M | %.1f |\n", l, r / 1e6, r / f }'
        per_frame=$(awk -v r="$refs" -v f="$frames" 'BEGIN { printf "%.1f", r / f }')
    }
    # Issue 16's targets: a kernel that falls back to slower code shows here first.
    at_most() {
        awk -v p="$per_frame" -v t="$2" 'BEGIN { exit !(p <= t) }' \
            || { echo "FAIL: $1 takes $per_frame instructions a frame, over the target of $2" >&2; failed=1; }
    }
    local per_frame failed=0
    count "sndfile-convert in.wav out.wav" sndfile-convert "$input" "$work/sf1.wav"
    count "aurender in.wav out.wav" "$stripped" "$input" "$work/au1.wav"
    at_most "the pass-through" 45
    cmp -s "$work/sf1.wav" "$work/au1.wav" || echo "FAIL: the pass-through differs from sndfile-convert's output" >&2
    count "aurender --eq 'Bass Booster' in.wav out.wav" "$stripped" --eq "Bass Booster" "$input" "$work/au1.wav"
    at_most "Bass Booster" 110
    count "aurender mix a.wav b.wav@eq=bass-booster -o out.wav" "$stripped" mix "$input" "$b@eq=bass-booster" -o "$work/mix1.wav"
    count "aurender --rate 48000 in.wav out.wav" "$stripped" --rate 48000 "$input" "$work/au48-1.wav"
    count "aurender --rate 48000 --resampler libsamplerate in.wav out.wav" "$stripped" --rate 48000 --resampler libsamplerate \
        "$input" "$work/au48-1.wav"
    return "$failed"
}

# The analysis module's cost under callgrind: the instructions a frame a SignalSketcher adds, for
# one minute of stereo 44.1 kHz noise (the SketchBenchmark product), with the stream's length
# known and unknown; the noise's generation, measured alone, is subtracted. Fails when a sketcher
# takes more than SKETCH_LIMIT instructions a frame (what was reached, 34.5, and a margin).
SKETCH_LIMIT=40
sketch() {
    local stripped=$work/sketch-stripped frames=2646000 base total mode failed=0
    swift build -c release --product SketchBenchmark >/dev/null
    strip -o "$stripped" .build/release/SketchBenchmark
    echo "## SignalSketcher, 1 minute of stereo 44.1 kHz noise in blocks of 4096 frames (callgrind)"
    echo "| length | instructions | per frame |"
    echo "|---|---|---|"
    refs() {
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$stripped" "$1" 2>&1 >/dev/null \
            | awk '/Collected :/ {print $NF}'
    }
    base=$(refs none)
    for mode in sketch unknown; do
        total=$(refs "$mode")
        awk -v m="$mode" -v t="$total" -v b="$base" -v f="$frames" \
            'BEGIN { printf "| %s | %.1f M | %.2f |\n", m == "sketch" ? "known" : "unknown", (t - b) / 1e6, (t - b) / f }'
        awk -v t="$total" -v b="$base" -v f="$frames" -v l="$SKETCH_LIMIT" 'BEGIN { exit !((t - b) / f <= l) }' \
            || { echo "FAIL: a sketcher ($mode) takes over $SKETCH_LIMIT instructions a frame" >&2; failed=1; }
    done
    return "$failed"
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

# Twenty 1-minute stereo 44.1 kHz 16-bit WAVs (pink noise and a tone each) in one folder; prints the folder.
batch_inputs() {
    local folder=$work/batch-in minute
    mkdir -p "$folder"
    for minute in $(seq -w 1 20); do
        [ -f "$folder/take-$minute.wav" ] || sox -n -r 44100 -c 2 -b 16 "$folder/take-$minute.wav" \
            synth 60 pinknoise synth sine mix "$((200 + 37 * 10#$minute))" vol 0.4
    done
    echo "$folder"
}

batch() {
    local folder
    folder=$(batch_inputs)
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

# One LV2 plugin (fomp's parametric EQ, one band +6 dB at 1 kHz) and one LADSPA plugin
# (ladspa-sdk's amp_stereo at -6 dB) on a 10-minute stereo file: aurender beside FFmpeg's lv2 and
# ladspa filters and SoX's ladspa effect (both plugins come with `make deps`).
plugin() {
    local input fomp=http://drobilla.net/plugins/fomp/parametric1
    # FFmpeg's filter syntax needs the URI's colon escaped twice (graph, then option).
    local fflv2='lv2=p=http\\://drobilla.net/plugins/fomp/parametric1:c=filter=1|sec_1=1|freq_1=1000|gain_1=6'
    input=$(make_input 10)
    echo "## A 10-minute stereo file through an LV2 and a LADSPA plugin (wall time; lower is better)"
    hyperfine --warmup 1 --runs 5 -N --export-markdown "$work/plugin.md" \
        -n "aurender --plugin fomp parametric1" "$aurender --quiet --plugin $fomp@filter=1,sec_1=1,freq_1=1000,gain_1=6 $input $work/pl-au.wav" \
        -n "ffmpeg -af lv2 (fomp parametric1)" "ffmpeg -y -v error -i $input -af '$fflv2' $work/pl-ff.wav" \
        -n "aurender --plugin ladspa:amp_stereo" "$aurender --quiet --plugin ladspa:amp_stereo@gain=0.5 $input $work/pl-au2.wav" \
        -n "sox ladspa amp_stereo" "sox $input $work/pl-sx.wav ladspa /usr/lib/ladspa/amp.so amp_stereo 0.5" \
        -n "ffmpeg -af ladspa (amp_stereo)" "ffmpeg -y -v error -i $input -af ladspa=f=amp:p=amp_stereo:c=c0=0.5 $work/pl-ff2.wav" >/dev/null
    cat "$work/plugin.md"
    echo "peak memory of aurender --plugin (LV2): $(( $(/usr/bin/time -f %M "$aurender" --quiet --plugin "$fomp@filter=1,sec_1=1,freq_1=1000,gain_1=6" "$input" "$work/pl-au.wav" 2>&1 >/dev/null | tail -1) / 1024 )) MB"
    echo "peak memory of ffmpeg -af lv2: $(( $(/usr/bin/time -f %M ffmpeg -y -v error -i "$input" -af "$fflv2" "$work/pl-ff.wav" 2>&1 >/dev/null | tail -1) / 1024 )) MB"
    rm -f "$work"/pl-*.wav
}

# MP3 decoding: a 10-minute stereo 192 kb/s MP3 (FFmpeg's libmp3lame) to WAV, aurender (libmpg123)
# beside mpg123's own command line (16-bit, and 32-bit float) and FFmpeg.
mp3() {
    local input mp3=$work/input-10min.mp3
    input=$(make_input 10)
    [ -f "$mp3" ] || ffmpeg -v error -i "$input" -c:a libmp3lame -b:a 192k "$mp3"
    echo "## Decoding a 10-minute stereo 192 kb/s MP3 to WAV (wall time; lower is better)"
    hyperfine --warmup 1 --runs 8 -N --export-markdown "$work/mp3.md" \
        -n "aurender x.mp3 out.wav" "$aurender --quiet $mp3 $work/mp3-au.wav" \
        -n "mpg123 -w out.wav x.mp3" "mpg123 -q -w $work/mp3-mp.wav $mp3" \
        -n "aurender --bits float" "$aurender --quiet --bits float $mp3 $work/mp3-auf.wav" \
        -n "mpg123 -e f32 -w" "mpg123 -q -e f32 -w $work/mp3-mpf.wav $mp3" \
        -n "ffmpeg -i x.mp3 out.wav" "ffmpeg -y -v error -i $mp3 $work/mp3-ff.wav" >/dev/null
    cat "$work/mp3.md"
    rm -f "$work"/mp3-*.wav
}

# Issue 24's and 29's effects, each beside SoX's and FFmpeg's equivalent on the 10-minute file (whole-process
# median wall times of one hyperfine run each, so the ratios compare like with like; no tool
# dithers, as SoX's -D and FFmpeg's default do not, so the work is the same), then the
# instructions each command takes on the 1-minute file (callgrind) and its peak memory. A row
# fails when aurender misses its target, TARGET times faster than the faster of the others (0: the
# issue set none), or peaks at 30 MB or more.
effects() {
    local input input1 stripped=$work/aurender-stripped failed=0
    input=$(make_input 10)
    input1=$(make_input 1)
    strip -o "$stripped" "$aurender"
    echo "## Effects, 10-minute stereo 44.1 kHz 16-bit WAV (median wall time of 5 runs; instructions on the 1-minute file)"
    echo "| effect | aurender | SoX | FFmpeg | faster peer ÷ aurender | target | aurender instructions | SoX instructions | FFmpeg instructions | aurender peak memory |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    # row NAME TARGET "AURENDER FLAGS" "SOX EFFECT" "FFMPEG FILTER" (an empty effect or filter: that tool has none)
    row() {
        local name=$1 target=$2 flags=$3 sox_effect=$4 ffmpeg_filter=$5 json=$work/effect.json
        local -a commands=(-n aurender "$aurender --quiet --dither none $flags $input $work/fx-au.wav")
        [ -n "$sox_effect" ] && commands+=(-n sox "sox -D $input $work/fx-sx.wav $sox_effect")
        [ -n "$ffmpeg_filter" ] && commands+=(-n ffmpeg "ffmpeg -y -v error -filter_threads 1 -i $input -af $ffmpeg_filter $work/fx-ff.wav")
        hyperfine --warmup 1 --runs 5 -N --export-json "$json" "${commands[@]}" >/dev/null
        instr() {
            [ -n "$2" ] || { echo "—"; return; }
            valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null \
                | awk '/I *refs:/ {gsub(",", "", $NF); printf "%.0f M", $NF / 1e6}'
        }
        local au_i sx_i ff_i memory
        au_i=$(instr "$stripped" --quiet --dither none $flags "$input1" "$work/fx-au1.wav")
        sx_i=$([ -n "$sox_effect" ] && instr sox -D "$input1" "$work/fx-sx1.wav" $sox_effect || echo "—")
        ff_i=$([ -n "$ffmpeg_filter" ] && instr ffmpeg -y -v error -filter_threads 1 -i "$input1" -af "$ffmpeg_filter" "$work/fx-ff1.wav" || echo "—")
        memory=$(/usr/bin/time -f %M "$aurender" --quiet --dither none $flags "$input" "$work/fx-au.wav" 2>&1 >/dev/null | tail -1)
        python3 - "$json" "$name" "$target" "$au_i" "$sx_i" "$ff_i" "$memory" <<'PY' || failed=1
import json, sys
path, name, target, au_i, sx_i, ff_i, memory = sys.argv[1:]
medians = {r["command"]: r["median"] for r in json.load(open(path))["results"]}
peers = [medians[k] for k in ("sox", "ffmpeg") if k in medians]
ratio = min(peers) / medians["aurender"]
cell = lambda key: "%.2f s" % medians[key] if key in medians else "—"
print("| %s | %s | %s | %s | %.1f× | %s | %s | %s | %s | %.1f MB |" % (name, cell("aurender"), cell("sox"), cell("ffmpeg"), ratio,
                                                                       target + "×" if float(target) > 0 else "none",
                                                                         au_i, sx_i, ff_i, int(memory) / 1024))
if float(target) > 0 and ratio < float(target):
    print("  FAIL: %s is %.1f× the faster peer, under its target of %s×" % (name, ratio, target), file=sys.stderr)
    sys.exit(1)
if int(memory) / 1024 >= 30:
    print("  FAIL: %s peaks at %.1f MB, over 30 MB" % (name, int(memory) / 1024), file=sys.stderr)
    sys.exit(1)
PY
    }
    row "high-pass 100 Hz" 3 "--highpass 100" "highpass 100" "highpass=f=100"
    row "peak 1 kHz +6 dB Q 1" 3 "--filter peak@1k:6:1" "equalizer 1000 1q 6" "equalizer=f=1000:t=q:w=1:g=6"
    row "bass +6 dB" 3 "--bass 6" "bass 6" "bass=g=6:f=100:t=s:w=0.5"
    row "compressor -20 dB 4:1" 3 "--compress -20:4:10ms:100ms:0" "compand 0.01,0.1 -70,-70,-20,-20,0,-15" \
        "acompressor=threshold=0.1:ratio=4:attack=10:release=100:knee=1"
    row "true-peak limiter -1 dBTP" 1.5 "--limit -1" "" "alimiter=limit=0.891:attack=5:release=50:level=false"
    row "limiter, driven 6 dB into it" 1.5 "--gain 6 --limit -1" "" "volume=6dB,alimiter=limit=0.891:attack=5:release=50:level=false"
    row "gate -50 dB" 0 "--gate -50" "" "agate=threshold=0.00316:attack=1:release=100:range=0.0001"
    # Issue 29's effects: the soft clipper driven 20 dB (aurender 4x oversampled, FFmpeg and SoX at
    # the file's rate), an 8-bit crusher, a 300 ms echo, and a medium hall at 50 % wet.
    row "distortion, soft clip +20 dB" 3 "--distort 20" "overdrive 20" "volume=20dB,asoftclip=type=tanh"
    row "distortion, 8-bit crush" 3 "--distort 0:crush8" "" "acrusher=bits=8:mode=lin:aa=0"
    row "delay 300 ms, 50 % feedback" 3 "--delay 0.3:50:50" "echo 1 1 300 0.5" "aecho=in_gain=1:out_gain=1:delays=300:decays=0.5"
    row "reverb, medium hall" 3 "--reverb mediumhall:50" "reverb 50" ""
    # Issue 29's voice unit: WebRTC's noise suppression (resampled to 48 kHz and back) beside FFmpeg's FFT denoiser.
    row "noise suppression (voice, high)" 1 "--denoise high" "" "afftdn"
    echo
    convolution || failed=1
    rm -f "$work"/fx-*.wav
    return $failed
}

# Issue 29's convolution: a 2-second stereo impulse response (decaying noise) on a 2-minute
# 48 kHz stereo 16-bit WAV, beside FFmpeg's afir with its own threads (it uses both cores), in one
# hyperfine run (median wall time, mean CPU time), then aurender's peak memory. Fails when aurender
# is slower than afir or peaks at 40 MB or more.
convolution() {
    local input=$work/input-2min-48k.wav ir=$work/ir-2s-48k.wav json=$work/convolution.json memory
    [ -f "$input" ] || sox -n -r 48000 -c 2 -b 16 "$input" synth 120 pinknoise synth sine mix 440 vol 0.4
    [ -f "$ir" ] || sox -n -r 48000 -c 2 -b 24 "$ir" synth 2 whitenoise fade l 0 2 2 vol 0.1
    echo "## Convolution, 2-minute stereo 48 kHz 16-bit WAV with a 2-second stereo impulse response (median wall time of 5 runs)"
    hyperfine --warmup 1 --runs 5 -N --export-json "$json" \
        -n aurender "$aurender --quiet --dither none --convolve $ir $input $work/fx-conv-au.wav" \
        -n afir "ffmpeg -y -v error -i $input -i $ir -filter_complex [0:a][1:a]afir $work/fx-conv-ff.wav" >/dev/null
    memory=$(/usr/bin/time -f %M "$aurender" --quiet --dither none --convolve "$ir" "$input" "$work/fx-conv-au.wav" 2>&1 >/dev/null | tail -1)
    python3 - "$json" "$memory" <<'PY'
import json, sys
path, memory = sys.argv[1:]
results = {r["command"]: r for r in json.load(open(path))["results"]}
au, ff = results["aurender"], results["afir"]
print("| command | wall | CPU (user + system) | peak memory |")
print("|---|---|---|---|")
print("| `aurender --convolve ir.wav in.wav out.wav` | %.2f s | %.2f s | %.1f MB |" % (au["median"], au["user"] + au["system"], int(memory) / 1024))
print("| `ffmpeg -i in.wav -i ir.wav -filter_complex afir out.wav` | %.2f s | %.2f s | |" % (ff["median"], ff["user"] + ff["system"]))
ratio = ff["median"] / au["median"]
print("\nafir ÷ aurender: %.2f× (target: at least 1×)" % ratio)
if ratio < 1:
    print("  FAIL: the convolution is slower than afir", file=sys.stderr)
    sys.exit(1)
if int(memory) / 1024 >= 40:
    print("  FAIL: the convolution peaks at %.1f MB, over 40 MB" % (int(memory) / 1024), file=sys.stderr)
    sys.exit(1)
PY
}

# The spatial node: a 10-minute 48 kHz 5.1 file to binaural beside FFmpeg's sofalizer with the
# same SOFA file (fails unless aurender is at least 2x faster and peaks under 40 MB), 16 moving mono
# sources for 10 minutes to binaural (x real time), and the two binaural renders compared per ear.
spatial() {
    local input=$work/input-10min-51.wav mono=$work/input-10min-mono.wav graph=$work/spatial-16.json json=$work/spatial.json
    local sofa=/usr/share/libmysofa/MIT_KEMAR_normal_pinna.sofa memory moving
    # Six independent pink noises (SoX's synth gives every channel the same noise), joined as 5.1.
    [ -f "$input" ] || ffmpeg -v error -y $(for seed in 1 2 3 4 5 6; do echo "-f lavfi -i anoisesrc=d=600:c=pink:r=48000:a=0.3:seed=$seed"; done) \
        -filter_complex "join=inputs=6:channel_layout=5.1" -c:a pcm_s16le "$input"
    [ -f "$mono" ] || sox -n -r 48000 -c 1 -b 16 "$mono" synth 600 pinknoise vol 0.3
    echo "## Spatial: 10-minute 48 kHz 5.1 16-bit WAV to binaural, $sofa (median wall time of 3 runs)"
    hyperfine --warmup 1 --runs 3 -N --export-json "$json" \
        -n aurender "$aurender --quiet --dither none --bits float $input $work/spatial-au.wav --binaural --sofa $sofa" \
        -n sofalizer "ffmpeg -y -v error -i $input -af sofalizer=sofa=$sofa:type=freq -c:a pcm_f32le $work/spatial-ff.wav" >/dev/null
    memory=$(/usr/bin/time -f %M "$aurender" --quiet --dither none --bits float "$input" "$work/spatial-au.wav" --binaural --sofa "$sofa" 2>&1 >/dev/null | tail -1)
    # For the comparison, sofalizer's output back at 48 kHz (it runs at the SOFA file's 44.1 kHz, so FFmpeg
    # resamples its input), as it is and with aurender's speaker angles (its 5.1 puts the back pair at ±150°).
    ffmpeg -y -v error -i "$input" -af "sofalizer=sofa=$sofa:type=freq,aresample=48000" -c:a pcm_f32le "$work/spatial-ff.wav"
    ffmpeg -y -v error -i "$input" -af "sofalizer=sofa=$sofa:type=freq:speakers=BL 110|BR 250,aresample=48000" -c:a pcm_f32le "$work/spatial-ff110.wav"
    python3 - "$graph" "$PWD/$mono" <<'PY'
import json, sys
graph, mono = sys.argv[1:]
nodes = [{"name": "s%d" % i, "type": "file", "path": mono} for i in range(16)]
nodes.append({"name": "room", "type": "spatial", "rendering": "binaural",
              "buses": [{"azimuth": -180 + 22.5 * i, "distance": 1 + i % 4} for i in range(16)]})
nodes.append({"name": "out", "type": "output", "path": "spatial-16.wav", "bits": "float"})
connections = [{"from": "s%d" % i, "to": "room", "bus": i} for i in range(16)] + [{"from": "room", "to": "out"}]
# Each source circles the listener once a minute, moved every 100 ms (staggered), 96,000 events.
events = [{"at": round(0.1 * step + 0.00625 * i, 5), "node": "room", "parameter": "azimuth[%d]" % i,
           "value": round((-180 + 22.5 * i + 0.6 * step + 180) % 360 - 180, 3)} for i in range(16) for step in range(6000)]
json.dump({"nodes": nodes, "connections": connections, "events": events}, open(graph, "w"))
PY
    moving=$( { /usr/bin/time -f "%e %M" "$aurender" --quiet --dither none "$graph" >/dev/null; } 2>&1 | tail -1)
    python3 - "$json" "$memory" "$moving" "$work/spatial-au.wav" "$work/spatial-ff.wav" "$work/spatial-ff110.wav" <<'PY'
import json, sys, wave
import numpy as np
path, memory, moving, au_path, ff_path, ff110_path = sys.argv[1:]
results = {r["command"]: r for r in json.load(open(path))["results"]}
au, ff = results["aurender"], results["sofalizer"]
print("| command | wall | CPU (user + system) | peak memory |")
print("|---|---|---|---|")
print("| `aurender in51.wav out.wav --binaural --sofa KEMAR` | %.2f s | %.2f s | %.1f MB |" % (au["median"], au["user"] + au["system"], int(memory) / 1024))
print("| `ffmpeg -i in51.wav -af sofalizer=sofa=KEMAR:type=freq out.wav` (written at the SOFA file's 44.1 kHz) | %.2f s | %.2f s | |" % (ff["median"], ff["user"] + ff["system"]))
seconds, kilobytes = moving.split()
print("\n16 moving mono sources (96,000 azimuth events), 10 minutes to binaural: %s s wall, %.0f× real time, %.1f MB peak"
      % (seconds, 600 / float(seconds), int(kilobytes) / 1024))

def read(path):
    # 32-bit float WAV (format 3 or WAVE_FORMAT_EXTENSIBLE): find the data chunk by hand.
    data = open(path, "rb").read()
    position = 12
    while position < len(data):
        tag, size = data[position:position + 4], int.from_bytes(data[position + 4:position + 8], "little")
        if tag == b"data":
            return np.frombuffer(data[position + 8:position + 8 + size], dtype="<f4").reshape(-1, 2).astype(np.float64)
        position += 8 + size + (size & 1)
    raise SystemExit("no data chunk in " + path)

a = read(au_path)
for label, other in (("sofalizer as it is (back pair at ±150°)", read(ff_path)), ("sofalizer with BL 110, BR 250", read(ff110_path))):
    frames = min(len(a), len(other))
    print("\naurender vs %s, per ear:" % label)
    for ear, name in ((0, "left"), (1, "right")):
        x, y = a[:frames, ear], other[:frames, ear]
        lags = range(-64, 65)
        segment = slice(48000, 48000 * 31)
        best = max(lags, key=lambda k: np.dot(x[segment], np.roll(y, -k)[segment]))
        yy = np.roll(y, -best)
        correlation = np.corrcoef(x[segment], yy[segment])[0, 1]
        level = 10 * np.log10(np.mean(x ** 2) / np.mean(y ** 2))
        print("  %s ear: correlation %.4f at lag %d frames, aurender %+.2f dB louder" % (name, correlation, best, level))
ratio = ff["median"] / au["median"]
print("\nsofalizer ÷ aurender: %.2f× (target: at least 2×)" % ratio)
failed = False
if ratio < 2:
    print("  FAIL: the binaural render is not 2x faster than sofalizer", file=sys.stderr)
    failed = True
if int(memory) / 1024 >= 40:
    print("  FAIL: the binaural render peaks at %.1f MB, over 40 MB" % (int(memory) / 1024), file=sys.stderr)
    failed = True
sys.exit(1 if failed else 0)
PY
}

# What a batch's reports cost: the same batch with no report, a JSON report, and a page with
# its pictures plus JUnit; fails when the page and JUnit add 10 % or more to the wall time.
reports() {
    local folder json=$work/reports.json stripped=$work/aurender-stripped
    folder=$(batch_inputs)
    strip -o "$stripped" "$aurender"
    strip --strip-debug -o "$work/aurender-symbols" "$aurender"
    echo "## Reports on a batch of twenty 1-minute stereo 44.1 kHz 16-bit WAVs through Bass Booster, -j 2 (median of 7 runs)"
    hyperfine --warmup 1 --runs 7 -N --export-json "$json" \
        -n none "$aurender --quiet --eq 'Bass Booster' -j 2 -o $work/reports-out $folder" \
        -n json "$aurender --quiet --eq 'Bass Booster' -j 2 -o $work/reports-out $folder --report $work/r.json" \
        -n page "$aurender --quiet --eq 'Bass Booster' -j 2 -o $work/reports-out $folder --report $work/r.html --junit $work/r.xml" >/dev/null
    local plain page
    plain=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$stripped" --quiet --eq 'Bass Booster' "$folder/take-01.wav" "$work/r1.wav" 2>&1 \
        | awk '/I *refs:/ {gsub(",", "", $NF); print $NF}')
    page=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$stripped" --quiet --eq 'Bass Booster' "$folder/take-01.wav" "$work/r1.wav" \
        --report "$work/r1.html" 2>&1 | awk '/I *refs:/ {gsub(",", "", $NF); print $NF}')
    # Where the page's instructions go: the pictures (outline, spectrum) and the levels (loudness, true peak).
    local parts
    parts=$(valgrind --tool=callgrind --callgrind-out-file="$work/reports.cg" "$work/aurender-symbols" --quiet --eq 'Bass Booster' \
        "$folder/take-01.wav" "$work/r1.wav" --report "$work/r1.html" >/dev/null 2>&1 && callgrind_annotate "$work/reports.cg" 2>/dev/null \
        | awk '/outline_accumulate|WelchSpectrum|libfftw3f/ {gsub(",", "", $1); pictures += $1}
               /true_peak_scan|two_biquad_energy|GatedLoudness|KWeighting|TruePeakMeter/ {gsub(",", "", $1); levels += $1}
               END {print pictures + 0, levels + 0}')
    python3 - "$json" "$plain" "$page" "$(stat -c %s "$work/r.html")" $parts <<'PY'
import json, sys
path, plain, page, size, pictures, levels = sys.argv[1:]
medians = {r["command"]: r["median"] for r in json.load(open(path))["results"]}
print("| report | wall time | ÷ no report |")
print("|---|---|---|")
for name, label in (("none", "none"), ("json", "`--report r.json`"), ("page", "`--report r.html --junit r.xml`")):
    print("| %s | %.2f s | %.3f |" % (label, medians[name], medians[name] / medians["none"]))
print("\nInstructions, one 1-minute file: %.1f M without a report, %.1f M with the page (%.1f %% more); the page of twenty files: %d kB"
      % (int(plain) / 1e6, int(page) / 1e6, 100 * (int(page) / int(plain) - 1), int(size) / 1000))
print("Of the page's: the pictures (outlines, spectra) %.1f M (%.1f %% of the render without a report), the levels (loudness, true peak) %.1f M (%.1f %%)"
      % (int(pictures) / 1e6, 100 * int(pictures) / int(plain), int(levels) / 1e6, 100 * int(levels) / int(plain)))
overhead = medians["page"] / medians["none"]
if overhead >= 1.10:
    print("  FAIL: the page and JUnit add %.1f %% to the batch's wall time (the limit is 10 %%)" % (100 * (overhead - 1)), file=sys.stderr)
    sys.exit(1)
PY
}

# Issue 28's codec table: each codec decoded to a WAV and encoded from one, on the 10-minute
# stereo file (Opus from and to 48 kHz), aurender beside the codec's reference tool and FFmpeg,
# run in turn (aurender, reference, FFmpeg; then the next round) so that each round's ratios
# compare runs made under the same load: each ratio is the median of the rounds' ratios, each time
# the median of its runs, each peak memory the largest of its runs (/usr/bin/time's %M). "target"
# is issue 28's bound for the job and whether the median ratio met it. "enc share" is the part
# of an encoding render's wall time that the pass-through of the same input does not take:
# about the time the encoder adds.
codecs() {
    local input input48 flac=$work/codec.flac ogg=$work/codec.ogg opus=$work/codec.opus m4a=$work/codec.m4a mp3=$work/codec.mp3
    input=$(make_input 10)
    input48=$work/input-10min-48k.wav
    [ -f "$input48" ] || sox "$input" "$input48" rate -v 48000
    [ -f "$flac" ] || flac -s -5 -o "$flac" "$input"
    [ -f "$ogg" ] || oggenc -Q -q 5 -o "$ogg" "$input"
    [ -f "$opus" ] || opusenc --quiet --bitrate 128 "$input48" "$opus"
    [ -f "$m4a" ] || ffmpeg -v error -i "$input" -c:a aac -b:a 192k "$m4a"
    [ -f "$mp3" ] || lame --silent -b 192 "$input" "$mp3"
    echo "## Codecs, 10-minute stereo 44.1 kHz pink noise (Opus: 48 kHz); rounds of aurender, reference, FFmpeg in turn"
    echo "| job | aurender | reference tool | FFmpeg | ÷ reference | ÷ FFmpeg | target | aurender / reference / FFmpeg peak memory |"
    echo "|---|---|---|---|---|---|---|---|"
    # job NAME ROUNDS "AURENDER ARGS" "REFERENCE COMMAND" "FFMPEG ARGS" "TARGET" (an empty command:
    # no such tool; TARGET: "reference 0.9", "ffmpeg 1.0", both, or empty)
    job() {
        python3 - "$1" "$2" "$aurender --quiet $3" "$4" "${5:+ffmpeg -y -v error $5}" "$6" <<'PY'
import os, shlex, statistics, subprocess, sys, time
name, rounds, au, ref, ff, target = sys.argv[1], int(sys.argv[2]), *sys.argv[3:]
commands = {key: shlex.split(line) for key, line in (("aurender", au), ("reference", ref), ("ffmpeg", ff)) if line}
peak_file = os.path.join(os.environ.get("TMPDIR", "/tmp"), "aurender-codecs-peak-%d" % os.getpid())
def run(argv):
    # /usr/bin/time reports the command's own peak: a child of this Python would count the
    # interpreter's pages, which it shares until it execs.
    started = time.perf_counter()
    status = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", peak_file, *argv],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    wall = time.perf_counter() - started
    if status != 0:
        sys.exit("codecs: %s exited with status %d" % (" ".join(argv), status))
    with open(peak_file) as report:
        return wall, int(report.read().split()[-1]) / 1024
for argv in commands.values():
    run(argv)
walls = {key: [] for key in commands}
peaks = {key: 0.0 for key in commands}
for _ in range(rounds):
    for key, argv in commands.items():
        wall, peak = run(argv)
        walls[key].append(wall)
        peaks[key] = max(peaks[key], peak)
def ratio(key):
    if key not in walls:
        return None
    return statistics.median(a / b for a, b in zip(walls["aurender"], walls[key]))
cell = lambda key: "%.2f s" % statistics.median(walls[key]) if key in walls else "—"
shown = lambda value: "%.2f×" % value if value is not None else "—"
verdicts = []
words = target.split()
for key, bound in zip(words[::2], words[1::2]):
    value = ratio(key)
    verdicts.append("%s ≤ %s×: %s" % ("ref" if key == "reference" else "FFmpeg", bound, "met" if value <= float(bound) else "**not met**"))
memory = " / ".join("%.0f MB" % peaks[key] if key in peaks else "—" for key in ("aurender", "reference", "ffmpeg"))
print("| %s | %s | %s | %s | %s | %s | %s | %s |" % (name, cell("aurender"), cell("reference"), cell("ffmpeg"),
      shown(ratio("reference")), shown(ratio("ffmpeg")), "; ".join(verdicts) or "—", memory))
PY
    }
    local out=$work/codec-out
    job "FLAC decode" 7 "$flac $out.wav" "flac -s -f -d -o $out-ref.wav $flac" "-i $flac $out-ff.wav" "reference 0.9"
    job "Vorbis decode (q 5)" 7 "$ogg $out.wav" "oggdec -Q -o $out-ref.wav $ogg" "-i $ogg $out-ff.wav" "ffmpeg 1.0"
    job "Opus decode (128 kb/s)" 7 "$opus $out.wav" "opusdec --quiet $opus $out-ref.wav" "-i $opus $out-ff.wav" "ffmpeg 1.0"
    job "AAC decode (192 kb/s .m4a)" 7 "$m4a $out.wav" "" "-i $m4a $out-ff.wav" "ffmpeg 0.9"
    job "MP3 decode (192 kb/s)" 7 "$mp3 $out.wav" "mpg123 -q -w $out-ref.wav $mp3" "-i $mp3 $out-ff.wav" "reference 0.9"
    job "FLAC encode (level 5)" 5 "$input $out.flac" "flac -s -f -5 -o $out-ref.flac $input" "-i $input -compression_level 5 $out-ff.flac" \
        "reference 0.6 ffmpeg 0.7"
    job "MP3 encode (192 kb/s CBR)" 3 "$input $out.mp3 --bitrate 192k" "lame --silent -b 192 $input $out-ref.mp3" \
        "-i $input -c:a libmp3lame -b:a 192k $out-ff.mp3" ""
    job "Opus encode (128 kb/s)" 3 "$input48 $out.opus --bitrate 128k" "opusenc --quiet --bitrate 128 $input48 $out-ref.opus" \
        "-i $input48 -c:a libopus -b:a 128k $out-ff.opus" ""
    job "AAC encode (192 kb/s)" 3 "$input $out.m4a --bitrate 192k" "" "-i $input -c:a aac -b:a 192k $out-ff.m4a" ""
    job "Vorbis encode (quality 0.5)" 3 "$input $out.ogg --quality 0.5" "oggenc -Q -q 5 -o $out-ref.ogg $input" \
        "-i $input -c:a libvorbis -q:a 5 $out-ff.ogg" ""
    echo
    local au_size ref_size ff_size
    au_size=$(stat -c %s "$out.flac") ref_size=$(stat -c %s "$out-ref.flac") ff_size=$(stat -c %s "$out-ff.flac")
    python3 -c 'import sys; a, r, f = map(int, sys.argv[1:]); print("FLAC sizes: aurender %d bytes (%+.2f %% of flac -5), flac -5 %d, FFmpeg %d (%+.2f %%)" % (a, 100 * (a / r - 1), r, f, 100 * (f / r - 1)))' \
        "$au_size" "$ref_size" "$ff_size"
    echo
    echo "The encoder's share of an encoding render's wall time (1 − pass-through ÷ encode, medians of 3):"
    local json=$work/codec-share.json
    hyperfine --warmup 1 --runs 3 -N --export-json "$json" \
        -n "pass-through" "$aurender --quiet $input $out.wav" -n "pass-through 48 kHz" "$aurender --quiet $input48 $out.wav" \
        -n MP3 "$aurender --quiet $input $out.mp3 --bitrate 192k" -n AAC "$aurender --quiet $input $out.m4a --bitrate 192k" \
        -n Opus "$aurender --quiet $input48 $out.opus --bitrate 128k" -n Vorbis "$aurender --quiet $input $out.ogg --quality 0.5" >/dev/null
    python3 - "$json" <<'PY'
import json, sys
m = {r["command"]: r["median"] for r in json.load(open(sys.argv[1]))["results"]}
for codec in ("MP3", "AAC", "Opus", "Vorbis"):
    base = m["pass-through 48 kHz" if codec == "Opus" else "pass-through"]
    print("- %s: %.0f %% (%.2f s of %.2f s)" % (codec, 100 * (1 - base / m[codec]), m[codec] - base, m[codec]))
PY
    echo
    echo "FLAC encode on one core (taskset -c 0) and on every core, medians of 3: the parallel encoder's gain"
    hyperfine --warmup 1 --runs 3 -N --export-json "$json" -n "one core" "taskset -c 0 $aurender --quiet $input $out.flac" \
        -n "every core" "$aurender --quiet $input $out.flac" >/dev/null
    python3 - "$json" <<'PY'
import json, sys
m = {r["command"]: r["median"] for r in json.load(open(sys.argv[1]))["results"]}
print("- one core %.2f s, every core %.2f s: %.2f×" % (m["one core"], m["every core"], m["every core"] / m["one core"]))
PY
    rm -f "$out"*
}

# Two hundred 5-second stereo FLACs, each tagged by metaflac (nine keys, one with two values) with
# a 100 kB front cover; prints the folder.
tagged_inputs() {
    local folder=$work/tags-in number
    mkdir -p "$folder"
    [ -f "$work/cover.jpg" ] || head -c 100000 /dev/urandom > "$work/cover.jpg"
    [ -f "$work/tags-tone.wav" ] || sox -n -r 44100 -c 2 -b 16 "$work/tags-tone.wav" synth 5 pinknoise synth sine mix 440 vol 0.4
    for number in $(seq -w 1 200); do
        [ -f "$folder/track-$number.flac" ] && continue
        flac -s -f "$work/tags-tone.wav" -o "$folder/track-$number.flac"
        metaflac --set-tag="TITLE=Track $number" --set-tag=ARTIST=First --set-tag=ARTIST=Second --set-tag=ALBUM=Record \
            --set-tag=ALBUMARTIST=Band --set-tag=DATE=2021 --set-tag="TRACKNUMBER=$number" --set-tag=TRACKTOTAL=200 \
            --set-tag=GENRE=Jazz --set-tag=MUSICBRAINZ_TRACKID=8f3471b5-7e6a-48da-86a9-c1c07a0f47ae \
            --import-picture-from="3|image/jpeg|Cover|500x500x24|$work/cover.jpg" "$folder/track-$number.flac"
    done
    echo "$folder"
}

# What carrying tags costs a batch: 200 tagged FLACs to MP3 with their tags and cover, beside the
# same batch with --no-tags (issue 40's target: within 3 %); then the peak memory of one render
# whose input holds a 20 MB cover (an MP3's) or a 15 MB one (a FLAC's), beside the same render
# with --no-tags (issue 40's target: under 30 MB plus the picture's size).
tags() {
    local folder
    folder=$(tagged_inputs)
    echo "## Two hundred tagged 5-second FLACs to MP3 with -j 2 (wall time; lower is better)"
    hyperfine --warmup 1 --runs 5 -N --export-markdown "$work/tags.md" \
        -n "tags carried" "$aurender -q -j 2 --type mp3 -o $work/tags-out $folder" \
        -n "without tags (--no-tags)" "$aurender -q -j 2 --no-tags --type mp3 -o $work/tags-none $folder" >/dev/null
    cat "$work/tags.md"
    [ -f "$work/cover-20mb.jpg" ] || head -c 20000000 /dev/urandom > "$work/cover-20mb.jpg"
    # metaflac takes no picture past 16 MiB: the 20 MB cover goes into an MP3's APIC, by mutagen.
    local input=$work/big-cover.mp3 output carried bare
    lame --silent "$work/tags-tone.wav" "$input"
    PYTHONPATH=/usr/lib/python3/dist-packages python3 - "$input" "$work/cover-20mb.jpg" <<'PY'
import sys
from mutagen.id3 import ID3, APIC, TIT2
tag = ID3()
tag.add(TIT2(encoding=3, text="Big"))
tag.add(APIC(encoding=3, mime="image/jpeg", type=3, desc="Cover", data=open(sys.argv[2], "rb").read()))
tag.save(sys.argv[1])
PY
    echo
    echo "## Peak memory of one 5-second render whose input holds a large cover (maximum resident set size)"
    # A FLAC holds at most 16 MiB in a picture block: the FLAC row's input has a 15 MB cover.
    [ -f "$work/cover-15mb.jpg" ] || head -c 15000000 /dev/urandom > "$work/cover-15mb.jpg"
    flac -s -f -o "$work/big-cover.flac" "$work/tags-tone.wav"
    metaflac --set-tag=TITLE=Big --import-picture-from="3|image/jpeg|Cover|500x500x24|$work/cover-15mb.jpg" "$work/big-cover.flac"
    echo "| input → output | tags carried | --no-tags |"
    echo "|---|---|---|"
    for pair in mp3:mp3 mp3:m4a mp3:flac mp3:wav mp3:opus flac:flac flac:mp3; do
        local from=${pair%:*} output=${pair#*:}
        carried=$(/usr/bin/time -f %M "$aurender" -q "$work/big-cover.$from" "$work/big-out.$output" 2>&1 >/dev/null | tail -1)
        bare=$(/usr/bin/time -f %M "$aurender" -q --no-tags "$work/big-cover.$from" "$work/big-out.$output" 2>&1 >/dev/null | tail -1)
        echo "| .$from (cover $([ "$from" = flac ] && echo 15 || echo 20) MB) → .$output | $((carried / 1024)) MB | $((bare / 1024)) MB |"
    done
    rm -rf "$work/tags-out" "$work/tags-none" "$work"/big-out.*
}

# A library leveled: 20 FLAC and 20 MP3 files (15 s each, 10 minutes in all, each a different
# level and mix of noise and tone), track and album gains written by aurender and by Debian's
# loudgain (`-a -s e`: ReplayGain 2.0 with reference and ranges) on fresh copies of the same files
# before each run; then each file's track gain by both, which should agree within 0.05 dB.
loudness() {
    command -v loudgain >/dev/null || { sudo=$([ "$(id -u)" = 0 ] || echo sudo); $sudo apt-get install -y -qq loudgain; }
    local library=$work/loudness-library i level
    if [ ! -f "$library/track-40.mp3" ]; then
        mkdir -p "$library"
        for i in $(seq 1 40); do
            level=$(awk "BEGIN { print 0.1 + ($i % 9) * 0.1 }")
            sox -n -r 44100 -c 2 -b 16 "$work/loudness-take.wav" synth 15 pinknoise synth sine mix $((110 * (i % 7 + 1))) \
                tremolo $((i % 5 + 1)) 40 vol "$level"
            if [ "$i" -le 20 ]; then
                flac -s -f -o "$(printf '%s/track-%02d.flac' "$library" "$i")" "$work/loudness-take.wav"
            else
                lame --quiet -b 192 "$work/loudness-take.wav" "$(printf '%s/track-%02d.mp3' "$library" "$i")"
            fi
        done
        rm -f "$work/loudness-take.wav"
    fi
    echo "## Leveling 40 files (20 FLAC, 20 MP3; 10 minutes): track and album gains written (wall time; lower is better)"
    local fresh="rm -rf $work/loudness-copy; cp -r $library $work/loudness-copy"
    hyperfine --warmup 1 --runs 5 -N --export-markdown "$work/loudness.md" \
        --prepare "bash -c '$fresh'" \
        -n "aurender loudness --write -j 2" "$aurender loudness --write -j 2 $work/loudness-copy" \
        -n "aurender loudness --write -j 1 held to one core (taskset)" "taskset -c 0 $aurender loudness --write -j 1 $work/loudness-copy" \
        -n "loudgain -a -s e" "bash -c 'loudgain -q -a -s e $work/loudness-copy/*'" >/dev/null
    cat "$work/loudness.md"
    # Track gains side by side: aurender's --json, loudgain's -O table (its Gain column).
    bash -c "$fresh"
    "$aurender" loudness --json -j 2 "$work/loudness-copy" > "$work/loudness-aurender.json"
    loudgain -q -a -O "$work/loudness-copy"/* > "$work/loudness-loudgain.tsv"
    python3 - "$work/loudness-aurender.json" "$work/loudness-loudgain.tsv" <<'PY'
import json, os, sys
ours = {os.path.basename(t["path"]): t for t in json.load(open(sys.argv[1]))["tracks"]}
worst, rows = 0.0, []
for line in open(sys.argv[2]):
    cells = line.rstrip("\n").split("\t")
    if cells[0] == "File" or cells[0] == "Album":
        continue
    name = os.path.basename(cells[0])
    if name not in ours:
        continue
    theirs = float(cells[8].split()[0])
    gap = abs(ours[name]["trackGainDB"] - theirs)
    worst = max(worst, gap)
    rows.append((gap, name, ours[name]["trackGainDB"], theirs))
rows.sort(reverse=True)
print(f"track gains compared on {len(rows)} files; largest difference {worst:.3f} dB "
      f"({'within' if worst <= 0.05 else 'OVER'} 0.05 dB)")
for gap, name, mine, theirs in rows[:5]:
    print(f"  {name}: aurender {mine:.2f} dB, loudgain {theirs:.2f} dB")
PY
}

# Issue 43's golden-folder check: 200 pairs of 1-minute stereo 44.1 kHz 16-bit WAVs (copies of
# the twenty batch takes; in every tenth pair the render is 0.01 dB quieter), compared by
# `aurender diff -j 2` and by the hand-built check (bench/diff_folders.py: soundfile and NumPy,
# max and RMS difference). Targets: aurender at least 3x faster, peak memory under 40 MB.
diff_folders() {
    # Debian's packages go to Debian's interpreter, which may not be the first python3 on the PATH.
    local py=python3
    $py -c "import numpy, soundfile" 2>/dev/null || py=/usr/bin/python3
    $py -c "import numpy, soundfile" 2>/dev/null || {
        sudo=$([ "$(id -u)" = 0 ] || echo sudo)
        $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-numpy python3-soundfile; }
    local folder approved=$work/diff-approved rendered=$work/diff-rendered pair take json=$work/diff.json memory failed=0
    folder=$(batch_inputs)
    if [ ! -f "$rendered/pair-200.wav" ]; then
        mkdir -p "$approved" "$rendered"
        for take in $(seq -w 1 20); do
            sox -v 0.998849 "$folder/take-$take.wav" "$work/diff-quieter-$take.wav"
        done
        for pair in $(seq -w 1 200); do
            take=$(printf %02d $(( (10#$pair - 1) % 20 + 1 )))
            cp "$folder/take-$take.wav" "$approved/pair-$pair.wav"
            if [ $(( 10#$pair % 10 )) = 0 ]; then
                cp "$work/diff-quieter-$take.wav" "$rendered/pair-$pair.wav"
            else
                cp "$folder/take-$take.wav" "$rendered/pair-$pair.wav"
            fi
        done
    fi
    echo "## 200 pairs of 1-minute stereo 44.1 kHz 16-bit WAVs, approved/ against rendered/ (wall time; lower is better)"
    hyperfine --warmup 1 --runs 3 -N --export-json "$json" --export-markdown "$work/diff.md" \
        -n "aurender diff -j 2" "$aurender diff -j 2 --tolerance -60 $approved $rendered" \
        -n "python3 soundfile + NumPy" "$py bench/diff_folders.py $approved $rendered -60" >/dev/null
    cat "$work/diff.md"
    memory=$(/usr/bin/time -v "$aurender" diff -j 2 --tolerance -60 "$approved" "$rendered" 2>&1 >/dev/null \
        | awk '/Maximum resident set size/ {print $NF}')
    python3 - "$json" "$memory" <<'PY' || failed=1
import json, sys
medians = {r["command"]: r["median"] for r in json.load(open(sys.argv[1]))["results"]}
ratio = medians["python3 soundfile + NumPy"] / medians["aurender diff -j 2"]
memory = int(sys.argv[2]) / 1024
print("aurender is %.2fx as fast as soundfile + NumPy (target: 3x or more); its peak memory %.1f MB (target: under 40 MB)" % (ratio, memory))
if ratio < 3 or memory >= 40:
    print("  FAIL: a target is missed", file=sys.stderr)
    sys.exit(1)
PY
    "$aurender" diff -j 2 --tolerance -60 "$approved" "$rendered" | tail -1
    return $failed
}

case $which in
    kernels) kernels ;;
    mp3) mp3 ;;
    instructions) instructions ;;
    sketch) sketch ;;
    passthrough) passthrough ;;
    eq) eq ;;
    resample) resample ;;
    resample-quality) resample_quality ;;
    mix) mix ;;
    memory) memory ;;
    batch) batch ;;
    plugin) plugin ;;
    effects) effects ;;
    convolution) convolution ;;
    spatial) spatial ;;
    reports) reports ;;
    codecs) codecs ;;
    tags) tags ;;
    loudness) loudness ;;
    diff) diff_folders ;;
    all) kernels; echo; instructions; echo; sketch; echo; passthrough; echo; eq; echo; resample; echo; resample_quality; echo; mix; echo; memory; echo; batch; echo; plugin; echo; mp3; echo; effects; echo; reports; echo; codecs; echo; tags; echo; loudness; echo; diff_folders ;;
    *) echo "usage: bench/run.sh [kernels|instructions|sketch|passthrough|eq|resample|resample-quality|mix|memory|batch|plugin|mp3|effects|convolution|spatial|reports|codecs|tags|loudness|diff|all]" >&2; exit 64 ;;
esac
