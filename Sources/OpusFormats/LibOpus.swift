#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AudioFormats
import COpus

/// Every call into libogg and libopus: an Ogg Opus stream of one or two channels read page by
/// page (libogg) and decoded packet by packet at 48 kHz by libopus's one-stream decoder, whose
/// samples are those of the multistream decoder that `opusdec` and libsndfile use.
///
/// The multistream decoder asks the processor what it is (the `cpuid` instruction) for every
/// packet in Debian's libopus; on a virtual machine each such question stops the machine, and
/// that costs more than the decoding. The one-stream decoder asks once.
final class OggOpusStream {
    /// The samples of the largest packet (120 ms at 48 kHz).
    static let maximumPacketFrames = 5_760

    /// What `survey` found of a whole, plain stream.
    struct Survey {
        /// Channels (1 or 2).
        let channelCount: Int
        /// Samples at the start that are the encoder's, not audio.
        let preSkip: Int64
        /// The frames of audio: the last granule position less the pre-skip.
        let totalFrames: Int64
        /// Whether every audio packet is in a CELT-only mode (its TOC byte's configuration 16
        /// to 31), with no SILK layer.
        let isCELTOnly: Bool
    }

    /// The file as the user named it.
    let path: String
    private let packets: OggPackets
    private let decoder: OpusPacketDecoder
    private let channelCount: Int
    private let preSkip: Int64
    /// The decoded samples of the last packet and how far they have been handed out.
    private let decoded: UnsafeMutablePointer<Float>
    private var decodedFrames = 0
    private var handedOut = 0
    /// Packets taken from the stream so far (the first two are the headers).
    private var packetCount = 0
    /// Samples decoded so far, the pre-skip's among them.
    private var samplesDecoded: Int64 = 0

    /// A decoder of `source`, named `path`, whose `survey` is `survey`.
    init(source: InputBytes, path: String, survey: Survey) throws(AudioFormatError) {
        decoder = try OpusPacketDecoder(channelCount: survey.channelCount, path: path)
        packets = OggPackets(source: source, path: path)
        self.path = path
        channelCount = survey.channelCount
        preSkip = survey.preSkip
        decoded = .allocate(capacity: Self.maximumPacketFrames * survey.channelCount)
    }

    deinit { decoded.deallocate() }

    /// Decodes up to `frames` interleaved frames into `buffer`, the pre-skip dropped; fewer
    /// only at the end of the stream (its last packet's padding is the caller's to cut). Where
    /// the buffer has room for the largest packet, libopus decodes straight into it (a copy of
    /// every sample less).
    func read(into buffer: UnsafeMutablePointer<Float>, frames: Int) throws(AudioFormatError) -> Int {
        var done = 0
        while done < frames {
            if handedOut == decodedFrames {
                if frames - done >= Self.maximumPacketFrames {
                    guard let got = try decodeNextPacket(into: buffer + done * channelCount) else { break }
                    done += got
                    continue
                }
                guard let got = try decodeNextPacket(into: decoded) else { break }
                decodedFrames = got
                handedOut = 0
                continue
            }
            let count = min(frames - done, decodedFrames - handedOut)
            (buffer + done * channelCount).update(from: decoded + handedOut * channelCount, count: count * channelCount)
            done += count
            handedOut += count
        }
        return done
    }

    /// Goes back to the first frame, with a decoder as new.
    func rewind() throws(AudioFormatError) {
        try packets.restart()
        try decoder.reset()
        decodedFrames = 0
        handedOut = 0
        packetCount = 0
        samplesDecoded = 0
    }

    /// Frees libogg's buffers; reading afterwards gives no frames.
    func close() { packets.close() }

    /// Decodes the next audio packet into `target`, which holds the largest packet, leaving out
    /// what is pre-skip; the frames it gives, nil at the end.
    private func decodeNextPacket(into target: UnsafeMutablePointer<Float>) throws(AudioFormatError) -> Int? {
        while let packet = try packets.next() {
            packetCount += 1
            if packetCount <= 2 { continue }
            let got = try decoder.decode(packet, into: target)
            let skipped = Int(max(0, min(Int64(got), preSkip - samplesDecoded)))
            samplesDecoded += Int64(got)
            guard skipped < got else { continue }
            if skipped > 0 {
                target.update(from: target + skipped * channelCount, count: (got - skipped) * channelCount)
            }
            return got - skipped
        }
        return nil
    }

    /// Reads more of `source` into `sync`; false at the end of the source.
    fileprivate static func feed(_ sync: inout ogg_sync_state, from source: InputBytes) -> Bool {
        let size = 1 << 16
        guard let buffer = ogg_sync_buffer(&sync, size) else { return false }
        let got = source.read(buffer, count: size)
        ogg_sync_wrote(&sync, got)
        return got > 0
    }

