#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AudioFormats
import Dispatch
import Synchronization

/// Decodes a long MPEG-1 layer III stream on two cores, giving exactly the samples one
/// libmpg123 handle gives reading it from its start: segments of `segmentFrames` MPEG frames
/// alternate between the caller's handle, decoding on the caller's thread, and a second handle
/// on the same file decoding the next segment ahead on a helper thread.
///
/// Why the samples are the same. A handle that seeks decodes and drops `preframes` frames
/// before the one sought (libmpg123's own seek), and only then gives samples:
/// - the bit reservoir (at most 511 bytes back) is whole again after nine frames, even at
///   32 kb/s and 48 kHz with CRCs (58 bytes of main data a frame), so the frame before the
///   segment decodes exactly (`mpg123 -k 384` on such a file gives the full decode's samples
///   with `--preframes 16`, and 17,972 samples off with 8);
/// - the hybrid filter bank's overlap is one granule and the synthesis filter bank's window
///   16 subband blocks, fewer than that frame's 36: both then hold what the decode from the
///   start holds;
/// - the synthesis window's rotation (libmpg123's `bo`), which a seek does not reset, steps 36
///   times a frame and wraps at 16, so it repeats every 4 frames: each segment starts decoding
///   at a frame that is a multiple of 8, and each handle decodes a multiple of 8 frames a
///   segment (the preroll and the segment both are), so the rotation is where the decode from
///   the start has it (libmpg123's x86-64 float synthesis happens to give the same samples
///   at any rotation; others need not). Float output has no dither or other state.
/// Layers I and II are left out (libmpg123 caps their preroll at 2 frames), and so is MPEG-2
/// and 2.5, whose smaller frames could need a longer preroll than the reservoir's nine.
///
/// Where the helper cannot give a segment (an error, a seek that lands elsewhere), the caller's
/// handle, which stands at the end of the segment before, decodes on from there alone, as the
/// decode from the start would. Memory is one segment of samples, whatever the file's length.
final class Mpg123Segments {
    /// MPEG frames in one segment: 10 s at 44.1 kHz, 3.5 MB of stereo samples in the helper's buffer.
    static let segmentFrames = 384
    /// Frames a seek decodes and drops before the segment (libmpg123's `MPG123_PREFRAMES`).
    static let preframes = 16

    private let first: Mpg123Stream
    private let helper: HelperLane
    private let channelCount: Int
    /// Samples a channel in a whole segment.
    private let segmentSamples: Int
    /// The samples the decode trims from the start (encoder and decoder delay), by which the
    /// segments' starts fall short of whole segments.
    private let delay: Int
    /// The segment being read: even ones from `first`, odd ones from the helper's buffer.
    private var segment = 0
    /// Samples of the current even segment still to read from `first`.
    private var remaining: Int
    /// Samples of the helper's buffer read so far.
    private var position = 0
    /// The helper has gone; `first` decodes the rest alone.
    private var alone = false
    private var finished = false
    /// Whether the helper's last segment ended inside an MPEG frame (the file's end cut one).
    private var helperEndedInsideFrame = false

    /// A two-core decoder of `first`'s stream (its bytes ending at `end`, as `first`'s do), which
    /// must not have been read yet, or nil where the stream does not qualify: not MPEG-1 layer
    /// III, a pipe, shorter than two segments, one core, or a second handle that cannot seek to
    /// the second segment.
    static func make(first: Mpg123Stream, source: InputBytes, path: String, end: Int64?) -> Mpg123Segments? {
        let segmentSamples = segmentFrames * first.samplesPerFrame
        guard first.layer == 3, first.isMPEG1, first.samplesPerFrame == 1_152,
              let frames = first.expectedFrames, frames >= Int64(2 * segmentSamples),
              sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1,
              let twin = source.twin(),
              let second = try? Mpg123Stream(source: twin, path: path, preframes: preframes, end: end),
              second.sampleRate == first.sampleRate, second.channelCount == first.channelCount,
              let start = second.seek(toFrame: Int64(segmentFrames)), start <= Int64(segmentSamples),
              start > Int64(segmentSamples - 2 * first.samplesPerFrame)
        else { return nil }
        let helper = HelperLane(stream: second, twin: twin, frames: segmentSamples, delay: segmentSamples - Int(start))
        guard helper.start() else { return nil }
        return Mpg123Segments(first: first, helper: helper, segmentSamples: segmentSamples)
    }

    private init(first: Mpg123Stream, helper: HelperLane, segmentSamples: Int) {
        self.first = first
        self.helper = helper
        channelCount = first.channelCount
        self.segmentSamples = segmentSamples
        delay = helper.delay
        remaining = segmentSamples - helper.delay
    }

    deinit { helper.stop() }

    /// Whether the stream ended inside an MPEG frame, whichever handle read its end
    /// (`Mpg123Stream.endedInsideFrame`).
    var endedInsideFrame: Bool { first.endedInsideFrame || helperEndedInsideFrame }

