@testable import Resampling

/// A registered engine by name, configured for the rates, channels and quality.
func engine(named name: String, _ inputRate: Int, _ outputRate: Int, channels: Int = 1,
            quality: ResamplerQuality = .best) throws -> any ResamplerEngine {
    try ResamplerRegistry.engine(named: name)
        .makeEngine(ResamplerConfiguration(inputRate: inputRate, outputRate: outputRate, channelCount: channels, quality: quality))
}

/// Streams interleaved `input` through `engine`, `chunk` input frames and `room` output
/// frames per call, the last input marked as the end; returns every frame produced.
func stream(_ input: [Float], through engine: any ResamplerEngine, chunk: Int, room: Int) throws -> [Float] {
    let channels = engine.configuration.channelCount
    let frames = input.count / channels
    var output: [Float] = []
    var block = [Float](repeating: 0, count: room * channels)
    var position = 0
    while true {
        let count = min(chunk, frames - position)
        let ended = position + count == frames
        let progress = try input.withUnsafeBufferPointer { source in
            try block.withUnsafeMutableBufferPointer { destination in
                try engine.process(.interleaved(source.baseAddress! + position * channels), inputFrames: count,
                                   into: .interleaved(destination.baseAddress!), outputCapacity: room, endOfInput: ended)
            }
        }
        position += progress.framesConsumed
        output += block.prefix(progress.framesProduced * channels)
        if ended, progress.framesConsumed == 0, progress.framesProduced == 0 { break }
    }
    return output
}
