/// Holds an engine's output to the exact-length contract: round(frames × out/in) frames in
/// all, whatever the engine's own flush gives, counted across its steps.
struct ExactLength {
    private let configuration: ResamplerConfiguration
    private var consumed = 0
    private var produced = 0

    init(_ configuration: ResamplerConfiguration) {
        self.configuration = configuration
    }

    /// The output room a step may use: all of `outputCapacity` while input comes, at most what
    /// is still owed once it has ended; nil when nothing is owed (the step's input is then taken
    /// as used, and the step should produce nothing).
    mutating func room(_ outputCapacity: Int, inputFrames: Int, endOfInput: Bool) -> Int? {
        guard endOfInput else { return outputCapacity }
        let owed = configuration.outputFrames(forInputFrames: consumed + inputFrames) - produced
        guard owed > 0 else {
            consumed += inputFrames
            return nil
        }
        return min(outputCapacity, owed)
    }

    /// Records a step that used `used` frames and generated `generated` into `output`; when the
    /// engine `ranDry` (flushed out, frames still owed), the `room` frames owed are zeros.
    mutating func record(used: Int, generated: Int, ranDry: Bool, output: UnsafeMutablePointer<Float>,
                         room: Int) -> ResamplerProgress {
        var generated = generated
        if ranDry, generated == 0 {
            output.update(repeating: 0, count: room * configuration.channelCount)
            generated = room
        }
        consumed += used
        produced += generated
        return ResamplerProgress(framesConsumed: used, framesProduced: generated)
    }

    /// Starts counting again, for a stream started again.
    mutating func reset() {
        consumed = 0
        produced = 0
    }
}