    /// Decodes up to `frames` interleaved frames into `buffer`; returns the frames given, fewer
    /// only at the end of the stream.
    func read(into buffer: UnsafeMutablePointer<Float>, frames: Int) throws(AudioFormatError) -> Int {
        var done = 0
        while done < frames, !finished {
            let target = buffer + done * channelCount
            if alone {
                let got = try first.read(into: target, frames: frames - done)
                if got < frames - done { finished = true }
                done += got
            } else if segment % 2 == 0 {
                if remaining == 0 {
                    takeHelperSegment()
                    continue
                }
                let asked = min(frames - done, remaining)
                let got = try first.read(into: target, frames: asked)
                done += got
                remaining -= got
                if got < asked { finished = true }
            } else {
                let part = min(frames - done, helper.count - position)
                target.update(from: helper.buffer + position * channelCount, count: part * channelCount)
                position += part
                done += part
                if position == helper.count { try endHelperSegment() }
            }
        }
        return done
    }

    /// Waits for the helper's segment; where it has none, `first` goes on alone.
    private func takeHelperSegment() {
        helper.done.wait()
        if helper.failed {
            alone = true
            helper.stop()
        } else {
            segment += 1
            position = 0
        }
    }

    /// The helper's segment is read: the stream ends with a short one, else the helper goes on
    /// to its next segment and `first` seeks to the one between.
    private func endHelperSegment() throws(AudioFormatError) {
        guard helper.count == segmentSamples else {
            helperEndedInsideFrame = helper.endedInsideFrame
            finished = true
            return
        }
        helper.go.signal()
        segment += 1
        let expected = Int64(segment * segmentSamples - delay)
        guard first.seek(toFrame: Int64(segment * Self.segmentFrames)) == expected else {
            throw AudioFormatError(path: first.path, kind: .readFailed,
                                   reason: "libmpg123 cannot go to MPEG frame \(segment * Self.segmentFrames) at sample \(expected)")
        }
        remaining = segmentSamples
    }

    /// Stops the helper; reading afterwards goes on with `first` alone.
    func stop() {
        helper.stop()
        alone = true
    }
}

/// The helper's side of a `Mpg123Segments`: a second libmpg123 handle decoding the odd
/// segments into its buffer on its own thread, one at a time, each when the caller has read
/// the one before.
// Safe to share: the stream and buffer are the helper thread's between `go` and `done`, the
// caller's between `done` and `go`; the semaphores order every hand-over.
private final class HelperLane: @unchecked Sendable {
    let stream: Mpg123Stream
    /// The second reader of the file the stream reads; kept as long as the stream.
    private let twin: InputBytes
    /// Interleaved samples of one segment.
    let buffer: UnsafeMutablePointer<Float>
    /// Samples a channel of a whole segment.
    let frames: Int
    /// The samples trimmed from the start of the stream.
    let delay: Int
    /// The samples of the last segment decoded, whether it could not be decoded, and whether
    /// it ended inside an MPEG frame.
    private(set) var count = 0
    private(set) var failed = false
    private(set) var endedInsideFrame = false
    /// The caller to the helper: decode the next segment (or stop).
    let go = DispatchSemaphore(value: 0)
    /// The helper to the caller: the segment is in the buffer.
    let done = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    private var thread: pthread_t?

    init(stream: Mpg123Stream, twin: InputBytes, frames: Int, delay: Int) {
        self.stream = stream
        self.twin = twin
        self.frames = frames
        self.delay = delay
        buffer = .allocate(capacity: frames * stream.channelCount)
    }

    deinit {
        stop()
        buffer.deallocate()
    }

    /// Starts the thread, which decodes the first odd segment at once; false if none could be made.
    func start() -> Bool {
        let context = Unmanaged.passRetained(self).toOpaque()
        var handle = pthread_t()
        let status = pthread_create(&handle, nil, { raw in
            guard let raw else { return nil }
            Unmanaged<HelperLane>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<HelperLane>.fromOpaque(context).release()
            return false
        }
        thread = handle
        go.signal()
        return true
    }

    /// The thread: segments 1, 3, 5… until one is short (the end) or cannot be decoded.
    private func run() {
        var segment = 1
        while true {
            go.wait()
            if stopping.load(ordering: .acquiring) { return }
            let expected = Int64(segment * frames - delay)
            if stream.seek(toFrame: Int64(segment * Mpg123Segments.segmentFrames)) == expected,
               let got = try? stream.read(into: buffer, frames: frames) {
                count = got
                failed = false
                endedInsideFrame = stream.endedInsideFrame
            } else {
                count = 0
                failed = true
            }
            let last = failed || count < frames
            done.signal()
            if last { return }
            segment += 2
        }
    }

    /// Stops the thread and waits for it; safe to call again.
    func stop() {
        guard let thread else { return }
        stopping.store(true, ordering: .releasing)
        go.signal()
        pthread_join(thread, nil)
        self.thread = nil
    }
}
