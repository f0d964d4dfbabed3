import AudioFiles
import AudioFormats
import SignalAnalysis

/// Two files compared sample by sample, both decoded to 32-bit float: a null test, what
/// `aurender diff` reports. A 16-bit WAV and its FLAC compare equal.
public struct NullTest {
    /// What the comparison found.
    public struct Outcome {
        /// The frames each file holds.
        public var framesA: Int64
        public var framesB: Int64
        /// The largest difference of a sample, full scale 1.
        public var largest: Float
        /// The RMS of the differences over the frames both files hold.
        public var rms: Double
        /// The first frame whose samples differ, if any.
        public var firstDifferingFrame: Int64?
        /// Both files and their difference sketched, when asked for.
        public var sketches: (a: SignalSketch, b: SignalSketch, difference: SignalSketch)?
    }

    /// The reference file.
    public let a: any AudioDecoder
    /// The file compared with it.
    public let b: any AudioDecoder

    /// Opens both files; one that cannot be read is an `AudioFormatError` naming it.
    public init(_ first: String, _ second: String) throws(AudioFormatError) {
        a = try FormatRegistry.standard.openDecoder(path: first)
        b = try FormatRegistry.standard.openDecoder(path: second)
    }

    /// Whether the files have the same rate and channel count, so that they can be compared.
    public var formatsMatch: Bool { a.format.sampleRate == b.format.sampleRate && a.format.channelCount == b.format.channelCount }

    /// Reads both files to their ends and compares them, sketching both and their difference when `sketching`.
    public func compare(sketching: Bool) throws(AudioFormatError) -> Outcome {
        let channels = a.format.channelCount, chunk = 65536
        var left = [Float](repeating: 0, count: chunk * channels), right = left
        let sketchers = sketching
            ? [a, b, a].map { SignalSketcher(sampleRate: $0.format.sampleRate, channelCount: channels, expectedFrames: $0.length.frames) } : nil
        var difference = [Float](repeating: 0, count: sketchers == nil ? 0 : chunk * channels)
        var frames: Int64 = 0, firstDifference: Int64?
        var largest: Float = 0, sumOfSquares = 0.0
        var lengthA: Int64 = 0, lengthB: Int64 = 0
        while true {
            let gotA = try Self.read(a, into: &left, frames: chunk)
            let gotB = try Self.read(b, into: &right, frames: chunk)
            lengthA += Int64(gotA)
            lengthB += Int64(gotB)
            let common = min(gotA, gotB)
            if let sketchers {
                sketchers[0].add(interleaved: left, frames: gotA)
                sketchers[1].add(interleaved: right, frames: gotB)
                for index in 0..<(common * channels) { difference[index] = left[index] - right[index] }
                sketchers[2].add(interleaved: difference, frames: common)
            }
            for index in 0..<(common * channels) {
                let difference = abs(left[index] - right[index])
                if difference > 0, firstDifference == nil { firstDifference = frames + Int64(index / channels) }
                largest = max(largest, difference)
                sumOfSquares += Double(difference) * Double(difference)
            }
            frames += Int64(common)
            if gotA < chunk || gotB < chunk {
                lengthA += try Self.remainingFrames(of: a, finished: gotA < chunk, into: &left, chunk: chunk, seen: sketchers?[0])
                lengthB += try Self.remainingFrames(of: b, finished: gotB < chunk, into: &right, chunk: chunk, seen: sketchers?[1])
                break
            }
        }
        let rms = frames > 0 ? (sumOfSquares / Double(frames * Int64(channels))).squareRoot() : 0
        return Outcome(framesA: lengthA, framesB: lengthB, largest: largest, rms: rms, firstDifferingFrame: firstDifference,
                       sketches: sketchers.map { ($0[0].sketch(), $0[1].sketch(), $0[2].sketch()) })
    }

    private static func read(_ file: any AudioDecoder, into buffer: inout [Float], frames: Int) throws(AudioFormatError) -> Int {
        try buffer.withUnsafeMutableBufferPointer { (pointer) throws(AudioFormatError) in try file.read(into: pointer.baseAddress!, frames: frames) }
    }

    /// The frames left in `file` after the other file ended, read through `buffer` (and shown to
    /// `seen`, when sketching); none when `file` has `finished` too.
    private static func remainingFrames(of file: any AudioDecoder, finished: Bool, into buffer: inout [Float], chunk: Int,
                                        seen: SignalSketcher?) throws(AudioFormatError) -> Int64 {
        guard !finished else { return 0 }
        var count: Int64 = 0
        while true {
            let got = try read(file, into: &buffer, frames: chunk)
            count += Int64(got)
            seen?.add(interleaved: buffer, frames: got)
            if got < chunk { return count }
        }
    }
}
