import AudioFiles
import AudioFormats
import Resampling

/// An impulse response for a convolution, read whole from an audio file and brought to the
/// graph's rate: one array of samples per channel of the file.
///
/// Any file aurender reads will do (the format registry picks the decoder); a file at another
/// rate is resampled by a resampler engine and scaled by the rates' ratio, so a response
/// measured at 96 kHz plays the same room, at the same level, in a 44.1 kHz render. It is held
/// in memory, so its length is bounded (`longest`).
public struct ImpulseResponse: Sendable {
    /// The longest response taken, in seconds at the file's rate.
    public static let longest = 60.0

    /// The file, as named.
    public let path: String
    /// The samples, one array per channel, at `sampleRate`.
    public let channels: [[Float]]
    /// The rate of `channels`: the graph's.
    public let sampleRate: Double
    /// The file's own rate.
    public let fileRate: Double
    /// The engine and quality that resampled it ("soxr best"), nil when the rates matched.
    public let resampledBy: String?

    /// Frames per channel.
    public var frameCount: Int { channels.first?.count ?? 0 }

    /// A response of `channels` at `sampleRate`, as read from `path` (or made in memory).
    public init(path: String, channels: [[Float]], sampleRate: Double) {
        self.path = path
        self.channels = channels
        self.sampleRate = sampleRate
        fileRate = sampleRate
        resampledBy = nil
    }

    /// Reads the response in `path` and brings it to `sampleRate` with `resampler` at `quality`.
    /// A file that cannot be read, or is empty, or longer than `longest`, is refused, naming it.
    public static func load(path: String, sampleRate: Double, resampler: ResamplerEngineKind = ResamplerRegistry.defaultEngine,
                            quality: ResamplerQuality = .best,
                            registry: FormatRegistry = .standard) throws(ImpulseResponseError) -> ImpulseResponse {
        let decoder: any AudioDecoder
        do { decoder = try registry.openDecoder(path: path) } catch { throw ImpulseResponseError(path: path, cause: error) }
        defer { decoder.close() }
        let format = decoder.format, channelCount = format.channelCount
        let most = Int(longest * format.sampleRate)
        var interleaved: [Float] = []
        let chunk = 65_536
        var scratch = [Float](repeating: 0, count: chunk * channelCount)
        while true {
            let got: Int
            do { got = try scratch.withUnsafeMutableBufferPointer { buffer throws(AudioFormatError) in try decoder.read(into: buffer.baseAddress!, frames: chunk) } } catch {
                throw ImpulseResponseError(path: path, cause: error)
            }
            interleaved += scratch[0..<(got * channelCount)]
            guard interleaved.count <= most * channelCount else {
                throw ImpulseResponseError(path: path, problem: "is longer than \(Int(longest)) s, the longest impulse response taken")
            }
            if got < chunk { break }
        }
        let frames = interleaved.count / channelCount
        guard frames > 0 else { throw ImpulseResponseError(path: path, problem: "holds no audio") }
        var resampledBy: String?
        if format.sampleRate != sampleRate {
            guard let from = Int(exactly: format.sampleRate), let to = Int(exactly: sampleRate) else {
                throw ImpulseResponseError(path: path, problem: "is at \(format.sampleRate) Hz, which cannot be resampled to \(sampleRate) Hz "
                                           + "(resampling needs whole numbers of Hz)")
            }
            interleaved = try resample(interleaved, frames: frames, ResamplerConfiguration(inputRate: from, outputRate: to, channelCount: channelCount,
                                                                                           quality: quality), resampler, path: path)
            resampledBy = "\(resampler.name) \(resampler.level(for: quality)?.name ?? quality.name)"
            // A response holds the filter's output for one sample of input at its own rate; at a
            // rate r times higher an impulse carries 1/r of the energy, so the samples scale by the
            // rates' ratio and the filter keeps its frequency response (its gain at DC included).
            let ratio = Float(format.sampleRate / sampleRate)
            interleaved = interleaved.map { $0 * ratio }
        }
        let count = interleaved.count / channelCount
        let channels = (0..<channelCount).map { channel in (0..<count).map { interleaved[$0 * channelCount + channel] } }
        return ImpulseResponse(path: path, channels: channels, sampleRate: sampleRate, fileRate: format.sampleRate, resampledBy: resampledBy)
    }

    private init(path: String, channels: [[Float]], sampleRate: Double, fileRate: Double, resampledBy: String?) {
        self.path = path
        self.channels = channels
        self.sampleRate = sampleRate
        self.fileRate = fileRate
        self.resampledBy = resampledBy
    }

    /// `frames` interleaved frames converted as `configuration` says, to the exact length the
    /// engine's contract gives.
    private static func resample(_ input: [Float], frames: Int, _ configuration: ResamplerConfiguration, _ kind: ResamplerEngineKind,
                                 path: String) throws(ImpulseResponseError) -> [Float] {
        let channels = configuration.channelCount, expected = configuration.outputFrames(forInputFrames: frames)
        var output = [Float](repeating: 0, count: max(1, expected) * channels)
        do {
            let engine = try kind.makeEngine(configuration)
            var consumed = 0, produced = 0
            try input.withUnsafeBufferPointer { (source) throws(ResamplerError) in
                try output.withUnsafeMutableBufferPointer { (target) throws(ResamplerError) in
                    while produced < expected {
                        let given = frames - consumed
                        let progress = try engine.process(.interleaved(source.baseAddress! + consumed * channels), inputFrames: given,
                                                          into: .interleaved(target.baseAddress! + produced * channels),
                                                          outputCapacity: expected - produced, endOfInput: true)
                        consumed += progress.framesConsumed
                        produced += progress.framesProduced
                        if progress.framesProduced == 0 && given == 0 { break }
                    }
                }
            }
            guard produced == expected else { throw ResamplerError.stalled(engine: kind.name, produced: produced, expected: expected) }
        } catch {
            throw ImpulseResponseError(path: path, problem: "could not be resampled to \(configuration.outputRate) Hz: \(error)")
        }
        return Array(output[0..<(expected * channels)])
    }

    /// Whether every sample is zero.
    public var isSilent: Bool { channels.allSatisfy { $0.allSatisfy { $0 == 0 } } }

    /// The factor that gives the output channel the response makes loudest unit energy: the
    /// sum of the squares of the responses feeding it, as `routing` joins them, becomes 1, so a
    /// broadband signal comes out of the convolution at about the level it went in. Nil when
    /// the response is silent.
    public func normalizationFactor(for routing: ConvolutionRouting) -> Float? {
        var energies = [Double](repeating: 0, count: routing.outputCount)
        for route in routing.routes {
            energies[route.output] += channels[route.response].reduce(0.0) { $0 + Double($1) * Double($1) }
        }
        guard let loudest = energies.max(), loudest > 0 else { return nil }
        return Float(1 / loudest.squareRoot())
    }
}

/// An impulse response could not be used: the file, and why (the decoder's words when it could
/// not be read).
public struct ImpulseResponseError: Error, Equatable, CustomStringConvertible {
    /// The file, as named.
    public let path: String
    /// What is wrong, as a clause after the file's name.
    public let problem: String
    /// The decoder's error, when the file could not be opened or read.
    public let cause: AudioFormatError?

    /// `path` could not be used because of `problem`.
    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
        cause = nil
    }

    /// `path` could not be read: `cause` says why.
    public init(path: String, cause: AudioFormatError) {
        self.path = path
        problem = cause.reason
        self.cause = cause
    }

    /// `impulse response room.wav: <problem>`, the one line a user sees.
    public var description: String { "impulse response \(path): \(problem)" }
}