    /// Reads the whole of a regular file's `source` once, page by page, and returns its
    /// headers and length when it is a plain Ogg Opus stream, whose decode needs no rule of
    /// libsndfile's beyond the pre-skip and the last page's trim: one stream of one or two
    /// channels (mapping family 0) and no header gain, every page whole, in sequence and of
    /// that stream, the audio starting on a fresh page at granule position 0, every granule
    /// position the samples before it but the last page's, which may cut its padding, and that
    /// page ending the stream and the file. Nil otherwise; leaves `source` at its first byte.
    static func survey(_ source: InputBytes) -> Survey? {
        defer { _ = source.seek(0, whence: SEEK_SET) }
        var sync = ogg_sync_state(), stream = ogg_stream_state(), page = ogg_page(), packet = ogg_packet()
        ogg_sync_init(&sync)
        defer { ogg_sync_clear(&sync) }
        var header: (channels: Int, preSkip: Int64)?
        var pageNumber = 0, packets = 0, samples: Int64 = 0, lastGranule: Int64 = 0, ended = false, isCELTOnly = true
        var streamIsOpen = false
        defer { if streamIsOpen { ogg_stream_clear(&stream) } }
        while true {
            let status = ogg_sync_pageout(&sync, &page)
            if status < 0 { return nil }
            if status == 0 {
                guard feed(&sync, from: source) else { break }
                continue
            }
            if ended { return nil }
            let isFirst = pageNumber == 0
            guard (ogg_page_bos(&page) != 0) == isFirst, ogg_page_pageno(&page) == pageNumber else { return nil }
            if isFirst {
                ogg_stream_init(&stream, ogg_page_serialno(&page))
                streamIsOpen = true
            }
            guard ogg_stream_pagein(&stream, &page) == 0 else { return nil }
            pageNumber += 1
            let previous = samples, packetsBefore = packets
            var packetsOnPage = 0
            while true {
                let got = ogg_stream_packetout(&stream, &packet)
                if got < 0 { return nil }
                if got == 0 { break }
                packets += 1
                packetsOnPage += 1
                let bytes = UnsafeBufferPointer(start: packet.packet, count: packet.bytes)
                switch packets {
                case 1:
                    guard isFirst, let parsed = parseHead(bytes) else { return nil }
                    header = parsed
                case 2:
                    guard bytes.starts(with: Array("OpusTags".utf8)) else { return nil }
                default:
                    guard packet.bytes > 0 else { return nil }
                    let count = opus_packet_get_nb_samples(packet.packet, Int32(clamping: packet.bytes), 48_000)
                    guard count > 0 else { return nil }
                    samples += Int64(count)
                    isCELTOnly = isCELTOnly && bytes[0] >> 3 >= 16
                }
            }
            let granule = ogg_page_granulepos(&page)
            ended = ogg_page_eos(&page) != 0
            // The identification header alone on the first page, the comment header ending its
            // page, so that the audio starts on a fresh one.
            guard !isFirst || packets == 1, packetsBefore >= 2 || packets <= 2 else { return nil }
            if packets <= 2 {
                guard granule == 0, !ended else { return nil }
                continue
            }
            if granule == -1 {
                guard !ended, packetsOnPage == 0 else { return nil }
                continue
            }
            guard ended ? (granule >= previous && granule <= samples) : granule == samples else { return nil }
            lastGranule = granule
        }
        guard ended, let header, lastGranule > header.preSkip else { return nil }
        return Survey(channelCount: header.channels, preSkip: header.preSkip, totalFrames: lastGranule - header.preSkip, isCELTOnly: isCELTOnly)
    }

    /// The channels and pre-skip of an identification header of version 0 to 15, mapping
    /// family 0 and no output gain; nil for any other.
    private static func parseHead(_ bytes: UnsafeBufferPointer<UInt8>) -> (channels: Int, preSkip: Int64)? {
        guard bytes.count >= 19, bytes.starts(with: Array("OpusHead".utf8)), bytes[8] < 16 else { return nil }
        let channels = Int(bytes[9])
        let preSkip = Int64(bytes[10]) | Int64(bytes[11]) << 8
        let gain = UInt16(bytes[16]) | UInt16(bytes[17]) << 8
        guard (1...2).contains(channels), gain == 0, bytes[18] == 0 else { return nil }
        return (channels, preSkip)
    }
}

