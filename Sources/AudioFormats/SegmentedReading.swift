/// A decoder's one stream, read from the start: what `SegmentedReading` goes on with where the
/// segments stop.
public protocol SequentialFrameStream: AnyObject {
    /// Decodes up to `frames` interleaved frames into `buffer`: the frames given, fewer only at
    /// the end, and whether the stream met a hole (pages missing or damaged) on the way.
    func readFrames(into buffer: UnsafeMutablePointer<Float>, frames: Int) throws(AudioFormatError) -> (frames: Int, metHole: Bool)
    /// Goes back to the first frame.
    func rewind() throws(AudioFormatError)
    /// Releases the library's decoder.
    func close()
}

/// The reading a decoder that decodes long files in segments shares: frames from its
/// `ParallelSegments` while they last, then from its one stream, which, where a segment did not
/// decode whole, first decodes up to where the segments stopped, as it would have from the start.
///
/// So errors and lengths are those of a reading from the start, and a rewind or a close stops the
/// workers with the stream. The decoder says when to decode in segments (`makeParallel`, asked
/// again at each rewind); no tenant needs to know another's.
public final class SegmentedReading<Stream: SequentialFrameStream> {
    /// The one decoder.
    public let stream: Stream
    private let channelCount: Int
    private let makeParallel: () -> ParallelSegments?
    private var parallel: ParallelSegments?

    /// Reads `stream` (of `channelCount` channels) through the segments `makeParallel` starts,
    /// where it starts any.
    public init(stream: Stream, channelCount: Int, makeParallel: @escaping () -> ParallelSegments?) {
        self.stream = stream
        self.channelCount = channelCount
        self.makeParallel = makeParallel
        parallel = makeParallel()
    }

    deinit { parallel?.stop() }

    /// Decodes up to `frames` interleaved frames into `buffer`, from the segments or the stream;
    /// whether the stream met a hole on the way.
    public func read(into buffer: UnsafeMutablePointer<Float>, frames: Int) throws(AudioFormatError) -> (frames: Int, metHole: Bool) {
        var done = 0, metHole = false
        if let parallel {
            done = parallel.read(into: buffer, frames: frames)
            if parallel.failed { metHole = try goOnAlone(from: parallel) }
        }
        if parallel == nil, done < frames {
            let (got, hole) = try stream.readFrames(into: buffer + done * channelCount, frames: frames - done)
            done += got
            metHole = metHole || hole
        }
        return (done, metHole)
    }

    /// Back to the first frame: the workers stopped, the stream rewound, the segments started again.
    public func rewind() throws(AudioFormatError) {
        parallel?.stop()
        try stream.rewind()
        parallel = makeParallel()
    }

    /// Stops the workers and closes the stream.
    public func close() {
        parallel?.stop()
        parallel = nil
        stream.close()
    }

    /// Stops the workers, one of whose segments did not decode whole, and brings the stream, still
    /// at the start, to where they stopped, decoding as it would have; whether it met a hole.
    private func goOnAlone(from parallel: ParallelSegments) throws(AudioFormatError) -> Bool {
        parallel.stop()
        self.parallel = nil
        let scratchFrames = 4_096
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: scratchFrames * channelCount)
        defer { scratch.deallocate() }
        var skipped: Int64 = 0, metHole = false
        while skipped < parallel.position {
            let (got, hole) = try stream.readFrames(into: scratch, frames: Int(min(Int64(scratchFrames), parallel.position - skipped)))
            metHole = metHole || hole
            if got == 0 { break }
            skipped += Int64(got)
        }
        return metHole
    }
}
