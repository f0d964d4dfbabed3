import AudioGraph
import Resampling

/// Changes the sample rate of a stream in fixed blocks of input, two blocks at a time on two
/// threads, each block through its own resampler engine.
///
/// An engine's cost is per frame more than per channel (a stereo libsamplerate state costs what
/// a mono one does), so converting channels in parallel gains little; converting spans of
/// time does. Each block's engine starts `preroll` frames early and reads `preroll` frames past
/// the block's end, at least the engine's `latency` (how far its filter reaches), and blocks
/// start where input and output frames align exactly (the block start × ratio is whole), so
/// the blocks join into what one engine makes, to within rounding. Block boundaries depend only on input time, so the
/// output does not depend on slice sizes. Everything is allocated at init.
final class BlockResampler: StreamResampler {
    let channelCount: Int
    /// The rates, channels and quality every block is converted with.
    let configuration: ResamplerConfiguration
    /// Input frames per block, a multiple of the alignment unit.
    let blockFrames: Int
    /// Input frames fed before and after each block.
    let preroll: Int
    /// Input frames asked of the source at a time.
    let pullFrames: Int

    /// Interleaved input; frame 0 is input frame `bufferStart` of the stream.
    private let input: UnsafeMutablePointer<Float>
    private let inputCapacity: Int
    private var bufferStart = 0
    private var bufferFrames = 0
    private var inputEnded = false
    private var pairStart = 0
    private var servingLane = 2
    private var servePosition = 0
    private var finished = false

    private let lanes: [Lane]
    private var worker: PairedWorker?

    /// One engine and the output of the block it last converted.
    // Safe to share: the worker runs a lane only inside `runAlongside`, while the render thread leaves it alone.
    final class Lane: @unchecked Sendable {
        let engine: any ResamplerEngine
        let engineName: String
        let channelCount: Int
        let output: UnsafeMutablePointer<Float>
        var job = Job()
        var failure: ResamplerError?

        init(engine: any ResamplerEngine, engineName: String, capacity: Int) {
            self.engine = engine
            self.engineName = engineName
            channelCount = engine.configuration.channelCount
            output = .allocate(capacity: capacity * channelCount)
        }

        deinit { output.deallocate() }

        /// Converts the job's input from the start: the preroll's output is dropped, then
        /// exactly `keep` frames are kept (the engine's exact length makes a final block's flush
        /// end there).
        func run(_ input: UnsafePointer<Float>) {
            engine.reset()
            let total = job.discard + job.keep
            var used = 0, produced = 0
            do throws(ResamplerError) {
                while produced < total {
                    let step = try engine.process(.interleaved(input + (job.inputOffset + used) * channelCount),
                                                  inputFrames: job.inputFrames - used,
                                                  into: .interleaved(output + produced * channelCount),
                                                  outputCapacity: total - produced, endOfInput: job.endOfInput)
                    used += step.framesConsumed
                    produced += step.framesProduced
                    if step.framesConsumed == 0, step.framesProduced == 0 {
                        throw .stalled(engine: engineName, produced: produced, expected: total)
                    }
                }
                failure = nil
            } catch {
                failure = error
            }
        }
    }

    /// What a lane converts: where its input lies in the shared buffer and what output to keep.
    struct Job {
        var inputOffset = 0
        var inputFrames = 0
        var discard = 0
        var keep = 0
        var endOfInput = false
    }

    /// A resampler with two engines of `kind` for `configuration`, taking input `pullFrames`
    /// frames at a time.
    init(kind: ResamplerEngineKind, configuration: ResamplerConfiguration, pullFrames: Int) throws(ResamplerError) {
        self.configuration = configuration
        channelCount = configuration.channelCount
        self.pullFrames = pullFrames
        let unit = Self.alignmentUnit(inputRate: configuration.inputRate, outputRate: configuration.outputRate)
        blockFrames = unit * max(1, Int((65536.0 / Double(unit)).rounded(.up)))
        let engines = try [0, 1].map { _ throws(ResamplerError) in try kind.makeEngine(configuration) }
        preroll = unit * ((engines[0].latency + unit - 1) / unit)
        inputCapacity = 2 * preroll + 2 * blockFrames + pullFrames
        input = .allocate(capacity: inputCapacity * channelCount)
        let laneCapacity = Int((Double(preroll + blockFrames) * configuration.ratio).rounded(.up)) + 16
        lanes = engines.map { Lane(engine: $0, engineName: kind.name, capacity: laneCapacity) }
        let second = lanes[1]
        // Safe: the worker reads the input only inside `runAlongside`, while nothing writes it.
        nonisolated(unsafe) let input = input
        worker = PairedWorker { second.run(input) }
    }

