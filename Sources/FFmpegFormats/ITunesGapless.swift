/// The gapless statement iTunes writes in an MPEG-4 file's metadata instead of an edit list:
/// the `iTunSMPB` text, whose second to fourth hexadecimal fields are the encoder's priming,
/// its end padding and the source's sample count (` 00000000 00000840 000003FC
/// 000000000000AC44 …`: 2,112 frames of priming, 1,020 of padding, 44,100 frames of audio).
///
/// Without it, a track with no edit list states only its sample table's total, which counts
/// the priming and padding as audio.
struct ITunesGapless: Equatable {
    /// Frames of encoder delay before the first frame of audio.
    let priming: Int64
    /// Frames of padding after the last frame of audio.
    let padding: Int64
    /// Frames of audio, the source's length.
    let frames: Int64

    /// The statement `text` makes, or nil when it is not one (fewer than four hexadecimal
    /// fields, or no audio).
    init?(text: String) {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\0" })
        guard fields.count >= 4, let priming = UInt64(fields[1], radix: 16), let padding = UInt64(fields[2], radix: 16),
              let frames = UInt64(fields[3], radix: 16), priming < UInt64(Int32.max), padding < UInt64(Int32.max),
              frames > 0, frames < UInt64(Int64.max) else { return nil }
        self.priming = Int64(priming)
        self.padding = Int64(padding)
        self.frames = Int64(frames)
    }

    /// The priming FFmpeg's MPEG-4 demuxer skips itself for AAC (it sets the stream's skipped
    /// samples from this field when above 0 and below 16,384, and leaves the end padding in).
    static let primingFFmpegSkips: ClosedRange<Int64> = 1...16_383
}
