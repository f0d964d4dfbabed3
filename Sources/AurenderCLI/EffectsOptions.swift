import ArgumentParser
import Aurender

/// The filters, dynamics, colouring effects, convolution and time and pitch changes a render puts
/// around the EQ: `--highpass`, `--lowpass`, `--bass`, `--treble`, `--filter`, `--gate`, `--compress`,
/// `--distort`, `--delay`, `--reverb`, `--convolve`, `--tempo`, `--pitch` and `--speed`; one option
/// group, since the argument parser builds every group at each start.
///
/// A render applies them in one order, whatever the order of the flags: plugins → filters → EQ
/// (→ plugins with `--plugin-after-eq`) → `--gain` → gate → compressor → distortion → delay →
/// reverb → convolution → time and pitch → fades → normalization → limiter (`--limit`).
struct EffectsOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A high-pass filter (Butterworth unless Q is given): 80, 80:0.5, 1kHz:2.", valueName: "Hz[:Q]"))
    var highpass: String?

    @Option(help: ArgumentHelp("A low-pass filter (Butterworth unless Q is given): 12k, 8000:1.", valueName: "Hz[:Q]"))
    var lowpass: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("A low shelf of this gain at 100 Hz or at Hz, slope 0.5, as SoX's bass: +4, -3@200.", valueName: "dB[@Hz]"))
    var bass: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("A high shelf of this gain at 3 kHz or at Hz, slope 0.5, as SoX's treble: -2, +3@8k.", valueName: "dB[@Hz]"))
    var treble: String?

    @Option(name: .customLong("filter"), help: ArgumentHelp("""
        A filter band, repeatable: TYPE is peak, lowpass, highpass, lowshelf, highshelf, bandpass or bandstop; GAIN (dB) \
        for peaks and shelves; WIDTH a Q, or octaves with o, or a shelf's slope with s: peak@1k:+3:1.4, bandstop@50:8, lowshelf@120:4:0.8s.
        """, valueName: "TYPE@Hz[:GAIN][:WIDTH]"))
    var filters: [String] = []

    @Option(parsing: .unconditional, help: ArgumentHelp("""
        A noise gate that closes under this level: -50, or -50:ATTACK:HOLD:RELEASE:RANGE with times (5ms, 0.1s) and the \
        range in dB (default 1ms, 20ms, 100ms, -80); empty fields keep their defaults.
        """, valueName: "dB[:...]"))
    var gate: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("""
        A compressor: THRESHOLD (dB) and RATIO, then optionally ATTACK and RELEASE (times: 10ms, 0.1s), KNEE and MAKEUP (dB) \
        and peak or rms detection (default 10ms, 100ms, 6, 0, peak): -18:3, -24:4:5ms:200ms:6:3:rms; empty fields keep their defaults.
        """, valueName: "THRESHOLD:RATIO[:...]"))
    var compress: String?

    @Option(help: ArgumentHelp("""
        Convolve with an impulse response (any audio file: mono, one channel per input channel, or four for true stereo), \
        resampled to the render's rate, mixed WET percent wet (default 100): hall.wav, hall.wav:30. Its tail follows --tail.
        """, valueName: "IR[:WET%]"))
    var convolve: String?

    @Option(help: ArgumentHelp("Play faster or slower keeping the pitch (\(KindRanges.text(TimePitchNode.kind, "tempo"))): "
                               + "1.25 is 25% faster, 0.5 half speed.", valueName: "ratio"))
    var tempo: Double?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Move the pitch keeping the length (\(KindRanges.text(TimePitchNode.kind, "pitch", unit: "semitones"))): "
                               + "12 is an octave up, -3 a minor third down.", valueName: "semitones"))
    var pitch: Double?

    @Option(help: ArgumentHelp("Play faster or slower as a tape does, pitch and length together (\(KindRanges.text(TimePitchNode.kind, "speed"))), "
                               + "by the --resampler engine; combines with --tempo and --pitch.", valueName: "ratio"))
    var speed: Double?

    @Option(help: ArgumentHelp("Suppress noise in a voice (WebRTC): low, moderate, high or veryhigh; alone, high.", valueName: "level"))
    var denoise: String?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Bring a voice's peaks to this level by automatic gain control (WebRTC), \(KindRanges.text(VoiceKind.kind, "agc", unit: "dBFS")); "
            + "alone, \(EffectsOptions.text(EffectsOptions.defaultGainTarget)).", valueName: "dBFS"))
    var agc: String?

    @Option(help: ArgumentHelp("Cancel the echo of this far-end file (what played through the speaker) in a voice (WebRTC).",
                               valueName: "far-file"), completion: .file())
    var echoReference: String?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Distortion, 4x oversampled: DRIVE (\(KindRanges.text(DistortionNode.kind, "drive", unit: "dB"))) into a SHAPE: soft (the default), hard, "
            + "crushBITS (\(KindRanges.text(DistortionNode.kind, "bits")), default 8) "
            + "or decimateN (hold every Nth frame, \(KindRanges.text(DistortionNode.kind, "decimation")), default 4): 20, 12:hard, 0:crush6.",
        valueName: "DRIVE_DB[:SHAPE]"))
    var distort: String?

    @Option(help: ArgumentHelp("An echo: TIME (\(KindRanges.text(DelayNode.kind, "time", unit: "s")): 250ms, 0.5), then FEEDBACK "
                               + "(\(KindRanges.text(DelayNode.kind, "feedback", unit: "%")), default 50), WET (\(KindRanges.text(DelayNode.kind, "wet", unit: "%")), "
                               + "default 50) and a LOWPASS on the echoes (Hz; none unless given): 0.3, 250ms:40:30:4k.",
                               valueName: "TIME[:FEEDBACK%[:WET%[:LOWPASS_HZ]]]"))
    var delay: String?

    @Option(help: ArgumentHelp("A room: one of AVAudioUnitReverb's presets by name (\(ReverbPreset.all.map(\.name).joined(separator: ", "))), "
                               + "then the WET share (\(KindRanges.text(ReverbNode.kind, "wet", unit: "%")), default 50): 'large hall', plate:30.",
                               valueName: "PRESET[:WET%]"))
    var reverb: String?

    func validate() throws {
        try validateTimePitch()
        try validateColour()
        _ = try voiceSettings()
        _ = try filterBands()
        _ = try gateSettings()
        _ = try compressorSettings()
        _ = try convolution()
    }

    /// The flags given, which a graph file cannot take (its nodes state them).
    var flagsAGraphStates: [String] {
        [(highpass != nil, "--highpass"), (lowpass != nil, "--lowpass"), (bass != nil, "--bass"), (treble != nil, "--treble"),
         (!filters.isEmpty, "--filter"), (gate != nil, "--gate"), (compress != nil, "--compress"), (convolve != nil, "--convolve")].filter(\.0).map(\.1) + colourFlags + voiceFlags + timePitchFlags
    }

    /// The filter bands asked for: high-pass, low-pass, bass, treble, then each `--filter`.
    func filterBands() throws -> [FilterNode.Band] {
        var bands: [FilterNode.Band] = []
        for (flag, value, shape) in [("--highpass", highpass, "highpass"), ("--lowpass", lowpass, "lowpass")] {
            guard let value else { continue }
            bands.append(try Self.band(flag, value, written: "\(shape)@\(value)"))
        }
        for (flag, value, shape, corner) in [("--bass", bass, "lowshelf", "100"), ("--treble", treble, "highshelf", "3000")] {
            guard let value else { continue }
            let parts = value.split(separator: "@", maxSplits: 1).map(String.init)
            bands.append(try Self.band(flag, value, written: "\(shape)@\(parts.count > 1 ? parts[1] : corner):\(parts[0])"))
        }
        for value in filters { bands.append(try Self.band("--filter", value, written: value)) }
        return bands
    }

    private static func band(_ flag: String, _ value: String, written: String) throws -> FilterNode.Band {
        do throws(FilterSyntaxError) { return try FilterNode.Band(parsing: written) } catch {
            throw ValidationError("\(flag) \(value): \(error.problem)")
        }
    }

    /// The gate asked for, if any.
    func gateSettings() throws -> NoiseGate.Settings? {
        guard let gate else { return nil }
        let fields = try Self.fields(of: gate, flag: "--gate", most: 5, syntax: "dB[:ATTACK:HOLD:RELEASE:RANGE]")
        var settings = NoiseGate.Settings(threshold: try Self.level(fields[0], flag: "--gate", name: "threshold", in: KindRanges.range(GateNode.kind, "threshold")))
        try Self.time(fields, 1, flag: "--gate", name: "attack", in: KindRanges.range(GateNode.kind, "attack")).map { settings.attack = $0 }
        try Self.time(fields, 2, flag: "--gate", name: "hold", in: KindRanges.range(GateNode.kind, "hold")).map { settings.hold = $0 }
        try Self.time(fields, 3, flag: "--gate", name: "release", in: KindRanges.range(GateNode.kind, "release")).map { settings.release = $0 }
        if fields.count > 4, !fields[4].isEmpty { settings.range = try Self.level(fields[4], flag: "--gate", name: "range", in: KindRanges.range(GateNode.kind, "range")) }
        return settings
    }

    /// The compressor asked for, if any.
    func compressorSettings() throws -> Compressor.Settings? {
        guard let compress else { return nil }
        let flag = "--compress"
        let fields = try Self.fields(of: compress, flag: flag, most: 7, syntax: "THRESHOLD:RATIO[:ATTACK:RELEASE:KNEE:MAKEUP:peak|rms]")
        guard fields.count >= 2 else { throw ValidationError("\(flag) \(compress): give at least THRESHOLD:RATIO, as -18:3") }
        guard let ratio = Double(fields[1]), KindRanges.range(CompressorNode.kind, "ratio").contains(ratio) else {
            throw ValidationError("\(flag) \(compress): the ratio must be from \(KindRanges.text(CompressorNode.kind, "ratio")), not '\(fields[1])'")
        }
        var settings = Compressor.Settings(threshold: try Self.level(fields[0], flag: flag, name: "threshold", in: KindRanges.range(CompressorNode.kind, "threshold")), ratio: ratio)
        try Self.time(fields, 2, flag: flag, name: "attack", in: KindRanges.range(CompressorNode.kind, "attack")).map { settings.attack = $0 }
        try Self.time(fields, 3, flag: flag, name: "release", in: KindRanges.range(CompressorNode.kind, "release")).map { settings.release = $0 }
        if fields.count > 4, !fields[4].isEmpty { settings.knee = try Self.level(fields[4], flag: flag, name: "knee", in: KindRanges.range(CompressorNode.kind, "knee")) }
        if fields.count > 5, !fields[5].isEmpty { settings.makeup = try Self.level(fields[5], flag: flag, name: "makeup", in: KindRanges.range(CompressorNode.kind, "makeup")) }
        if fields.count > 6, !fields[6].isEmpty {
            guard let detection = Compressor.Detection(rawValue: fields[6].lowercased()) else {
                throw ValidationError("\(flag) \(compress): the detection must be peak or rms, not '\(fields[6])'")
            }
            settings.detection = detection
        }
        return settings
    }

    /// The stages before the EQ: the filters, in one bank.
    func filterStages() throws -> [ChainStage] {
        let bands = try filterBands()
        return bands.isEmpty ? [] : [.filter(bands, name: "filters")]
    }

    /// The stages after the EQ and the gain: the gate, then the compressor.
    func dynamicsStages() throws -> [ChainStage] {
        try [gateSettings().map(ChainStage.gate), compressorSettings().map(ChainStage.compressor)].compactMap { $0 }
    }

    private static func fields(of value: String, flag: String, most: Int, syntax: String) throws -> [String] {
        let fields = value.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard fields.count <= most, !fields[0].isEmpty else { throw ValidationError("\(flag) \(value): write \(syntax)") }
        return fields
    }

    private static func level(_ written: String, flag: String, name: String, in range: ClosedRange<Double>) throws -> Double {
        guard let value = ValueSyntax.level(written), range.contains(value) else {
            throw ValidationError("\(flag): the \(name) must be from \(Self.text(range.lowerBound)) to \(Self.text(range.upperBound)) dB, not '\(written)'")
        }
        return value
    }

    private static func time(_ fields: [String], _ index: Int, flag: String, name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard fields.count > index, !fields[index].isEmpty else { return nil }
        guard let time = TimeValue(fields[index]), case .seconds(let seconds) = time, range.contains(seconds) else {
            throw ValidationError("\(flag): the \(name) must be a time from \(text(range.lowerBound)) to "
                                  + "\(text(range.upperBound)) s (10ms, 0.1s), not '\(fields[index])'")
        }
        return seconds
    }
}