    deinit {
        worker = nil
        input.deallocate()
    }

    /// Forgets the input read so far: the next `read` starts the stream again. Each lane
    /// resets its converter before every block, so no filter state is left to clear.
    func reset() {
        bufferStart = 0
        bufferFrames = 0
        inputEnded = false
        pairStart = 0
        servingLane = 2
        servePosition = 0
        finished = false
    }

    /// The fewest input frames that make a whole number of output frames.
    static func alignmentUnit(inputRate: Int, outputRate: Int) -> Int {
        var (a, b) = (inputRate, outputRate)
        while b != 0 { (a, b) = (b, a % b) }
        return inputRate / a
    }

    /// Writes up to `frames` converted frames into `target` from `offset`, deinterleaved;
    /// returns fewer only at the end of the stream. `pull` fills interleaved input, returning
    /// fewer frames than asked at the end.
    func read(into target: AudioBufferList, offset: Int, frames: Int,
              pull: (UnsafeMutablePointer<Float>, Int) throws -> Int) throws -> Int {
        var filled = 0
        while filled < frames {
            if servingLane == 2 {
                if finished { break }
                try convertNextPair(pull: pull)
                continue
            }
            let lane = lanes[servingLane]
            let count = min(frames - filled, lane.job.keep - servePosition)
            let source = lane.output + (lane.job.discard + servePosition) * channelCount
            for channel in 0..<channelCount {
                let destination = target[channel] + offset + filled
                for frame in 0..<count { destination[frame] = source[frame * channelCount + channel] }
            }
            filled += count
            servePosition += count
            if servePosition == lane.job.keep {
                servingLane += 1
                servePosition = 0
            }
        }
        return filled
    }

    /// Reads input for the next two blocks and converts them, the second on the worker.
    private func convertNextPair(pull: (UnsafeMutablePointer<Float>, Int) throws -> Int) throws {
        let keepFrom = max(0, pairStart - preroll)
        let drop = keepFrom - bufferStart
        if drop > 0 {
            input.update(from: input + drop * channelCount, count: (bufferFrames - drop) * channelCount)
            bufferFrames -= drop
            bufferStart = keepFrom
        }
        while !inputEnded, bufferStart + bufferFrames < pairStart + 2 * blockFrames + preroll {
            let got = try pull(input + bufferFrames * channelCount, pullFrames)
            bufferFrames += got
            if got < pullFrames { inputEnded = true }
        }
        let available = bufferStart + bufferFrames
        for index in 0..<lanes.count {
            let lane = lanes[index]
            let start = pairStart + index * blockFrames
            let end = min(start + blockFrames, available)
            guard start < end else {
                lane.job = Job()
                continue
            }
            let before = min(preroll, start - bufferStart)
            let after = min(preroll, available - end)
            let startOut = configuration.outputFrames(forInputFrames: start)
            let endOut = configuration.outputFrames(forInputFrames: end)
            lane.job = Job(inputOffset: start - before - bufferStart, inputFrames: before + (end - start) + after,
                           discard: configuration.outputFrames(forInputFrames: before), keep: endOut - startOut,
                           endOfInput: inputEnded && end + after == available)
        }
        let first = lanes[0]
        if lanes[1].job.keep > 0, let worker {
            worker.runAlongside { if first.job.keep > 0 { first.run(input) } }
        } else if first.job.keep > 0 {
            first.run(input)
        }
        for index in 0..<lanes.count { if let failure = lanes[index].failure { throw failure } }
        pairStart += 2 * blockFrames
        servingLane = 0
        servePosition = 0
        if lanes[0].job.keep == 0 { servingLane = lanes[1].job.keep == 0 ? 2 : 1 }
        if inputEnded, pairStart >= available { finished = true }
        if lanes[0].job.keep == 0, lanes[1].job.keep == 0 { finished = true }
    }
}
