#!/usr/bin/env python3
"""Measures a resampler going 48 -> 44.1 kHz, float32 WAV in and out: passband ripple up to
0.9 x the lower Nyquist, the -0.1 dB and -3 dB points (the transition band's start), the
rejection of a 23 kHz tone (above the new Nyquist: all that is left of it is aliasing) and the
THD+N of a 1 kHz tone at -1 dBFS. Usage: resample_quality.py WORKDIR NAME COMMAND-TEMPLATE
where the template has {in} and {out}; prints one Markdown table row."""
import struct, subprocess, sys
import numpy as np

IN_RATE, OUT_RATE, SECONDS = 48000, 44100, 4
AMPLITUDE = 10 ** (-1 / 20)

def write_wav(path, samples, rate):
    data = samples.astype("<f4").tobytes()
    header = struct.pack("<4sI4s4sIHHIIHH4sI", b"RIFF", 36 + len(data), b"WAVE", b"fmt ", 16, 3, 1, rate, rate * 4, 4, 32,
                         b"data", len(data))
    open(path, "wb").write(header + data)

def read_wav(path):
    raw = open(path, "rb").read()
    position, fmt, channels = 12, None, 1
    while position < len(raw):
        kind, size = struct.unpack("<4sI", raw[position:position + 8])
        body = raw[position + 8:position + 8 + size]
        if kind == b"fmt ":
            fmt, channels, rate, _, _, bits = struct.unpack("<HHIIHH", body[:16])
            if fmt == 0xFFFE:
                fmt = struct.unpack("<H", body[24:26])[0]
        elif kind == b"data":
            kinds = {(3, 32): "<f4", (3, 64): "<f8", (1, 16): "<i2", (1, 32): "<i4"}
            values = np.frombuffer(body[:len(body) - len(body) % (bits // 8)], kinds[(fmt, bits)]).astype(np.float64)
            if fmt == 1:
                values /= 2 ** (bits - 1)
            return values[::channels], rate
        position += 8 + size + (size & 1)
    raise ValueError(f"{path}: no data")

def fit(signal, frequencies, rate):
    """Least-squares amplitudes of `frequencies` in `signal`, and the RMS of what is left."""
    n = np.arange(len(signal)) / rate
    basis = np.column_stack([f(2 * np.pi * freq * n) for freq in frequencies for f in (np.sin, np.cos)])
    coefficients, *_ = np.linalg.lstsq(basis, signal, rcond=None)
    amplitudes = np.hypot(coefficients[0::2], coefficients[1::2])
    return amplitudes, np.sqrt(np.mean((signal - basis @ coefficients) ** 2))

def convert(workdir, template, name, samples):
    source, target = f"{workdir}/q-in-{name}.wav", f"{workdir}/q-out-{name}.wav"
    write_wav(source, samples, IN_RATE)
    subprocess.run(template.format(**{"in": source, "out": target}), shell=True, check=True)
    output, rate = read_wav(target)
    assert rate == OUT_RATE, f"{target}: {rate} Hz"
    edge = OUT_RATE // 4
    return output[edge:-edge]

def main():
    workdir, name, template = sys.argv[1:4]
    t = np.arange(IN_RATE * SECONDS) / IN_RATE
    passband = np.linspace(20, 0.9 * OUT_RATE / 2, 25)
    edge = np.arange(19000, 22000, 50.0)
    tones = np.concatenate([passband, edge])
    amplitude = 0.9 / len(tones)
    multitone = sum(amplitude * np.sin(2 * np.pi * f * t + 0.7 * i) for i, f in enumerate(tones))
    gains, _ = fit(convert(workdir, template, "multi", multitone), tones, OUT_RATE)
    gains_db = 20 * np.log10(gains / amplitude)
    ripple = gains_db[:len(passband)].max() - gains_db[:len(passband)].min()
    edge_db = gains_db[len(passband):]
    def last_above(level):
        above = edge[edge_db >= level]
        return f"{above.max() / 1000:.2f}" if len(above) else "<19"
    high = convert(workdir, template, "23k", AMPLITUDE * np.sin(2 * np.pi * 23000 * t))
    rejection = 20 * np.log10(max(np.sqrt(np.mean(high ** 2)), 1e-20) / (AMPLITUDE / np.sqrt(2)))
    _, residual = fit(convert(workdir, template, "1k", AMPLITUDE * np.sin(2 * np.pi * 1000 * t)), [1000.0], OUT_RATE)
    thdn = 20 * np.log10(residual / (AMPLITUDE / np.sqrt(2)))
    print(f"| {name} | {ripple:.4f} dB | {last_above(-0.1)} kHz | {last_above(-3)} kHz | {rejection:.1f} dB | {thdn:.1f} dB |")

main()
