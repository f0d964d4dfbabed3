import AudioDSP
import AudioGraph
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A graphic equalizer after Apple's iPod EQ unit: a bank of presets over one set of peaking
/// bands, with the preset and a preamp as parameters.
///
/// Any channel count; filter state carries across slices. Bands at or above 0.45 × the sample
/// rate are left out (`omittedBands`); bands with no gain cost nothing, and a flat preset with
/// no preamp passes audio through untouched. Switching presets or preamp between slices ramps
/// the section gains over `rampDuration`, so there is no click.
public final class GraphicEQNode: AudioNode {
    /// The node's parameters.
    public enum Parameter {
        /// Index into `presets`.
        public static let preset: ParameterID = 0
        /// Gain before the bands, in dB, added to the preset's own preamp.
        public static let preamp: ParameterID = 1
    }

    /// The presets the `preset` parameter chooses from; all share one set of bands.
    public let presets: [EQPreset]
    /// How band gains become section gains.
    public let mode: GraphicEQDesign.Mode
    /// How long a preset or preamp change takes, in seconds.
    public static let rampDuration = 0.02
    /// Frames between coefficient updates during a ramp.
    static let updateInterval = 16

    /// Bands left out at the current sample rate (at or above 0.45 × the rate); set by initialize.
    public private(set) var omittedBands: [GraphicEQDesign.Band] = []
    /// The section gains of each preset at the current sample rate, in dB; set by initialize.
    public private(set) var sectionGains: [[Double]] = []

    private var shapes: [PeakingShape?] = []
    private var cascade: BiquadCascade?
    private var amplitudes: [Double] = []
    private var amplitudeSteps: [Double] = []
    private var rampUpdatesLeft = 0
    private var framesUntilUpdate = 0
    private var rampFrames = 0
    private var preampGain: Float = 1
    private var preampTarget: Float = 1
    private var preampStep: Float = 0
    private var preampFramesLeft = 0
    private var retiring = false

    /// An EQ over `presets`, starting at `presets[initialPreset]`. Throws if the presets do not
    /// share their bands.
    public init(name: String = "eq", presets: [EQPreset], initialPreset: Int = 0,
                mode: GraphicEQDesign.Mode = .accurate) throws(EqualizerError) {
        guard let first = presets.first, presets.indices.contains(initialPreset) else { throw .noPresets(node: name) }
        if let other = presets.first(where: { $0.bands != first.bands }) {
            throw .differentBands(node: name, first: first.name, other: other.name)
        }
        self.presets = presets
        self.mode = mode
        super.init(name: name, inputBusCount: 1, outputBusCount: 1)
        try? setParameter(Parameter.preset, Float(initialPreset))
    }

    /// The parameters of an EQ choosing among `presets`: the one declaration of their names, ranges and units.
    public static func descriptions(presets: [String]) -> [ParameterDescription] {
        [.indexed(id: Parameter.preset, name: "preset", choices: presets),
         ParameterDescription(id: Parameter.preamp, name: "preamp", range: -60...24, defaultValue: 0, unit: .decibels)]
    }

    public override var parameterDescriptions: [ParameterDescription] { Self.descriptions(presets: presets.map(\.name)) }

    public override var planDetail: String? {
        let omitted = omittedBands.map { "\(Int($0.frequency)) Hz" }
        return "preset '\(currentPreset.name)', \(mode.rawValue)"
            + (omitted.isEmpty ? "" : ", bands left out above 0.45 × rate: \(omitted.joined(separator: ", "))")
    }

    /// Switches to the preset of the bank called `presetName`, matched as loosely as preset names
    /// are everywhere (`bass-booster` is "Bass Booster"); the change ramps like any other.
    public func selectPreset(named presetName: String) throws(GraphError) {
        guard let found = EQPresetLibrary.find(presetName, in: presets), let index = presets.firstIndex(where: { $0.name == found.name }) else {
            throw .noSuchChoice(node: name, parameter: "preset", choice: presetName, known: presets.map(\.name))
        }
        try setParameter(Parameter.preset, Float(index))
    }

    /// The preset the node is at, or ramping to.
    public var currentPreset: EQPreset { presets[presetIndex] }

    private var presetIndex: Int { min(presets.count - 1, max(0, Int(parameter(Parameter.preset).rounded()))) }

    private var preampTargetGain: Float {
        Float(pow10((Double(parameter(Parameter.preamp)) + currentPreset.preamp) / 20))
    }

