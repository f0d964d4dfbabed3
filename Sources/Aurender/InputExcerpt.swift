import AudioNodes
import AudioFormats

/// The part of an input a render reads: from a start time for a duration or up to an end
/// time, in exact frames at the input's own rate.
///
/// An excerpt that starts at or past the input's end, or ends past it, is refused rather than
/// rendered short: a render never silently gives less than it was asked for.
public struct InputExcerpt: Sendable, Equatable {
    /// Where the excerpt ends.
    public enum End: Sendable, Equatable {
        /// This long after the start.
        case duration(TimeValue)
        /// At this time from the input's start.
        case at(TimeValue)
    }

    /// Where the excerpt starts, from the input's start.
    public var start: TimeValue
    /// Where it ends; nil reads to the input's end.
    public var end: End?

    /// The excerpt from `start` to `end` (nil: to the input's end).
    public init(start: TimeValue = .frames(0), end: End? = nil) {
        self.start = start
        self.end = end
    }

    /// The first frame and the frame count (nil: to the end) at `sampleRate`; refuses an end
    /// at or before the start.
    func frames(at sampleRate: Double, path: String) throws(RenderError) -> (start: Int64, count: Int64?) {
        let first = start.frames(at: sampleRate)
        switch end {
        case nil: return (first, nil)
        case .duration(let duration): return (first, duration.frames(at: sampleRate))
        case .at(let time):
            let last = time.frames(at: sampleRate)
            guard last > first else {
                throw .usage("\(path): the excerpt ends at \(Self.describe(last, sampleRate)), which is not after its start at "
                             + Self.describe(first, sampleRate))
            }
            return (first, last - first)
        }
    }

    /// `frames` as seconds and frames: `10.0 s (441000 frames)`.
    static func describe(_ frames: Int64, _ sampleRate: Double) -> String {
        "\(RenderError.format(Double(frames) / sampleRate)) s (\(frames) frames)"
    }
}

/// Reads an excerpt of another decoder: skips to its start on the first read, gives its
/// frames, and fails (rather than ending early) when the input ends before the excerpt does.
///
/// Skipping reads through the caller's own buffer, so it allocates nothing while rendering.
final class ExcerptDecoder: DecoderWrapper {
    let base: any AudioDecoder
    private let first: Int64
    /// The input's frame the excerpt starts at.
    var firstFrame: Int64 { first }
    private let count: Int64?
    private var skipped = false
    private var given: Int64 = 0

    /// The excerpt of `base`; refuses, when the input states its exact length, an excerpt that
    /// starts at or past its end or ends past it.
    init(_ base: any AudioDecoder, excerpt: InputExcerpt) throws(RenderError) {
        self.base = base
        let rate = base.format.sampleRate
        (first, count) = try excerpt.frames(at: rate, path: base.path)
        if let total = base.length.exactFrames {
            guard first < total else {
                throw .usage("\(base.path): the excerpt starts at \(InputExcerpt.describe(first, rate)), at or past the input's end at "
                             + InputExcerpt.describe(total, rate))
            }
            if let count, first + count > total {
                throw .usage("\(base.path): the excerpt ends at \(InputExcerpt.describe(first + count, rate)), past the input's end at "
                             + "\(InputExcerpt.describe(total, rate)); it has \(InputExcerpt.describe(total - first, rate)) after the start")
            }
        }
    }

    var length: AudioLength {
        if let count { return .exact(count) }
        switch base.length {
        case .exact(let total): return .exact(total - first)
        case .estimated(let total): return .estimated(max(0, total - first))
        case .unknown: return .unknown
        }
    }

    func read(into buffer: UnsafeMutablePointer<Float>, frames: Int) throws(AudioFormatError) -> Int {
        try excerptRead(frames: frames) { (wanted) throws(AudioFormatError) in try base.read(into: buffer, frames: wanted) }
    }

    func read(into buffer: UnsafeMutablePointer<Int16>, frames: Int) throws(AudioFormatError) -> Int {
        try excerptRead(frames: frames) { (wanted) throws(AudioFormatError) in try base.read(into: buffer, frames: wanted) }
    }

    func rewind() throws(AudioFormatError) {
        try base.rewind()
        skipped = false
        given = 0
    }

    /// Skips to the start (through the same buffer) once, then reads up to the excerpt's end.
    private func excerptRead(frames: Int, _ read: (Int) throws(AudioFormatError) -> Int) throws(AudioFormatError) -> Int {
        let rate = base.format.sampleRate
        if !skipped {
            var position: Int64 = 0
            while position < first {
                let wanted = Int(min(Int64(frames), first - position))
                let got = try read(wanted)
                position += Int64(got)
                if got < wanted {
                    throw AudioFormatError(path: path, kind: .invalidFile, reason: "the excerpt starts at "
                                           + "\(InputExcerpt.describe(first, rate)), past the input's end at \(InputExcerpt.describe(position, rate))")
                }
            }
            skipped = true
        }
        let wanted = count.map { Int(min(Int64(frames), $0 - given)) } ?? frames
        guard wanted > 0 else { return 0 }
        let got = try read(wanted)
        given += Int64(got)
        if let count, got < wanted {
            throw AudioFormatError(path: path, kind: .invalidFile, reason: "the input ended at \(InputExcerpt.describe(first + given, rate)), "
                                   + "before the excerpt's end at \(InputExcerpt.describe(first + count, rate))")
        }
        return got
    }
}
