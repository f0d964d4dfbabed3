import AudioGraph
import Resampling

/// What the format converter reads converted frames from: a stream resampled on two threads,
/// by blocks of time (`BlockResampler`) or by channels (`ChannelSplitResampler`), as the
/// engine's `parallelism` says.
protocol StreamResampler: AnyObject {
    /// Writes up to `frames` converted frames into `target` from `offset`, deinterleaved;
    /// returns fewer only at the end of the stream. `pull` fills interleaved input, returning
    /// fewer frames than asked at the end.
    func read(into target: AudioBufferList, offset: Int, frames: Int,
              pull: (UnsafeMutablePointer<Float>, Int) throws -> Int) throws -> Int

    /// Forgets the input read so far: the next `read` starts the stream again.
    func reset()
}

/// The stream resampler `kind`'s parallelism calls for, for `configuration`.
func makeStreamResampler(kind: ResamplerEngineKind, configuration: ResamplerConfiguration,
                         pullFrames: Int) throws(ResamplerError) -> any StreamResampler {
    switch kind.parallelism {
    case .timeBlocks: try BlockResampler(kind: kind, configuration: configuration, pullFrames: pullFrames)
    case .channels: try ChannelSplitResampler(kind: kind, configuration: configuration, pullFrames: pullFrames)
    }
}
