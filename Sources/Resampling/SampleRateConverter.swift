import CSamplerate

/// One libsamplerate converter state, streaming: feed it input blocks, take output blocks.
///
/// A thin typed wrapper over `src_process`: frames used and frames generated are explicit,
/// and the end of input is a flag, never assumed from one frame in giving one frame out.
public final class SampleRateConverter {
    /// Output rate over input rate.
    public let ratio: Double
    /// Channels per frame (interleaved in the buffers).
    public let channelCount: Int
    public let quality: ConverterQuality
    private let state: LibSamplerate.State

    /// What one call consumed and produced.
    public struct Progress: Equatable, Sendable {
        public var framesUsed: Int
        public var framesGenerated: Int

        public init(framesUsed: Int, framesGenerated: Int) {
            self.framesUsed = framesUsed
            self.framesGenerated = framesGenerated
        }
    }

    /// A converter from one rate to another (`ratio` = output rate / input rate, 1/256 to 256).
    public init(ratio: Double, channelCount: Int = 1, quality: ConverterQuality = .best) throws(SampleRateConverterError) {
        guard LibSamplerate.isValidRatio(ratio) else { throw .invalidRatio(ratio) }
        var error: Int32 = 0
        guard let state = LibSamplerate.new(converter: quality.rawValue, channels: channelCount, error: &error) else {
            throw .library(LibSamplerate.message(error))
        }
        self.ratio = ratio
        self.channelCount = channelCount
        self.quality = quality
        self.state = state
    }

    deinit { LibSamplerate.delete(state) }

    /// Converts up to `inputFrames` frames from `input` into at most `outputCapacity` frames at
    /// `output`; `endOfInput` says no input follows, so the converter flushes its tail.
    public func process(input: UnsafePointer<Float>, inputFrames: Int, output: UnsafeMutablePointer<Float>,
                        outputCapacity: Int, endOfInput: Bool) throws(SampleRateConverterError) -> Progress {
        var data = SRC_DATA(data_in: input, data_out: output, input_frames: inputFrames, output_frames: outputCapacity,
                            input_frames_used: 0, output_frames_gen: 0, end_of_input: endOfInput ? 1 : 0, src_ratio: ratio)
        let status = LibSamplerate.process(state, &data)
        if status != 0 { throw .library(LibSamplerate.message(status)) }
        return Progress(framesUsed: data.input_frames_used, framesGenerated: data.output_frames_gen)
    }

    /// Forgets all input, as if new.
    public func reset() { LibSamplerate.reset(state) }

    /// Converts a whole signal at once with libsamplerate's `src_simple`: the reference the
    /// streaming converter is checked against.
    public static func convertWhole(_ input: [Float], channelCount: Int, ratio: Double,
                                    quality: ConverterQuality) throws(SampleRateConverterError) -> [Float] {
        guard LibSamplerate.isValidRatio(ratio) else { throw .invalidRatio(ratio) }
        let inputFrames = input.count / channelCount
        let capacity = Int((Double(inputFrames) * ratio).rounded(.up)) + 64
        var output = [Float](repeating: 0, count: capacity * channelCount)
        var status: Int32 = 0
        var generated = 0
        input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                var data = SRC_DATA(data_in: source.baseAddress, data_out: destination.baseAddress, input_frames: inputFrames,
                                    output_frames: capacity, input_frames_used: 0, output_frames_gen: 0, end_of_input: 1,
                                    src_ratio: ratio)
                status = LibSamplerate.simple(&data, converter: quality.rawValue, channels: channelCount)
                generated = data.output_frames_gen
            }
        }
        if status != 0 { throw .library(LibSamplerate.message(status)) }
        return Array(output.prefix(generated * channelCount))
    }
}

/// libsamplerate refused a conversion.
public enum SampleRateConverterError: Error, Equatable, CustomStringConvertible {
    case invalidRatio(Double)
    case library(String)

    public var description: String {
        switch self {
        case .invalidRatio(let ratio): "a rate ratio of \(ratio) is outside libsamplerate's 1/256 to 256"
        case .library(let message): "libsamplerate: \(message)"
        }
    }
}
