import AudioGraph
import Resampling

/// Changes the sample rate of a stream as one unbroken engine stream per group of channels:
/// with two or more channels, two groups (the first half and the rest) on two threads.
///
/// For engines whose cost is per channel, or whose reset is expensive (soxr redesigns its
/// filter), splitting the channels uses both cores with no block joins: each group's engine
/// sees its whole stream, so the output is exactly what one engine makes. Input is gathered
/// `chunkFrames` at a time, so the threads meet once per chunk; everything is allocated at init.
final class ChannelSplitResampler: StreamResampler {
    /// Input frames converted per meeting of the threads.
    static let chunkFrames = 32768

    let channelCount: Int
    /// Input frames asked of the source at a time.
    let pullFrames: Int
    private let chunkCapacity: Int
    private let input: UnsafeMutablePointer<Float>
    private var inputEnded = false
    private var finished = false
    private var servePosition = 0

    private let lanes: [Lane]
    private var worker: PairedWorker?

    /// One engine, the channels it converts, and its input and output for the current chunk.
    // Safe to share: the worker runs a lane only inside `runAlongside`, while the render thread leaves it alone.
    final class Lane: @unchecked Sendable {
        let engine: any ResamplerEngine
        let engineName: String
        let firstChannel: Int
        let channelCount: Int
        let input: UnsafeMutablePointer<Float>
        let output: UnsafeMutablePointer<Float>
        let outputCapacity: Int
        var inputFrames = 0
        var endOfInput = false
        var produced = 0
        /// Output frames already served, dropped from the front before the next chunk.
        var served = 0
        var failure: ResamplerError?

        init(engine: any ResamplerEngine, engineName: String, firstChannel: Int, inputCapacity: Int, outputCapacity: Int) {
            self.engine = engine
            self.engineName = engineName
            self.firstChannel = firstChannel
            channelCount = engine.configuration.channelCount
            self.outputCapacity = outputCapacity
            input = .allocate(capacity: inputCapacity * channelCount)
            output = .allocate(capacity: outputCapacity * channelCount)
        }

        deinit {
            input.deallocate()
            output.deallocate()
        }

        /// Keeps the output not yet served (from `served`) at the front, then converts the
        /// chunk's input after it; at the end of input, drains the tail.
        func run() {
            output.update(from: output + served * channelCount, count: (produced - served) * channelCount)
            produced -= served
            var used = 0
            do throws(ResamplerError) {
                while used < inputFrames || endOfInput {
                    let step = try engine.process(.interleaved(input + used * channelCount), inputFrames: inputFrames - used,
                                                  into: .interleaved(output + produced * channelCount),
                                                  outputCapacity: outputCapacity - produced, endOfInput: endOfInput)
                    used += step.framesConsumed
                    produced += step.framesProduced
                    if step.framesConsumed == 0, step.framesProduced == 0 {
                        if endOfInput, used == inputFrames { break }
                        throw .stalled(engine: engineName, produced: produced, expected: outputCapacity)
                    }
                }
                failure = nil
            } catch {
                failure = error
            }
        }
    }

    /// A resampler with one engine of `kind` per channel group for `configuration`, taking
    /// input `pullFrames` frames at a time.
    init(kind: ResamplerEngineKind, configuration: ResamplerConfiguration, pullFrames: Int) throws(ResamplerError) {
        channelCount = configuration.channelCount
        self.pullFrames = pullFrames
        let chunkCapacity = max(pullFrames, Self.chunkFrames)
        self.chunkCapacity = chunkCapacity
        input = .allocate(capacity: chunkCapacity * configuration.channelCount)
        let channels = configuration.channelCount, firstGroup = (channels + 1) / 2
        let groups = channels == 1 ? [(0, 1)] : [(0, firstGroup), (firstGroup, channels - firstGroup)]
        lanes = try groups.map { (first, count) throws(ResamplerError) in
            var group = configuration
            group.channelCount = count
            let engine = try kind.makeEngine(group)
            let outputCapacity = Int((Double(chunkCapacity + 4 * engine.latency) * configuration.ratio).rounded(.up)) + 1024
            return Lane(engine: engine, engineName: kind.name, firstChannel: first, inputCapacity: chunkCapacity,
                        outputCapacity: outputCapacity)
        }
        if lanes.count == 2 {
            let second = lanes[1]
            worker = PairedWorker { second.run() }
        }
    }

    deinit {
        worker = nil
        input.deallocate()
    }

    func reset() {
        for lane in lanes {
            lane.engine.reset()
            lane.produced = 0
            lane.served = 0
            lane.inputFrames = 0
            lane.endOfInput = false
        }
        inputEnded = false
        finished = false
        servePosition = 0
    }

    func read(into target: AudioBufferList, offset: Int, frames: Int,
              pull: (UnsafeMutablePointer<Float>, Int) throws -> Int) throws -> Int {
        var filled = 0
        while filled < frames {
            var available = lanes[0].produced
            for index in 1..<lanes.count { available = min(available, lanes[index].produced) }
            if servePosition == available {
                if finished { break }
                try convertNextChunk(pull: pull)
                continue
            }
            let count = min(frames - filled, available - servePosition)
            for index in 0..<lanes.count {
                let lane = lanes[index]
                let source = lane.output + servePosition * lane.channelCount
                for channel in 0..<lane.channelCount {
                    let destination = target[lane.firstChannel + channel] + offset + filled
                    for frame in 0..<count { destination[frame] = source[frame * lane.channelCount + channel] }
                }
            }
            filled += count
            servePosition += count
        }
        return filled
    }

    /// Reads the next chunk of input, hands each group its channels and converts them, the
    /// second group on the worker.
    private func convertNextChunk(pull: (UnsafeMutablePointer<Float>, Int) throws -> Int) throws {
        var frames = 0
        while !inputEnded, frames + pullFrames <= chunkCapacity {
            let got = try pull(input + frames * channelCount, pullFrames)
            frames += got
            if got < pullFrames { inputEnded = true }
        }
        for index in 0..<lanes.count {
            let lane = lanes[index]
            for frame in 0..<frames {
                for channel in 0..<lane.channelCount {
                    lane.input[frame * lane.channelCount + channel] = input[frame * channelCount + lane.firstChannel + channel]
                }
            }
            lane.inputFrames = frames
            lane.endOfInput = inputEnded
            lane.served = servePosition
        }
        let first = lanes[0]
        if let worker { worker.runAlongside { first.run() } } else { first.run() }
        for index in 0..<lanes.count { if let failure = lanes[index].failure { throw failure } }
        servePosition = 0
        if inputEnded { finished = true }
    }
}
