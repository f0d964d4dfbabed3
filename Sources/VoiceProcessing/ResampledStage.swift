import Resampling

/// One resampling step of the voice node (into WebRTC's rate, back out of it, or the far end's
/// into it): an engine of the project's resampler seam and the queue it fills.
///
/// The engine is primed with silence at start and reset (soxr allocates while it first runs),
/// and what it makes of that silence is dropped: the stream then starts exactly where a new
/// engine's would, and converting allocates nothing.
final class ResampledStage {
    /// The converted frames, waiting to be taken.
    let output: PlanarQueue
    private let engine: any ResamplerEngine
    private let kindName: String
    private let inputViews: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>
    private var toDrop = 0

    /// Frames primed: at least this many, a whole number of the rates' units.
    static let primingFrames = 16 * 1024

    /// A stage converting `configuration` with `kind`, holding up to `capacity` converted frames.
    init(kind: ResamplerEngineKind, configuration: ResamplerConfiguration, capacity: Int) throws {
        engine = try kind.makeEngine(configuration)
        kindName = kind.name
        output = PlanarQueue(channelCount: configuration.channelCount, capacity: capacity)
        inputViews = .allocate(capacity: configuration.channelCount)
        inputViews.initialize(repeating: output.front(0))
        try prime()
    }

    deinit { inputViews.deallocate() }

    /// The engine's rates and channels.
    var configuration: ResamplerConfiguration { engine.configuration }

    /// Converts `frames` frames (one pointer per channel), appending what comes out to `output`.
    func push(_ input: (Int) -> UnsafeMutablePointer<Float>, frames: Int) throws {
        var offset = 0
        while offset < frames {
            for channel in 0..<inputViews.count { inputViews[channel] = input(channel) + offset }
            let room = output.room
            let step = try engine.process(.planar(UnsafeBufferPointer(inputViews)), inputFrames: frames - offset,
                                          into: .planar(UnsafeBufferPointer(output.backs)), outputCapacity: room, endOfInput: false)
            output.didAppend(step.framesProduced)
            let dropped = min(toDrop, output.count)
            output.removeFirst(dropped)
            toDrop -= dropped
            offset += step.framesConsumed
            if step.framesConsumed == 0, step.framesProduced == 0 {
                throw ResamplerError.library(engine: kindName, message: "took no input and made no output")
            }
        }
    }

    /// Starts the stream again, primed.
    func reset() throws {
        engine.reset()
        output.removeAll()
        try prime()
    }

    /// Runs silence through the engine from its start and drops what it makes of it.
    private func prime() throws {
        let configuration = engine.configuration
        var (a, b) = (configuration.inputRate, configuration.outputRate)
        while b != 0 { (a, b) = (b, a % b) }
        let unit = configuration.inputRate / a
        let units = (Self.primingFrames + unit - 1) / unit
        toDrop = units * (configuration.outputRate / a)
        let silence = PlanarQueue(channelCount: configuration.channelCount, capacity: 1024)
        var left = units * unit
        while left > 0 {
            let frames = min(left, silence.capacity)
            try push({ silence.front($0) }, frames: frames)
            left -= frames
        }
    }
}
