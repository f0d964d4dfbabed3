/// Reads a decoder's Float32 frames as 16-bit integers, for decoders whose codec gives floats
/// (FFmpeg's, libmpg123's): through a scratch buffer made once, so reading allocates nothing.
public struct Int16Reading {
    private var scratch: [Float]
    private let channelCount: Int
    private static let scratchFrames = 4_096

    /// A converter of `channelCount`-channel frames.
    public init(channelCount: Int) {
        self.channelCount = channelCount
        scratch = [Float](repeating: 0, count: Self.scratchFrames * channelCount)
    }

    /// Fills `buffer` with up to `frames` frames read by `readFloats` (which returns fewer only
    /// at the end), rounded and clipped to 16 bits; returns the frames read.
    public mutating func read(into buffer: UnsafeMutablePointer<Int16>, frames: Int,
                              readFloats: (UnsafeMutablePointer<Float>, Int) throws(AudioFormatError) -> Int) throws(AudioFormatError) -> Int {
        let channels = channelCount
        var done = 0
        while done < frames {
            let part = min(frames - done, Self.scratchFrames)
            let got = try scratch.withUnsafeMutableBufferPointer { (floats) throws(AudioFormatError) -> Int in
                let got = try readFloats(floats.baseAddress!, part)
                for index in 0..<(got * channels) {
                    buffer[done * channels + index] = Int16(max(-32_768, min(32_767, (floats[index] * 32_768).rounded())))
                }
                return got
            }
            done += got
            if got < part { break }
        }
        return done
    }
}

/// A decoder whose codec gives Float32 frames (FFmpeg's, libmpg123's, libvorbisfile's): it reads 16-bit frames
/// by converting its own floats through an `Int16Reading`.
public protocol FloatFrameDecoder: AudioDecoder {
    /// The converter `read(into:frames:)` for Int16 goes through.
    var int16: Int16Reading { get set }
}

extension FloatFrameDecoder {
    public var readsInt16Natively: Bool { false }

    public func read(into buffer: UnsafeMutablePointer<Int16>, frames: Int) throws(AudioFormatError) -> Int {
        try int16.read(into: buffer, frames: frames) { (floats, count) throws(AudioFormatError) -> Int in try read(into: floats, frames: count) }
    }
}