    // MARK: Lifecycle

    public override func allocateRenderResources() throws {
        guard let format = streamFormat(scope: .input, bus: 0) else { return }
        let bands = presets[0].bands
        do throws(FilterDesignError) {
            shapes = try bands.map { band throws(FilterDesignError) -> PeakingShape? in
                GraphicEQDesign.isUsable(band, sampleRate: format.sampleRate)
                    ? try PeakingShape(frequency: band.frequency, q: band.q, sampleRate: format.sampleRate) : nil
            }
        } catch {
            throw EqualizerError.design(node: name, preset: presets[0].name, reason: error)
        }
        omittedBands = bands.filter { !GraphicEQDesign.isUsable($0, sampleRate: format.sampleRate) }
        sectionGains = try presets.map { preset throws(EqualizerError) in
            do throws(FilterDesignError) {
                return try GraphicEQDesign.sectionGains(for: preset.gains, bands: bands, sampleRate: format.sampleRate, mode: mode)
            } catch {
                throw .design(node: name, preset: preset.name, reason: error)
            }
        }
        cascade = BiquadCascade(sectionCapacity: bands.count, channelCount: format.channelCount)
        amplitudes = Array(repeating: 1, count: bands.count)
        amplitudeSteps = Array(repeating: 1, count: bands.count)
        rampFrames = max(Self.updateInterval, Int(Self.rampDuration * format.sampleRate))
        try reset()
    }

    /// Clears the filter memories and ends any ramp: the node stands at its current preset and
    /// preamp, as right after initialize.
    public override func reset() throws {
        guard let cascade else { return }
        cascade.reset()
        for section in amplitudes.indices {
            amplitudes[section] = pow10(sectionGains[presetIndex][section] / 40)
            amplitudeSteps[section] = 1
        }
        rampUpdatesLeft = 0
        framesUntilUpdate = 0
        preampGain = preampTargetGain
        preampTarget = preampGain
        preampStep = 0
        preampFramesLeft = 0
        retiring = false
        applyAmplitudes()
    }

    public override func deallocateRenderResources() {
        cascade = nil
    }

    /// Starts a ramp to the new preset or preamp, from the next slice's first frame.
    public override func parameterDidChange(_ id: ParameterID) {
        guard isInitialized, cascade != nil else { return }
        let target = sectionGains[presetIndex]
        let updates = max(1, rampFrames / Self.updateInterval)
        for section in amplitudes.indices {
            amplitudeSteps[section] = pow(pow10(target[section] / 40) / amplitudes[section], 1 / Double(updates))
        }
        rampUpdatesLeft = updates
        framesUntilUpdate = 0
        preampTarget = preampTargetGain
        preampFramesLeft = preampTarget == preampGain ? 0 : rampFrames
        preampStep = (preampTarget - preampGain) / Float(rampFrames)
    }

    // MARK: Rendering

    public override func render(_ flags: inout RenderActionFlags, _ request: RenderRequest, _ output: AudioBufferList) throws -> Int {
        let frames = try pullInput(bus: 0, &flags, request, into: output)
        guard let cascade, cascade.activeCount > 0 || rampUpdatesLeft > 0 || preampGain != 1 || preampFramesLeft > 0 else {
            return frames
        }
        flags.remove(.outputIsSilence)
        var done = 0
        while done < frames {
            if rampUpdatesLeft > 0, framesUntilUpdate == 0 { advanceRamp() }
            var chunk = frames - done
            if rampUpdatesLeft > 0 { chunk = min(chunk, framesUntilUpdate) }
            applyPreamp(output, offset: done, frames: chunk)
            cascade.process(output, frames: chunk, offset: done)
            done += chunk
            if rampUpdatesLeft > 0 { framesUntilUpdate -= chunk }
        }
        if retiring, rampUpdatesLeft == 0 { retireQuietSections() }
        return frames
    }

    /// One step of a gain ramp: every section's amplitude moves by its step, coefficients follow.
    private func advanceRamp() {
        rampUpdatesLeft -= 1
        if rampUpdatesLeft == 0 {
            for section in amplitudes.indices { amplitudes[section] = pow10(sectionGains[presetIndex][section] / 40) }
            retiring = true
        } else {
            for section in amplitudes.indices { amplitudes[section] *= amplitudeSteps[section] }
        }
        framesUntilUpdate = Self.updateInterval
        applyAmplitudes()
    }