/// The packets of an Ogg stream of one logical stream, in order from the file's first page
/// (libogg).
final class OggPackets {
    private let source: InputBytes
    private let path: String
    private var sync = ogg_sync_state()
    private var stream = ogg_stream_state()
    private var packet = ogg_packet()
    private var page = ogg_page()
    private var streamIsOpen = false
    /// Whether `close()` has freed libogg's buffers.
    private var isClosed = false

    /// The packets of `source`, named `path`, from where it stands (its first byte).
    init(source: InputBytes, path: String) {
        self.source = source
        self.path = path
        ogg_sync_init(&sync)
    }

    deinit { close() }

    /// The next packet's bytes, valid until the next call; nil at the end of the file.
    func next() throws(AudioFormatError) -> UnsafeBufferPointer<UInt8>? {
        while !isClosed {
            if streamIsOpen {
                let status = ogg_stream_packetout(&stream, &packet)
                if status == 1 { return UnsafeBufferPointer(start: packet.packet, count: packet.bytes) }
                if status < 0 { throw damaged() }
            }
            guard try nextPage() else { return nil }
            if !streamIsOpen {
                ogg_stream_init(&stream, ogg_page_serialno(&page))
                streamIsOpen = true
            }
            guard ogg_stream_pagein(&stream, &page) == 0 else { throw damaged() }
        }
        return nil
    }

    /// Goes back to the file's first byte.
    func restart() throws(AudioFormatError) {
        guard source.seek(0, whence: SEEK_SET) == 0 else {
            throw AudioFormatError(path: path, kind: .notSeekable, reason: "cannot go back to the start of the stream")
        }
        close()
        ogg_sync_init(&sync)
        isClosed = false
    }

    /// Frees libogg's buffers; reading afterwards gives no packets.
    func close() {
        if streamIsOpen { ogg_stream_clear(&stream) }
        streamIsOpen = false
        ogg_sync_clear(&sync)
        isClosed = true
    }

    /// Reads the next page into `page`; false at the end of the file.
    private func nextPage() throws(AudioFormatError) -> Bool {
        while true {
            let status = ogg_sync_pageout(&sync, &page)
            if status == 1 { return true }
            if status < 0 { throw damaged() }
            guard OggOpusStream.feed(&sync, from: source) else { return false }
        }
    }

    private func damaged() -> AudioFormatError {
        AudioFormatError(path: path, kind: .invalidFile, reason: "it is damaged: its Ogg pages have a hole")
    }
}

/// libopus's one-stream decoder at 48 kHz, packet by packet.
final class OpusPacketDecoder {
    private let decoder: OpaquePointer
    private let channelCount: Int
    private let path: String

    /// A decoder of `channelCount` channels for the file `path`.
    init(channelCount: Int, path: String) throws(AudioFormatError) {
        var status: Int32 = 0
        guard let decoder = opus_decoder_create(48_000, Int32(channelCount), &status), status == OPUS_OK else {
            throw AudioFormatError(path: path, kind: .invalidFile, reason: "libopus cannot decode it: \(String(cString: opus_strerror(status)))")
        }
        self.decoder = decoder
        self.channelCount = channelCount
        self.path = path
    }

    deinit { opus_decoder_destroy(decoder) }

    /// Decodes `packet` into `target`, which holds the largest packet; the frames it gives.
    func decode(_ packet: UnsafeBufferPointer<UInt8>, into target: UnsafeMutablePointer<Float>) throws(AudioFormatError) -> Int {
        guard let bytes = packet.baseAddress else {
            throw AudioFormatError(path: path, kind: .invalidFile, reason: "it is damaged: an Opus packet is empty")
        }
        let got = opus_decode_float(decoder, bytes, Int32(clamping: packet.count), target, Int32(OggOpusStream.maximumPacketFrames), 0)
        guard got >= 0 else {
            throw AudioFormatError(path: path, kind: .invalidFile, reason:
                "it is damaged: an Opus packet does not decode (\(String(cString: opus_strerror(got))))")
        }
        return Int(got)
    }

    /// Brings the decoder back to its state before the first packet.
    func reset() throws(AudioFormatError) {
        guard opus_decoder_init(decoder, 48_000, Int32(channelCount)) == OPUS_OK else {
            throw AudioFormatError(path: path, kind: .notSeekable, reason: "cannot go back to the start of the stream")
        }
    }

    /// The frames `packet` decodes to, nil where it is not a valid Opus packet.
    static func frames(of packet: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let bytes = packet.baseAddress else { return nil }
        let count = opus_packet_get_nb_samples(bytes, Int32(clamping: packet.count), 48_000)
        return count > 0 ? Int(count) : nil
    }
}
