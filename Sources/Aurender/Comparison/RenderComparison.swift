#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AudioFormats
import Loudness
import SignalAnalysis

/// Two renders compared and judged by `ComparisonTolerances`: the approved one (A) and a new one
/// (B), read together in blocks, so memory does not grow with their length. What `aurender diff`
/// does for each pair of a folder; `FolderComparison` runs it over folders.
///
/// The loudness and the third-octave levels are measured only when their tolerance is given
/// (they cost more than the sample differences).
public struct RenderComparison: Sendable {
    /// What was measured. Differences cover the frames both files hold.
    public struct Figures: Sendable {
        /// Each file's rate, channels and sample type, as `aurender info` writes them.
        public var formatA, formatB: String
        /// Whether the rates and channel counts match, so that the samples were compared (the
        /// figures below are 0 or nil when not).
        public var compared: Bool
        /// The frames each file holds.
        public var framesA, framesB: Int64
        /// The largest difference of a sample, full scale 1.
        public var largest: Float
        /// The RMS of the differences.
        public var rms: Double
        /// The first frame whose samples differ.
        public var firstDifferingFrame: Int64?
        /// Each file's integrated loudness in LUFS, when measured (nil also for silence).
        public var loudnessA, loudnessB: Double?
        /// The largest difference of a third-octave band's level, in dB, when measured.
        public var spectrumDifference: Double?
        /// Both files and their difference sketched, when asked for.
        public var sketches: (a: SignalSketch, b: SignalSketch, difference: SignalSketch)?

        /// The difference of integrated loudness in LU (B − A): nil unless both were measured and
        /// not silent; infinite when one only is silent.
        public var loudnessDifference: Double? {
            switch (loudnessA, loudnessB) {
            case let (a?, b?): b - a
            case (nil, .some), (.some, nil): .infinity
            default: nil
            }
        }
    }

    /// One tolerance the pair did not hold, with its figures.
    public enum Failure: Sendable, Equatable, CustomStringConvertible {
        case format(a: String, b: String)
        case length(a: Int64, b: Int64, allowed: Int64)
        case maxDifference(dBFS: Double, allowed: Double)
        case rmsDifference(dBFS: Double, allowed: Double)
        case loudness(lu: Double, allowed: Double)
        case spectrum(dB: Double, allowed: Double)
        /// No tolerance was given and the samples differ.
        case notIdentical(maxDBFS: Double, firstFrame: Int64)

        /// The figure's name in JSON and JUnit: `format`, `length`, `maxDifference`, `rmsDifference`, `loudness`, `spectrum`, `identical`.
        public var name: String {
            switch self {
            case .format: "format"
            case .length: "length"
            case .maxDifference: "maxDifference"
            case .rmsDifference: "rmsDifference"
            case .loudness: "loudness"
            case .spectrum: "spectrum"
            case .notIdentical: "identical"
            }
        }

        public var description: String {
            switch self {
            case .format(let a, let b): "formats differ: \(a) vs \(b)"
            case .length(let a, let b, let allowed): "lengths differ: \(a) and \(b) frames (\(allowed) allowed)"
            case .maxDifference(let level, let allowed): "max difference \(Self.decibels(level)) dBFS > \(Self.decibels(allowed)) dBFS"
            case .rmsDifference(let level, let allowed): "rms difference \(Self.decibels(level)) dBFS > \(Self.decibels(allowed)) dBFS"
            case .loudness(let lu, let allowed): "loudness differs by \(Self.decibels(lu)) LU > \(Self.decibels(allowed)) LU"
            case .spectrum(let dB, let allowed): "a third-octave band differs by \(Self.decibels(dB)) dB > \(Self.decibels(allowed)) dB"
            case .notIdentical(let level, let frame): "samples differ from frame \(frame) (max difference \(Self.decibels(level)) dBFS)"
            }
        }

        /// A figure to two decimals (`inf` for an infinite one).
        static func decibels(_ value: Double) -> String {
            guard value.isFinite else { return value < 0 ? "-inf" : "inf" }
            let hundredths = Int((value * 100).rounded())
            return "\(hundredths < 0 ? "-" : "")\(abs(hundredths) / 100).\(abs(hundredths) % 100 < 10 ? "0" : "")\(abs(hundredths) % 100)"
        }
    }

