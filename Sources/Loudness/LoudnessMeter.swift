#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Measures loudness as ITU-R BS.1770-4 and EBU R128 define it: integrated loudness, loudness
/// range (EBU Tech 3342) and true peak, over everything it is fed.
///
/// A thin typed wrapper over libebur128. Channels are weighted in WAV order: left, right and
/// centre at 1, the fourth channel of a 5.1 file (LFE) left out, surrounds at 1.41; one
/// channel is measured as one channel (a mono sine at −20 dBFS reads −23 LUFS).
public final class LoudnessMeter {
    public let channelCount: Int
    public let sampleRate: Int
    private let state: LibEbur128.State

    /// A meter for interleaved audio of `channelCount` channels at `sampleRate` Hz.
    public init(channelCount: Int, sampleRate: Int) throws(LoudnessError) {
        guard channelCount > 0, sampleRate > 0,
              let state = LibEbur128.new(channels: channelCount, sampleRate: sampleRate, mode: LibEbur128.fullMode) else {
            throw .unsupported(channelCount: channelCount, sampleRate: sampleRate)
        }
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        self.state = state
    }

    deinit { LibEbur128.destroy(state) }

    /// Adds `frames` interleaved frames (full scale ±1).
    public func add(_ samples: UnsafePointer<Float>, frames: Int) throws(LoudnessError) {
        guard frames > 0 else { return }
        guard LibEbur128.addFrames(state, samples, frames: frames) else { throw .outOfMemory }
    }

    /// What was measured over everything added so far.
    public func measurement() -> LoudnessMeasurement {
        var samplePeak = 0.0, truePeak = 0.0
        for channel in 0..<channelCount {
            samplePeak = max(samplePeak, LibEbur128.samplePeak(state, channel: channel) ?? 0)
            truePeak = max(truePeak, LibEbur128.truePeak(state, channel: channel) ?? 0)
        }
        return LoudnessMeasurement(integrated: LibEbur128.integrated(state).flatMap { $0.isFinite ? $0 : nil },
                                   range: LibEbur128.range(state) ?? 0,
                                   samplePeak: Self.decibels(samplePeak), truePeak: Self.decibels(truePeak))
    }

    /// The version of libebur128 doing the measuring.
    public static var libraryVersion: String { LibEbur128.version() }

    private static func decibels(_ level: Double) -> Double? {
        level > 0 ? 20 * log10(level) : nil
    }
}

/// Integrated loudness, loudness range and peaks of a programme.
public struct LoudnessMeasurement: Equatable, Codable, Sendable {
    /// Integrated (gated) loudness in LUFS; nil when no 400 ms block reaches the −70 LUFS gate.
    public var integrated: Double?
    /// Loudness range in LU (EBU Tech 3342).
    public var range: Double
    /// The highest sample in dBFS; nil for digital silence.
    public var samplePeak: Double?
    /// The highest inter-sample peak in dBTP as BS.1770-4 measures it (libebur128's: 4×
    /// oversampled below 96 kHz, 2× below 192 kHz); nil for silence.
    public var truePeak: Double?
    /// The highest point of the 8× reconstruction flat to 0.45 of the rate, in dBTP, which
    /// BS.1770-4's short filter under-reads near Nyquist; nil for silence or when not measured.
    public var reconstructedPeak: Double?

    public init(integrated: Double?, range: Double, samplePeak: Double?, truePeak: Double?, reconstructedPeak: Double? = nil) {
        self.integrated = integrated
        self.range = range
        self.samplePeak = samplePeak
        self.truePeak = truePeak
        self.reconstructedPeak = reconstructedPeak
    }

    /// The higher of the two true peaks, the one a ceiling is held against.
    public var highestTruePeak: Double? {
        switch (truePeak, reconstructedPeak) {
        case let (bs1770?, reconstructed?): max(bs1770, reconstructed)
        case let (one, other): one ?? other
        }
    }
}

/// The meter could not be made or fed.
public enum LoudnessError: Error, Equatable, CustomStringConvertible {
    case unsupported(channelCount: Int, sampleRate: Int)
    case outOfMemory

    public var description: String {
        switch self {
        case .unsupported(let channels, let rate): "loudness cannot be measured for \(channels) channels at \(rate) Hz"
        case .outOfMemory: "out of memory while measuring loudness"
        }
    }
}
