/// Where an input's frames land in a render's output: the frames cut from its front, the rate
/// change, and the time stretch between them, applied to `bext`'s time reference and to markers.
///
/// Input frame f lands on output frame ((f − cut) ÷ input rate − trimmed seconds) × stretch ×
/// output rate: an excerpt cuts at the input's rate, a silence trim after the rate converter, and
/// a tempo or speed change stretches what is left (a time-pitch node keeps time with its input).
public struct Retiming: Equatable, Sendable {
    /// The input's rate.
    public var inputRate: Double
    /// The output's rate.
    public var outputRate: Double
    /// Frames cut from the input's front at its rate (an excerpt's start).
    public var cutFrames: Int64
    /// Seconds cut after that (silence trimmed from the front).
    public var trimmedSeconds: Double
    /// How much longer the output lasts than what it renders of the input: 1 ÷ (tempo × speed).
    public var stretch: Double

    /// Frames cut and moved as stated.
    public init(inputRate: Double, outputRate: Double, cutFrames: Int64 = 0, trimmedSeconds: Double = 0, stretch: Double = 1) {
        self.inputRate = inputRate
        self.outputRate = outputRate
        self.cutFrames = cutFrames
        self.trimmedSeconds = trimmedSeconds
        self.stretch = stretch
    }

    /// A time reference for the output's first frame: `reference` (frames since midnight at the
    /// input's rate) and the frames cut, at the output's rate. A time stretch leaves it: it
    /// says when the first frame was recorded.
    public func timeReference(_ reference: UInt64) -> UInt64 {
        let cut = Double(cutFrames) + (trimmedSeconds * inputRate).rounded()
        let frames = Double(reference) + cut
        if inputRate == outputRate { return UInt64(max(0, frames)) }
        return UInt64(max(0, (frames * outputRate / inputRate).rounded()))
    }

    /// Where input frame `frame` lands in the output, in frames at its rate (unrounded).
    public func position(of frame: Int64) -> Double {
        ((Double(frame - cutFrames) / inputRate) - trimmedSeconds) * stretch * outputRate
    }

    /// `markers` where they land in an output of `outputFrames` frames: those outside left out,
    /// regions clipped to it.
    public func markers(_ markers: [Marker], outputFrames: Int64) -> [Marker] {
        markers.compactMap { marker in
            let start = position(of: marker.frame).rounded()
            var moved = marker
            if marker.isRegion {
                let end = min(Double(outputFrames), position(of: marker.frame + marker.length).rounded())
                let first = max(0, start)
                guard end > first else { return nil }
                moved.frame = Int64(first)
                moved.length = Int64(end - first)
            } else {
                guard start >= 0, start <= Double(outputFrames) else { return nil }
                moved.frame = Int64(start)
            }
            return moved
        }
    }
}