    /// Sets every section's coefficients from `amplitudes`; sections at unity that are not
    /// ramping and no longer ring are left out of the cascade.
    private func applyAmplitudes() {
        guard let cascade else { return }
        for section in shapes.indices {
            if let shape = shapes[section] { cascade.setCoefficients(shape.coefficients(amplitude: amplitudes[section]), section: section) }
        }
        let ramping = rampUpdatesLeft > 0
        cascade.setActiveSections { section in
            shapes[section] != nil && (amplitudes[section] != 1 || (ramping && amplitudeSteps[section] != 1)
                                       || cascade.isRinging(section: section))
        }
    }

    /// After a ramp, drops the sections that reached 0 dB once their state has died away.
    private func retireQuietSections() {
        guard let cascade else { return }
        retiring = false
        for section in 0..<cascade.sectionCapacity where amplitudes[section] == 1 && cascade.isRinging(section: section) {
            retiring = true
        }
        applyAmplitudes()
    }

    /// Multiplies `frames` frames by the preamp gain, ramping it linearly while it changes.
    private func applyPreamp(_ output: AudioBufferList, offset: Int, frames: Int) {
        var start = 0
        if preampFramesLeft > 0 {
            let ramped = min(frames, preampFramesLeft)
            for channel in 0..<output.channelCount {
                let samples = output[channel] + offset
                var gain = preampGain
                for frame in 0..<ramped {
                    gain += preampStep
                    samples[frame] *= gain
                }
            }
            preampFramesLeft -= ramped
            preampGain = preampFramesLeft == 0 ? preampTarget : preampGain + preampStep * Float(ramped)
            start = ramped
        }
        guard preampGain != 1, start < frames else { return }
        let gain = preampGain
        for channel in 0..<output.channelCount {
            let samples = output[channel] + offset
            for frame in start..<frames { samples[frame] *= gain }
        }
    }
}

/// An equalizer that cannot be built or designed; the message names the node and the preset.
public enum EqualizerError: Error, Equatable, CustomStringConvertible {
    case noPresets(node: String)
    case differentBands(node: String, first: String, other: String)
    case design(node: String, preset: String, reason: FilterDesignError)

    public var description: String {
        switch self {
        case .noPresets(let node): "equalizer '\(node)' needs at least one preset"
        case .differentBands(let node, let first, let other):
            "equalizer '\(node)': presets '\(first)' and '\(other)' have different bands; one equalizer switches between presets of the same bands"
        case .design(_, let preset, let reason): "preset '\(preset)': \(reason)"
        }
    }
}

extension GraphicEQNode {
    /// The EQ as a catalogued node kind: a preset (with the presets events switch to kept ready
    /// in its bank), a mode, and the preset and preamp as parameters.
    public static let kind = NodeKind(
        name: "eq", summary: "the iPod graphic equalizer: 10 peaking bands set by a preset",
        settings: [
            SettingDescription("preset", .text, "the preset: a built-in or user preset by name, or a preset file", required: true),
            SettingDescription("mode", .choice(GraphicEQDesign.Mode.allCases.map(\.rawValue)),
                               "accurate (each band centre hits the preset's gain) or classic (the plain cascade); default accurate"),
        ],
        parameters: descriptions(presets: []),
        make: { name, settings, context in
            var presets: [EQPreset] = []
            for presetName in [settings.text("preset")!] + (context.scheduledChoices["preset"] ?? []) {
                let preset = try context.findPreset(presetName)
                if !presets.contains(where: { $0.name == preset.name }) { presets.append(preset) }
            }
            let mode = settings.text("mode").flatMap(GraphicEQDesign.Mode.init(rawValue:)) ?? .accurate
            return try GraphicEQNode(name: name, presets: presets, mode: mode)
        },
        choice: { parameter, text, context in parameter == "preset" ? try context.findPreset(text).name : text })
}

extension GraphicEQNode: FrequencyResponding {
    /// The current preset's cascade and both preamps (the preset's and the node's parameter).
    public func responseDecibels(at frequency: Double) -> Double {
        guard let format = streamFormat(scope: .input, bus: 0), sectionGains.indices.contains(presetIndex) else { return 0 }
        return GraphicEQDesign.cascadeMagnitude(sectionGains: sectionGains[presetIndex], bands: currentPreset.bands, at: frequency,
                                                sampleRate: format.sampleRate)
            + currentPreset.preamp + Double(parameter(Parameter.preamp))
    }
}
