import FoundationEssentials
import AudioFormats

/// The bytes before a FLAC stream's first frame, as libFLAC writes them: the `fLaC` marker, the
/// STREAMINFO block, a VORBIS_COMMENT block naming libFLAC (empty, but on a pipe, where it
/// holds the tags), and on a pipe the pictures.
///
/// STREAMINFO is written twice, as libFLAC does: first with what is known before the frames
/// (no sizes, length or signature: all a pipe ever gets), then over itself once they are written.
struct FLACStreamHeader {
    /// STREAMINFO's fields.
    struct StreamInfo {
        var blockSize: Int
        /// The smallest and largest frame in bytes: 0 when unknown; a stream of no frames gives
        /// libFLAC's starting values, 2²⁴ − 1 and 0.
        var smallestFrame = 0
        var largestFrame = 0
        var sampleRate: Int
        var channelCount: Int
        var bitsPerSample: Int
        /// Frames (samples per channel) in the stream; 0 when unknown, as is a count past 36 bits.
        var totalFrames: Int64 = 0
        /// MD5 of the samples; zeros when unknown.
        var signature = [UInt8](repeating: 0, count: 16)

        /// The 34 bytes of the block's body.
        var bytes: [UInt8] {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(34)
            func append(_ value: Int64, bytes count: Int) {
                for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
            }
            append(Int64(blockSize), bytes: 2)
            append(Int64(blockSize), bytes: 2)
            append(Int64(smallestFrame), bytes: 3)
            append(Int64(largestFrame), bytes: 3)
            // 20 bits of rate, 3 of channels − 1, 5 of bits − 1, 36 of frames.
            append(Int64(sampleRate) << 44 | Int64(channelCount - 1) << 41 | Int64(bitsPerSample - 1) << 36 | (totalFrames <= 0xF_FFFF_FFFF ? totalFrames : 0), bytes: 8)
            return bytes + signature
        }
    }

    /// Where STREAMINFO's body starts, from the stream's first byte.
    static let streamInfoOffset = 8

    /// The whole header with `info`, and `vendor` and `tags`' comments in the VORBIS_COMMENT
    /// block, then a `PICTURE` block for each of `tags`' pictures; then `last`, the blocks after
    /// them (a `CUESHEET`), when there are some. In pieces to write one after another: a
    /// picture's bytes are a piece of their own, never copied into the header.
    static func pieces(_ info: StreamInfo, vendor: [UInt8], tags: LeadingTags = LeadingTags(), last: [UInt8] = []) -> [Data] {
        let comment = tags.vorbisCommentBody(vendor: vendor)
        var pieces = [Data(Array("fLaC".utf8) + [0, 0, 0, 34] + info.bytes
                           + blockHeader(type: 4, length: comment.count, isLast: tags.pictures.isEmpty && last.isEmpty) + comment)]
        for (index, picture) in tags.pictures.enumerated() {
            let length = picture.reduce(0) { $0 + $1.count }
            pieces.append(Data(blockHeader(type: 6, length: length, isLast: index == tags.pictures.count - 1 && last.isEmpty)))
            pieces += picture
        }
        return last.isEmpty ? pieces : pieces + [Data(last)]
    }

    /// A metadata block's header: whether it is the last, its type and its body's length.
    static func blockHeader(type: UInt8, length: Int, isLast: Bool) -> [UInt8] {
        [(isLast ? 0x80 : 0) | type, UInt8(length >> 16), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)]
    }
}