    /// The figures and the tolerances they broke (none: the pair passes).
    public struct Outcome: Sendable {
        public var figures: Figures
        public var failures: [Failure]
        public var passed: Bool { failures.isEmpty }
    }

    public let tolerances: ComparisonTolerances
    /// Whether to sketch both files and their difference (for a plot).
    public let sketching: Bool

    public init(tolerances: ComparisonTolerances, sketching: Bool = false) {
        self.tolerances = tolerances
        self.sketching = sketching
    }

    /// Frames read from each file per step.
    static let blockFrames = 32768

    /// Reads `approved` and `rendered` to their ends and judges them; a file that cannot be read
    /// is an `AudioFormatError` naming it.
    public func compare(approved: String, rendered: String) throws(AudioFormatError) -> Outcome {
        let a = try FormatRegistry.standard.openDecoder(path: approved)
        let b = try FormatRegistry.standard.openDecoder(path: rendered)
        var figures = Figures(formatA: "\(a.format.canonical)", formatB: "\(b.format.canonical)", compared: false, framesA: 0, framesB: 0, largest: 0, rms: 0)
        guard a.format.sampleRate == b.format.sampleRate, a.format.channelCount == b.format.channelCount else {
            return Outcome(figures: figures, failures: [.format(a: figures.formatA, b: figures.formatB)])
        }
        figures.compared = true
        try measure(a, b, into: &figures)
        return Outcome(figures: figures, failures: judge(figures))
    }

    /// The tolerances `figures` break.
    func judge(_ figures: Figures) -> [Failure] {
        var failures: [Failure] = []
        if abs(figures.framesA - figures.framesB) > tolerances.lengthFrames {
            failures.append(.length(a: figures.framesA, b: figures.framesB, allowed: tolerances.lengthFrames))
        }
        let maxLevel = Self.level(Double(figures.largest)), rmsLevel = Self.level(figures.rms)
        if tolerances.requiresIdentity, let frame = figures.firstDifferingFrame {
            failures.append(.notIdentical(maxDBFS: maxLevel, firstFrame: frame))
        }
        if let allowed = tolerances.maxDifferenceDBFS, maxLevel > allowed { failures.append(.maxDifference(dBFS: maxLevel, allowed: allowed)) }
        if let allowed = tolerances.rmsDifferenceDBFS, rmsLevel > allowed { failures.append(.rmsDifference(dBFS: rmsLevel, allowed: allowed)) }
        if let allowed = tolerances.loudnessLU, let difference = figures.loudnessDifference, abs(difference) > allowed {
            failures.append(.loudness(lu: abs(difference), allowed: allowed))
        }
        if let allowed = tolerances.spectrumDB, let difference = figures.spectrumDifference, difference > allowed {
            failures.append(.spectrum(dB: difference, allowed: allowed))
        }
        return failures
    }

    /// A figure full scale 1 in dBFS (−inf for none).
    public static func level(_ value: Double) -> Double { value > 0 ? 20 * log10(value) : -.infinity }

