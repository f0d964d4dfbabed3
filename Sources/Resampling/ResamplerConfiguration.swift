/// What an engine is made for: the two rates, the channel count and the quality level.
public struct ResamplerConfiguration: Hashable, Sendable {
    /// The input's rate in Hz.
    public var inputRate: Int
    /// The output's rate in Hz.
    public var outputRate: Int
    /// Samples per frame.
    public var channelCount: Int
    /// The level asked for; each engine maps it to its nearest.
    public var quality: ResamplerQuality

    /// A configuration converting `inputRate` Hz to `outputRate` Hz.
    public init(inputRate: Int, outputRate: Int, channelCount: Int, quality: ResamplerQuality = .best) {
        self.inputRate = inputRate
        self.outputRate = outputRate
        self.channelCount = channelCount
        self.quality = quality
    }

    /// Output rate over input rate.
    public var ratio: Double { Double(outputRate) / Double(inputRate) }

    /// The exact output length of `frames` input frames: round(frames × outputRate / inputRate),
    /// halves rounded up, computed in integers so it never drifts with the length.
    public func outputFrames(forInputFrames frames: Int) -> Int {
        var (a, b) = (inputRate, outputRate)
        while b != 0 { (a, b) = (b, a % b) }
        let (up, down) = (outputRate / a, inputRate / a)
        return (2 * frames * up + down) / (2 * down)
    }
}
