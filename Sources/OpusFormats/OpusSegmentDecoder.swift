import AudioFormats

/// One worker's libopus decoder of a plain Ogg Opus file's segments (`ParallelSegments`):
/// each segment is decoded by a decoder as new, started `preRollFrames` before the segment's
/// first frame (at the packet holding that frame) and its frames before the segment dropped,
/// so a segment's frames depend only on where it starts, never on the segments this worker
/// decoded before it, and the output is the same for any number of workers.
///
/// Why the pre-roll: an Opus decoder carries state from packet to packet (CELT's band
/// energies are predicted from the last frame's), so a decoder started cold differs from one
/// that decoded the stream from its start; the difference shrinks by half or more every 20 ms
/// and is at rounding level after `preRollFrames` (2.1·10⁻⁷ at most on a 10-minute file). SILK
/// keeps it longer, so only CELT-only files are decoded this way (`OggOpusDecoder`).
///
/// The worker reads every page of the file in order, decoding only its own segments; the
/// last packets read are kept (`PacketRing`), so that a segment that follows the last one
/// directly (one worker) decodes its pre-roll again from them.
final class OpusSegmentDecoder: SegmentDecoding {
    /// Samples decoded before a segment and dropped: 0.5 s at 48 kHz.
    static let preRollFrames: Int64 = 24_000

    private let path: String
    private let packets: OggPackets
    private let decoder: OpusPacketDecoder
    private let channelCount: Int
    private let preSkip: Int64
    private let ring = PacketRing()
    /// Packets read from the file so far (the first two are the headers), and the sample (from
    /// the stream's first, the pre-skip's among them) the next audio packet starts at.
    private var packetsRead = 0
    private var nextStart: Int64 = 0
    /// The decoded samples of one packet.
    private let decoded: UnsafeMutablePointer<Float>

    /// Opens `input` once more, on bytes of its own, whose `survey` is `survey`.
    init(input: AudioInput, survey: OggOpusStream.Survey) throws(AudioFormatError) {
        let source = try InputBytes(input: input)
        path = input.path
        packets = OggPackets(source: source, path: input.path)
        decoder = try OpusPacketDecoder(channelCount: survey.channelCount, path: input.path)
        channelCount = survey.channelCount
        preSkip = survey.preSkip
        decoded = .allocate(capacity: OggOpusStream.maximumPacketFrames * survey.channelCount)
    }

    deinit { decoded.deallocate() }

    func decode(from start: Int64, frames: Int, into buffer: UnsafeMutablePointer<Float>) throws(AudioFormatError) -> (frames: Int, metHole: Bool) {
        let first = start + preSkip, end = first + Int64(frames)
        let rollFrom = max(0, first - Self.preRollFrames)
        while nextStart <= rollFrom {
            guard try readPacket() else { return (0, false) }
        }
        guard var index = ring.packet(holding: rollFrom) else { return (0, true) }
        try decoder.reset()
        var done = 0
        while Int64(done) < Int64(frames) {
            if index == ring.count {
                guard try readPacket() else { break }
            }
            guard let packet = ring.packet(index) else { return (done, true) }
            index += 1
            let got = try decoder.decode(packet.bytes, into: decoded)
            guard got == packet.frames else { return (done, true) }
            // The part of the packet's samples [packet.start, + got) that is in the segment.
            let from = max(packet.start, first + Int64(done)), to = min(packet.start + Int64(got), end)
            if from < to {
                (buffer + done * channelCount).update(from: decoded + Int(from - packet.start) * channelCount, count: Int(to - from) * channelCount)
                done += Int(to - from)
            }
        }
        return (done, false)
    }

    /// Reads the next audio packet into the ring; false at the end of the file.
    private func readPacket() throws(AudioFormatError) -> Bool {
        while let bytes = try packets.next() {
            packetsRead += 1
            if packetsRead <= 2 { continue }
            guard let frames = OpusPacketDecoder.frames(of: bytes), ring.append(bytes, start: nextStart, frames: frames) else {
                throw AudioFormatError(path: path, kind: .invalidFile, reason: "it is damaged: an Opus packet cannot be read")
            }
            nextStart += Int64(frames)
            return true
        }
        return false
    }
}