    private func measure(_ a: any AudioDecoder, _ b: any AudioDecoder, into figures: inout Figures) throws(AudioFormatError) {
        let channels = a.format.channelCount, rate = a.format.sampleRate, chunk = Self.blockFrames
        var left = [Float](repeating: 0, count: chunk * channels), right = left
        var difference = [Float](repeating: 0, count: sketching ? chunk * channels : 0)
        let sketchers = sketching
            ? [a, b, a].map { SignalSketcher(sampleRate: rate, channelCount: channels, expectedFrames: $0.length.frames) } : nil
        let meters = tolerances.loudnessLU == nil ? nil : try [a, b].map { (file) throws(AudioFormatError) in try Self.meter(for: file) }
        let spectra = tolerances.spectrumDB == nil ? nil : [a, b].map { _ in ThirdOctaveSpectrum(sampleRate: rate, channelCount: channels) }
        var common: Int64 = 0, largest: Float = 0, sumOfSquares = 0.0, firstDifference: Int64?
        var (endedA, endedB) = (false, false)
        while !(endedA && endedB) {
            let gotA = endedA ? 0 : try Self.read(a, into: &left, frames: chunk)
            let gotB = endedB ? 0 : try Self.read(b, into: &right, frames: chunk)
            endedA = endedA || gotA < chunk
            endedB = endedB || gotB < chunk
            figures.framesA += Int64(gotA)
            figures.framesB += Int64(gotB)
            left.withUnsafeBufferPointer { left in right.withUnsafeBufferPointer { right in
                sketchers?[0].add(interleaved: left.baseAddress!, frames: gotA)
                sketchers?[1].add(interleaved: right.baseAddress!, frames: gotB)
                spectra?[0].add(interleaved: left.baseAddress!, frames: gotA)
                spectra?[1].add(interleaved: right.baseAddress!, frames: gotB)
                try? meters?[0].add(left.baseAddress!, frames: gotA)
                try? meters?[1].add(right.baseAddress!, frames: gotB)
            } }
            let shared = min(gotA, gotB)
            guard shared > 0 else { continue }
            let (blockLargest, blockSquares, firstIndex) = Self.differences(left, right, count: shared * channels)
            if firstDifference == nil, let firstIndex { firstDifference = common + Int64(firstIndex / channels) }
            largest = max(largest, blockLargest)
            sumOfSquares += blockSquares
            if let sketchers {
                for index in 0..<(shared * channels) { difference[index] = left[index] - right[index] }
                sketchers[2].add(interleaved: difference, frames: shared)
            }
            common += Int64(shared)
        }
        figures.largest = largest
        figures.rms = common > 0 ? (sumOfSquares / Double(common * Int64(channels))).squareRoot() : 0
        figures.firstDifferingFrame = firstDifference
        if let meters { (figures.loudnessA, figures.loudnessB) = (meters[0].measurement().integrated, meters[1].measurement().integrated) }
        if let spectra {
            let (levelsA, levelsB) = (spectra[0].levels(), spectra[1].levels())
            let floor = ThirdOctaveSpectrum.comparedFloor
            figures.spectrumDifference = zip(levelsA, levelsB).map { abs(max($0, floor) - max($1, floor)) }.max() ?? 0
        }
        figures.sketches = sketchers.map { ($0[0].sketch(), $0[1].sketch(), $0[2].sketch()) }
    }

    /// The largest difference, the sum of the squared differences and the first differing sample of `count` samples.
    ///
    /// Eight lanes at a time, so the compiler keeps them in vector registers: a serial sum in
    /// strict floating-point order would not vectorize. Each 4096-sample block's sum goes into
    /// a `Double`, so the total does not drift over a long file.
    private static func differences(_ left: [Float], _ right: [Float], count: Int) -> (Float, Double, Int?) {
        left.withUnsafeBufferPointer { left in right.withUnsafeBufferPointer { right in
            var largest: Float = 0, squares = 0.0, first: Int?
            var start = 0
            while start < count {
                let end = min(count, start + 4096)
                var laneLargest = SIMD8<Float>(repeating: 0), laneSquares = SIMD8<Float>(repeating: 0)
                var index = start
                while index + 8 <= end {
                    let difference = UnsafeRawPointer(left.baseAddress! + index).loadUnaligned(as: SIMD8<Float>.self)
                        - UnsafeRawPointer(right.baseAddress! + index).loadUnaligned(as: SIMD8<Float>.self)
                    let magnitude = difference.replacing(with: -difference, where: difference .< 0)
                    laneLargest.replace(with: magnitude, where: magnitude .> laneLargest)
                    laneSquares += difference * difference
                    index += 8
                }
                var blockLargest = laneLargest.max(), blockSquares = laneSquares.sum()
                while index < end {
                    let difference = left[index] - right[index]
                    blockLargest = max(blockLargest, abs(difference))
                    blockSquares += difference * difference
                    index += 1
                }
                if first == nil, blockLargest > 0 { first = (start..<end).first { left[$0] != right[$0] } }
                largest = max(largest, blockLargest)
                squares += Double(blockSquares)
                start = end
            }
            return (largest, squares, first)
        } }
    }

    private static func read(_ file: any AudioDecoder, into buffer: inout [Float], frames: Int) throws(AudioFormatError) -> Int {
        try buffer.withUnsafeMutableBufferPointer { (pointer) throws(AudioFormatError) in try file.read(into: pointer.baseAddress!, frames: frames) }
    }

    private static func meter(for file: any AudioDecoder) throws(AudioFormatError) -> LoudnessMeter {
        do { return try LoudnessMeter(channelCount: file.format.channelCount, sampleRate: Int(file.format.sampleRate)) } catch {
            throw AudioFormatError(path: file.path, kind: .unsupportedInput, reason: "\(error)")
        }
    }
}
