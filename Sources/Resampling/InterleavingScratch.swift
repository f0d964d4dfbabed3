/// Lets an engine that reads and writes interleaved frames only take planar ones: planar frames
/// are interleaved into scratch buffers made once at init, `frames` at a time, and back, so
/// processing allocates nothing.
final class InterleavingScratch {
    /// Frames per pass through the scratch buffers.
    static let frames = 1024

    private let channelCount: Int
    private let input: UnsafeMutablePointer<Float>
    private let output: UnsafeMutablePointer<Float>

    init(channelCount: Int) {
        self.channelCount = channelCount
        input = .allocate(capacity: Self.frames * channelCount)
        output = .allocate(capacity: Self.frames * channelCount)
    }

    deinit {
        input.deallocate()
        output.deallocate()
    }

    /// Runs `interleaved` (one step of the engine on interleaved frames: input, input frames,
    /// output, output capacity, end of input) on `input` and `output` in whichever layouts they
    /// come: directly when both are interleaved, else through the scratch buffers, one scratch's
    /// worth at a time.
    func process(_ input: ResamplerInput, inputFrames: Int, into output: ResamplerOutput, outputCapacity: Int, endOfInput: Bool,
                 _ interleaved: (UnsafePointer<Float>, Int, UnsafeMutablePointer<Float>, Int, Bool) throws(ResamplerError) -> ResamplerProgress)
        throws(ResamplerError) -> ResamplerProgress {
        if case .interleaved(let source) = input, case .interleaved(let destination) = output {
            return try interleaved(source, inputFrames, destination, outputCapacity, endOfInput)
        }
        let frames = min(inputFrames, Self.frames)
        let source: UnsafePointer<Float>
        switch input {
        case .interleaved(let samples):
            source = samples
        case .planar(let channels):
            for channel in 0..<channelCount {
                for frame in 0..<frames { self.input[frame * channelCount + channel] = channels[channel][frame] }
            }
            source = UnsafePointer(self.input)
        }
        let destination: UnsafeMutablePointer<Float>
        if case .interleaved(let samples) = output { destination = samples } else { destination = self.output }
        let progress = try interleaved(source, frames, destination, min(outputCapacity, Self.frames), endOfInput && frames == inputFrames)
        if case .planar(let channels) = output {
            for channel in 0..<channelCount {
                for frame in 0..<progress.framesProduced { channels[channel][frame] = self.output[frame * channelCount + channel] }
            }
        }
        return progress
    }
}

/// An engine whose library reads and writes interleaved frames only: it converts one step of
/// interleaved frames, and takes planar ones through its `InterleavingScratch`.
protocol InterleavedResamplerEngine: ResamplerEngine {
    /// The scratch buffers that interleave planar frames, made at init.
    var scratch: InterleavingScratch { get }

    /// One step of the library on interleaved frames, held to the exact length.
    func processInterleaved(_ input: UnsafePointer<Float>, inputFrames: Int, into output: UnsafeMutablePointer<Float>,
                            outputCapacity: Int, endOfInput: Bool) throws(ResamplerError) -> ResamplerProgress
}

extension InterleavedResamplerEngine {
    func process(_ input: ResamplerInput, inputFrames: Int, into output: ResamplerOutput, outputCapacity: Int,
                 endOfInput: Bool) throws(ResamplerError) -> ResamplerProgress {
        try scratch.process(input, inputFrames: inputFrames, into: output, outputCapacity: outputCapacity, endOfInput: endOfInput) {
            (source, frames, destination, capacity, end) throws(ResamplerError) in
            try processInterleaved(source, inputFrames: frames, into: destination, outputCapacity: capacity, endOfInput: end)
        }
    }
}
