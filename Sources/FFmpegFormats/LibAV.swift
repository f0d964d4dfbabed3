#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AudioFormats
import CFFmpeg

/// FFmpeg's libraries by the names the dynamic loader finds them under, with the major
/// versions of the headers aurender was built against (`libavformat.so.59`), so a library whose
/// ABI differs is never opened.
struct LibAVLibraries: Sendable, Equatable {
    /// libavutil's file name.
    var avutil: String
    /// libavcodec's file name.
    var avcodec: String
    /// libavformat's file name.
    var avformat: String

    /// The libraries of the headers' major versions.
    static let headers = LibAVLibraries(avutil: soname("avutil", LIBAVUTIL_VERSION_MAJOR),
                                        avcodec: soname("avcodec", LIBAVCODEC_VERSION_MAJOR),
                                        avformat: soname("avformat", LIBAVFORMAT_VERSION_MAJOR))

    private static func soname(_ library: String, _ major: Int32) -> String {
        #if canImport(Darwin)
        "lib\(library).\(major).dylib"
        #else
        "lib\(library).so.\(major)"
        #endif
    }

    /// The headers' libraries, opened once, on the first input or output that needs FFmpeg.
    static let loaded: Result<CFFmpegAPI, LibAVUnavailable> = headers.load()

    /// Opens the three libraries and resolves every function aurender calls; FFmpeg's own log
    /// is silenced (its errors reach the user in aurender's messages).
    func load() -> Result<CFFmpegAPI, LibAVUnavailable> {
        var handles: [UnsafeMutableRawPointer] = []
        for library in [avutil, avcodec, avformat] {
            guard let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL) else {
                handles.forEach { dlclose($0) }
                return .failure(LibAVUnavailable(library: library, missingFunction: nil))
            }
            handles.append(handle)
        }
        let table = UnsafeMutablePointer<CFFmpegAPI>.allocate(capacity: 1)
        defer { table.deallocate() }
        if let missing = cffmpeg_resolve(table, handles[0], handles[1], handles[2]) {
            handles.forEach { dlclose($0) }
            return .failure(LibAVUnavailable(library: "\(avutil), \(avcodec) or \(avformat)", missingFunction: String(cString: missing)))
        }
        let api = table.pointee
        api.av_log_set_level(AV_LOG_QUIET)
        return .success(api)
    }
}

/// FFmpeg's libraries could not be loaded: the formats only they read or write are refused.
struct LibAVUnavailable: Error, CustomStringConvertible {
    /// The library that is missing, or the libraries one of which lacks a function.
    let library: String
    /// The function none of them exports, when the libraries opened.
    let missingFunction: String?

    /// `FFmpeg's library libavcodec.so.59 could not be loaded`.
    var description: String {
        missingFunction.map { "FFmpeg's libraries (\(library)) lack \($0)" } ?? "FFmpeg's library \(library) could not be loaded"
    }
}

/// Every call into FFmpeg's libraries (libavformat, libavcodec, libavutil): one input's demuxer
/// and the decoder of its best audio stream, read through a custom I/O context over a
/// `InputBytes`, giving interleaved Float32 one decoded frame at a time.
///
/// Memory stays flat: one packet and one decoded frame are held at a time, and samples are
/// converted from the frame straight into the caller's buffer.
final class LibAVReader {
    /// The file as the user named it.
    let path: String
    /// Frames per second of the audio stream.
    let sampleRate: Int
    /// The container's chapters (an MPEG-4 chapter track or Nero `chpl` list, Matroska's
    /// chapters), in frames at `sampleRate`, with their titles ("" when none), in the file's order.
    let chapters: [(start: Int64, end: Int64, title: String)]
    /// The container's and the audio stream's metadata (an Ogg stream's comments are its
    /// stream's), by FFmpeg's names, in FFmpeg's order.
    let metadata: [(key: String, value: String)]
    /// Interleaved channels.
    let channelCount: Int
    /// The demuxer's short name (`mov,mp4,m4a,3gp,3g2,mj2`) and its description.
    let demuxer: (identifier: String, name: String)
    /// The codec's short name (`aac`) and its description.
    let codec: (identifier: String, name: String)
    /// Whether the codec is lossless (ALAC, WavPack, TTA…).
    let isLossless: Bool
    /// Bits per sample a lossless codec holds exactly (8, 16, 24): the decoder's or the stream's
    /// word (ALAC's decoder leaves it to the stream), else its 8- or 16-bit sample format's
    /// (FFmpeg's PCM decoders leave the word out), or 0.
    let bitsPerRawSample: Int
    /// The stream's identifier in its container: an MPEG-4 track's ID (`tkhd`), by which
    /// aurender finds the track in the file's index (`MPEG4Track`).
    let streamID: Int64
    /// The frames the container states with sample accuracy (a time base of one sample):
    /// for AAC in MP4, the edit list's duration, so the end padding is not counted; without an
    /// edit list, the sample table's total, priming and padding included (`MPEG4Track` decides).
    let exactFrames: Int64?
    /// A length from a coarser duration (Matroska's milliseconds, a bit-rate guess).
    let estimatedFrames: Int64?
    /// Whether `estimatedFrames` is the container's own statement of its duration, in a unit
    /// coarser than a frame (Matroska's milliseconds), rather than a guess from the bit rate or
    /// from the timestamps the file happens to end with.
    let estimateIsStated: Bool
    /// How far short of a rough statement a whole stream may end: one tick of the stated unit
    /// and one codec frame (containers round durations, and codecs pad their last frame).
    let roughTolerance: Int64
    /// Why the stream ended before its end (a read error, a packet that does not decode), in
    /// FFmpeg's words, once it has.
    private(set) var endedEarly: String?

    private let api: CFFmpegAPI
    private let source: InputBytes
    private var formatContext: UnsafeMutablePointer<AVFormatContext>?
    private var ioContext: UnsafeMutablePointer<AVIOContext>?
    private var codecContext: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private let streamIndex: Int32
    /// Frames of the current decoded frame already given, and its size.
    private var frameOffset = 0
    private var frameLength = 0
    private var draining = false
    private var finished = false
    /// Segment decoding (`decodeSegment`): the last packet read before the segment, the packet
    /// the decoder needs before the segment's first (its overlap); a Vorbis parser of its own,
    /// given every packet in order, and the frame the next packet starts at by it, nil before
    /// the first.
    private var preroll: UnsafeMutablePointer<AVPacket>?
    private var vorbisParser: OpaquePointer?
    private var nextPacketStart: Int64?

    /// Demuxers whose stream duration counts bytes that are not audio, so it is only an
    /// estimate: VOC's counts its blocks' headers, DSF's the padding of its last block (the
    /// decoder reads DSF's stated length from its header, `ContainerEnd.dsfFrames`).
    static let demuxersCountingMoreThanAudio: Set<String> = ["voc", "dsf"]

    /// Demuxers whose duration, when not in frames, is the container's own statement rounded to
    /// a coarser unit (Matroska's segment duration, in milliseconds); others compute theirs
    /// from bit rates or frame counts (MP3's, less its encoder delay), so it is no statement.
    static let demuxersStatingDurations: Set<String> = ["matroska,webm"]

    /// The lowest probe score accepted for an input no magic number named, so that text or
    /// noise is not taken for some obscure format.
    static let confidentProbeScore: Int32 = 50

    /// Opens `source`, named `path`, and the decoder of its best audio stream through `api`;
    /// with `requiringConfidentProbe`, refuses inputs FFmpeg recognises only weakly. `expected`
    /// describes what the sniffer took the input for (`MPEG-4 audio (AAC)`), for messages.
    init(api: CFFmpegAPI, source: InputBytes, path: String, expected: String?, requiringConfidentProbe: Bool) throws(AudioFormatError) {
        self.api = api
        self.path = path
        self.source = source
        let bufferSize: Int32 = 65_536
        guard let buffer = api.av_malloc(Int(bufferSize)) else { throw Self.failure(path, .readFailed, "out of memory") }
        ioContext = api.avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), bufferSize, 0,
                                       Unmanaged.passUnretained(source).toOpaque(), libavRead, nil, libavSeek)
        guard let ioContext else {
            api.av_free(buffer)
            throw Self.failure(path, .readFailed, "out of memory")
        }
        if !source.isSeekable { ioContext.pointee.seekable = 0 }
        formatContext = api.avformat_alloc_context()
        formatContext?.pointee.pb = ioContext
        formatContext?.pointee.flags |= AVFMT_FLAG_CUSTOM_IO | AVFMT_FLAG_BITEXACT
        var status = api.avformat_open_input(&formatContext, nil, nil, nil)
        guard status >= 0, let context = formatContext else {
            Self.release(api, io: &self.ioContext)
            throw Self.failure(path, .invalidFile, Self.unreadable(api, expected, status))
        }
        if requiringConfidentProbe, context.pointee.probe_score < Self.confidentProbeScore {
            Self.release(api, format: &formatContext, io: &self.ioContext)
            throw Self.failure(path, .invalidFile, "not a recognised audio format")
        }
        status = api.avformat_find_stream_info(context, nil)
        var decoder: UnsafePointer<AVCodec>?
        let index = status < 0 ? status : api.av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, &decoder, 0)
        guard index >= 0, let decoder, let stream = context.pointee.streams[Int(index)] else {
            Self.release(api, format: &formatContext, io: &self.ioContext)
            let reason = index == Self.decoderNotFound ? "its audio codec has no decoder in this build" : Self.unreadable(api, expected, index)
            throw Self.failure(path, index == Self.decoderNotFound ? .unsupportedInput : .invalidFile, reason)
        }
        streamIndex = index
        streamID = Int64(stream.pointee.id)
        for other in 0..<Int(context.pointee.nb_streams) where other != Int(index) {
            context.pointee.streams[other]?.pointee.discard = AVDISCARD_ALL
        }
        codecContext = api.avcodec_alloc_context3(decoder)
        guard let codecContext, api.avcodec_parameters_to_context(codecContext, stream.pointee.codecpar) >= 0 else {
            Self.release(api, format: &formatContext, io: &self.ioContext)
            throw Self.failure(path, .readFailed, "out of memory")
        }
        codecContext.pointee.pkt_timebase = stream.pointee.time_base
        codecContext.pointee.thread_count = 1
        codecContext.pointee.flags |= Int32(CFFMPEG_CODEC_FLAG_BITEXACT)
        status = api.avcodec_open2(codecContext, decoder, nil)
        let rate = Int(codecContext.pointee.sample_rate), channels = Int(codecContext.pointee.ch_layout.nb_channels)
        guard status >= 0, rate > 0, channels > 0 else {
            api.avcodec_free_context(&self.codecContext)
            Self.release(api, format: &formatContext, io: &self.ioContext)
            throw Self.failure(path, .invalidFile, "its audio stream cannot be decoded (\(Self.message(api, status)))")
        }
        sampleRate = rate
        channelCount = channels
        chapters = (0..<Int(context.pointee.nb_chapters)).compactMap { index in
            guard let chapter = context.pointee.chapters[index]?.pointee else { return nil }
            let frames = AVRational(num: 1, den: Int32(rate))
            let title = api.av_dict_get(chapter.metadata, "title", nil, 0)?.pointee.value.map { String(cString: $0) } ?? ""
            return (api.av_rescale_q(chapter.start, chapter.time_base, frames), api.av_rescale_q(chapter.end, chapter.time_base, frames), title)
        }
        metadata = [context.pointee.metadata, stream.pointee.metadata].flatMap { dictionary in
            var entries: [(key: String, value: String)] = []
            var entry: UnsafeMutablePointer<AVDictionaryEntry>?
            while let found = api.av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
                if let key = found.pointee.key, let value = found.pointee.value { entries.append((String(cString: key), String(cString: value))) }
                entry = found
            }
            return entries
        }
        let format = context.pointee.iformat.pointee
        demuxer = (String(cString: format.name), format.long_name.map { String(cString: $0) } ?? String(cString: format.name))
        codec = (String(cString: decoder.pointee.name),
                 decoder.pointee.long_name.map { String(cString: $0) } ?? String(cString: decoder.pointee.name))
        let descriptor = api.avcodec_descriptor_get(decoder.pointee.id)
        isLossless = descriptor.map { $0.pointee.props & AV_CODEC_PROP_LOSSLESS != 0 } ?? false
        let statedBits = [codecContext.pointee.bits_per_raw_sample, stream.pointee.codecpar.pointee.bits_per_raw_sample].first { $0 > 0 }
        bitsPerRawSample = statedBits.map(Int.init)
            ?? [AV_SAMPLE_FMT_U8: 8, AV_SAMPLE_FMT_S16: 16][api.av_get_packed_sample_fmt(codecContext.pointee.sample_fmt)] ?? 0
        let timeBase = stream.pointee.time_base, duration = stream.pointee.duration
        let durationIsAudio = !Self.demuxersCountingMoreThanAudio.contains(String(cString: format.name))
        if durationIsAudio, duration != CFFMPEG_NOPTS_VALUE, duration > 0, timeBase.num == 1, timeBase.den == Int32(rate) {
            exactFrames = duration
            estimatedFrames = nil
        } else if duration != CFFMPEG_NOPTS_VALUE, duration > 0 {
            exactFrames = nil
            estimatedFrames = api.av_rescale_q(duration, timeBase, AVRational(num: 1, den: Int32(rate)))
        } else if context.pointee.duration != CFFMPEG_NOPTS_VALUE, context.pointee.duration > 0 {
            exactFrames = nil
            estimatedFrames = api.av_rescale(context.pointee.duration, Int64(rate), Int64(AV_TIME_BASE))
        } else {
            exactFrames = nil
            estimatedFrames = nil
        }
        estimateIsStated = exactFrames == nil && estimatedFrames != nil && Self.demuxersStatingDurations.contains(String(cString: format.name))
            && context.pointee.duration_estimation_method == AVFMT_DURATION_FROM_STREAM
        let tick = timeBase.den > 0 ? (Int64(rate) * Int64(timeBase.num) + Int64(timeBase.den) - 1) / Int64(timeBase.den) : 0
        roughTolerance = max(tick, Int64(rate) / 1_000) + Int64(codecContext.pointee.frame_size > 0 ? codecContext.pointee.frame_size : 4_096)
        packet = api.av_packet_alloc()
        frame = api.av_frame_alloc()
    }

    deinit { close() }

    /// Frees the decoder, the demuxer and the I/O context; reading afterwards gives no frames.
    func close() {
        api.av_frame_free(&frame)
        api.av_packet_free(&packet)
        api.av_packet_free(&preroll)
        if vorbisParser != nil { api.av_vorbis_parse_free(&vorbisParser) }
        api.avcodec_free_context(&codecContext)
        Self.release(api, format: &formatContext, io: &ioContext)
        finished = true
    }

    /// Decodes up to `frames` interleaved frames into `buffer`; returns the frames given,
    /// fewer only at the end of the stream.
    func read(into buffer: UnsafeMutablePointer<Float>, frames: Int) throws(AudioFormatError) -> Int {
        var done = 0
        while done < frames {
            if frameOffset < frameLength {
                let count = min(frames - done, frameLength - frameOffset)
                convert(from: frameOffset, count: count, into: buffer + done * channelCount)
                frameOffset += count
                done += count
            } else if try !receiveFrame() {
                break
            }
        }
        return done
    }

    /// Takes the next decoded frame, feeding the decoder packets of the audio stream as it asks;
    /// false at the end of the stream.
    private func receiveFrame() throws(AudioFormatError) -> Bool {
        guard !finished, let codecContext, let frame, let packet, let formatContext else { return false }
        while true {
            let received = api.avcodec_receive_frame(codecContext, frame)
            if received >= 0 {
                frameOffset = 0
                frameLength = Int(frame.pointee.nb_samples)
                if frameLength > 0 { return true }
                continue
            }
            if received == CFFMPEG_AVERROR_EOF {
                finished = true
                return false
            }
            guard received == CFFMPEG_AVERROR_EAGAIN else {
                endedEarly = endedEarly ?? Self.message(api, received)
                finished = true
                return false
            }
            guard !draining else {
                finished = true
                return false
            }
            let read = api.av_read_frame(formatContext, packet)
            guard read >= 0 else {
                if read != CFFMPEG_AVERROR_EOF { endedEarly = Self.message(api, read) }
                drain(codecContext)
                continue
            }
            defer { api.av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            let sent = api.avcodec_send_packet(codecContext, packet)
            if sent < 0 {
                endedEarly = Self.message(api, sent)
                drain(codecContext)
            }
        }
    }

    /// Sends the decoder the end of the stream, so the frames it still holds come out: at the
    /// end of the file, or where the file stops reading or decoding (what came before is kept,
    /// nothing after).
    private func drain(_ codecContext: UnsafeMutablePointer<AVCodecContext>) {
        draining = true
        _ = api.avcodec_send_packet(codecContext, nil)
    }

    /// Converts `count` frames from `frameOffset` of the current frame, in whatever sample
    /// format the codec gives (planar or interleaved), to interleaved Float32.
    private func convert(from start: Int, count: Int, into output: UnsafeMutablePointer<Float>) {
        guard let frame, let planes = frame.pointee.extended_data else { return }
        let format = AVSampleFormat(frame.pointee.format)
        let planar = api.av_sample_fmt_is_planar(format) != 0
        if planar, format == AV_SAMPLE_FMT_FLTP {
            Self.interleave(planes, channelCount, start, count, output)
            return
        }
        for plane in 0..<(planar ? channelCount : 1) {
            guard let bytes = planes[plane] else { continue }
            let first = planar ? start : start * channelCount
            let values = planar ? count : count * channelCount
            let stride = planar ? channelCount : 1
            let destination = output + (planar ? plane : 0)
            switch api.av_get_packed_sample_fmt(format) {
            case AV_SAMPLE_FMT_U8: Self.copy(bytes, UInt8.self, first, values, destination, stride) { (Float($0) - 128) / 128 }
            case AV_SAMPLE_FMT_S16: Self.copy(bytes, Int16.self, first, values, destination, stride) { Float($0) / 32_768 }
            case AV_SAMPLE_FMT_S32: Self.copy(bytes, Int32.self, first, values, destination, stride) { Float(Double($0) / 2_147_483_648) }
            case AV_SAMPLE_FMT_S64: Self.copy(bytes, Int64.self, first, values, destination, stride) { Float(Double($0) / 9_223_372_036_854_775_808) }
            case AV_SAMPLE_FMT_DBL: Self.copy(bytes, Double.self, first, values, destination, stride) { Float($0) }
            default: Self.copy(bytes, Float.self, first, values, destination, stride) { $0 }
            }
        }
    }

    /// Interleaves `count` frames from `first` of planar Float32, what FFmpeg's AAC, Vorbis and
    /// Opus decoders give: stereo in one loop the compiler vectorizes, as the strided copy of
    /// one plane at a time is not (it took 16 instructions a stereo frame).
    private static func interleave(_ planes: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, _ channelCount: Int, _ first: Int,
                                   _ count: Int, _ output: UnsafeMutablePointer<Float>) {
        func plane(_ channel: Int) -> UnsafePointer<Float>? {
            planes[channel].map { UnsafeRawPointer($0).assumingMemoryBound(to: Float.self) + first }
        }
        if channelCount == 2, let left = plane(0), let right = plane(1) {
            for index in 0..<count {
                output[2 &* index] = left[index]
                output[2 &* index &+ 1] = right[index]
            }
            return
        }
        for channel in 0..<channelCount {
            guard let samples = plane(channel) else { continue }
            for index in 0..<count { output[index &* channelCount &+ channel] = samples[index] }
        }
    }

    @inline(__always)
    private static func copy<Sample>(_ bytes: UnsafeMutablePointer<UInt8>, _: Sample.Type, _ first: Int, _ count: Int,
                                     _ output: UnsafeMutablePointer<Float>, _ stride: Int, _ value: (Sample) -> Float) {
        let samples = UnsafeRawPointer(bytes).assumingMemoryBound(to: Sample.self) + first
        for index in 0..<count { output[index * stride] = value(samples[index]) }
    }

    private static let streamNotFound = CFFMPEG_AVERROR_STREAM_NOT_FOUND
    private static let invalidData = CFFMPEG_AVERROR_INVALIDDATA
    private static let decoderNotFound = CFFMPEG_AVERROR_DECODER_NOT_FOUND

    private static func release(_ api: CFFmpegAPI, format: inout UnsafeMutablePointer<AVFormatContext>?,
                                io: inout UnsafeMutablePointer<AVIOContext>?) {
        if format != nil { api.avformat_close_input(&format) }
        release(api, io: &io)
    }

    private static func release(_ api: CFFmpegAPI, io: inout UnsafeMutablePointer<AVIOContext>?) {
        guard let context = io else { return }
        api.av_freep(&context.pointee.buffer)
        api.avio_context_free(&io)
    }

    /// Why an input cannot be opened, naming what it looked like.
    private static func unreadable(_ api: CFFmpegAPI, _ expected: String?, _ code: Int32) -> String {
        let why = switch code {
        case streamNotFound: "no audio stream"
        case invalidData: "its data is not valid: damaged, or holding no audio FFmpeg knows"
        default: message(api, code)
        }
        return "\(expected.map { "\($0) that" } ?? "not audio") FFmpeg cannot read (\(why))"
    }

    /// FFmpeg's words for an error code.
    fileprivate static func message(_ api: CFFmpegAPI, _ code: Int32) -> String {
        var text = [CChar](repeating: 0, count: 128)
        _ = api.av_strerror(code, &text, text.count)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func failure(_ path: String, _ kind: AudioFormatError.Kind, _ reason: String) -> AudioFormatError {
        AudioFormatError(path: path, kind: kind, reason: reason)
    }
}

extension LibAVReader {
    /// The first frame's presentation time in the stream's time base: where frame 0 of a
    /// decoder that trims the stream by its timestamps is (0 for a usual Ogg Vorbis file, whose
    /// first packet only primes the decoder at time −128 or so).
    var streamStart: Int64 {
        guard let stream = formatContext?.pointee.streams[Int(streamIndex)] else { return 0 }
        return stream.pointee.start_time == CFFMPEG_NOPTS_VALUE ? 0 : stream.pointee.start_time
    }

    /// The stream's duration in its time base, and whether that base is one frame.
    var streamFrames: (duration: Int64, inFrames: Bool)? {
        guard let stream = formatContext?.pointee.streams[Int(streamIndex)], stream.pointee.duration != CFFMPEG_NOPTS_VALUE else { return nil }
        let base = stream.pointee.time_base
        return (stream.pointee.duration, base.num == 1 && base.den == Int32(sampleRate))
    }

    /// Decodes the `frames` frames from frame `start` (counted from `streamStart`) of a Vorbis
    /// stream into `buffer`, interleaved: packets before the segment are read but not decoded,
    /// and the decoder, flushed, is given the last of them first (Vorbis's overlap), whose output
    /// it drops, then the segment's. Frames are placed by a Vorbis parser of the reader's own,
    /// given every packet in order from the first, whose durations are exact: the demuxer's
    /// durations, from a parser it shares, are wrong on some packets (3 of 25,868 on a
    /// 10-minute `oggenc` file, 448 frames short at a long-to-short block change, the next
    /// packet's timestamp right again). The end's trim is the caller's (the decoder's own
    /// trimming is off). Segments must come in increasing order with a gap between them (the
    /// packet before a segment is read only once).
    ///
    /// Returns the frames given; fewer than `frames` where the stream ends or cannot be read,
    /// and `metHole` where a packet the demuxer times with the parser's duration does not start
    /// where the parser puts it (a page lost), a packet does not decode, or decodes to another
    /// number of frames than its duration.
    func decodeSegment(from start: Int64, frames: Int, into buffer: UnsafeMutablePointer<Float>) -> (frames: Int, metHole: Bool) {
        guard let codecContext, let frame, let packet, let formatContext else { return (0, true) }
        if preroll == nil {
            preroll = api.av_packet_alloc()
            codecContext.pointee.flags2 |= Int32(CFFMPEG_CODEC_FLAG2_SKIP_MANUAL)
            // The demuxer indexes every packet read, up to 1 MB by default: kept small, since
            // nothing seeks, so that memory does not grow with the file.
            formatContext.pointee.max_index_size = 4_096
            let parameters = codecContext.pointee
            vorbisParser = parameters.extradata.flatMap { api.av_vorbis_parse_init($0, parameters.extradata_size) }
        }
        guard let preroll, let vorbisParser, nextPacketStart.map({ $0 <= start }) ?? true else { return (0, true) }
        let end = start + Int64(frames), origin = streamStart
        var done = 0, decoding = false
        while Int64(done) < Int64(frames) {
            guard api.av_read_frame(formatContext, packet) >= 0 else { break }
            defer { api.av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex, let data = packet.pointee.data else { continue }
            let duration = Int64(api.av_vorbis_parse_frame(vorbisParser, data, packet.pointee.size))
            guard packet.pointee.pts != CFFMPEG_NOPTS_VALUE, duration >= 0 else { return (done, true) }
            let first = nextPacketStart ?? (packet.pointee.pts - origin)
            guard packet.pointee.duration != duration || packet.pointee.pts - origin == first else { return (done, true) }
            nextPacketStart = first + duration
            if first + duration <= start {
                api.av_packet_unref(preroll)
                api.av_packet_move_ref(preroll, packet)
                continue
            }
            if !decoding {
                api.avcodec_flush_buffers(codecContext)
                if preroll.pointee.data != nil {
                    guard api.avcodec_send_packet(codecContext, preroll) >= 0 else { return (done, true) }
                    while api.avcodec_receive_frame(codecContext, frame) >= 0 {}
                }
                decoding = true
            }
            guard api.avcodec_send_packet(codecContext, packet) >= 0 else { return (done, true) }
            var decoded = 0
            while api.avcodec_receive_frame(codecContext, frame) >= 0 {
                let count = Int(frame.pointee.nb_samples)
                // The part of the packet's frames [first, first + duration) that is in the segment.
                let from = max(first + Int64(decoded), start), to = min(first + min(Int64(decoded + count), duration), end)
                if from < to {
                    guard from - start == Int64(done) else { return (done, true) }
                    convert(from: Int(from - first) - decoded, count: Int(to - from), into: buffer + done * channelCount)
                    done += Int(to - from)
                }
                decoded += count
            }
            guard decoded == duration else { return (done, true) }
        }
        return (done, false)
    }
}

/// libavformat's read callback: the source's next bytes, or end of file.
private func libavRead(_ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ size: Int32) -> Int32 {
    guard let opaque, let buffer else { return CFFMPEG_AVERROR_EOF }
    let got = Unmanaged<InputBytes>.fromOpaque(opaque).takeUnretainedValue().read(buffer, count: Int(size))
    return got > 0 ? Int32(got) : CFFMPEG_AVERROR_EOF
}

/// libavformat's seek callback, including its size query (`AVSEEK_SIZE`).
private func libavSeek(_ opaque: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32) -> Int64 {
    guard let opaque else { return -1 }
    let source = Unmanaged<InputBytes>.fromOpaque(opaque).takeUnretainedValue()
    if whence & AVSEEK_SIZE != 0 { return source.size ?? -1 }
    return source.seek(offset, whence: whence & ~AVSEEK_FORCE)
}

/// Every call into FFmpeg's libraries for writing: an MPEG-4 audio file (the `ipod` muxer, as
/// `.m4a`) holding one AAC or ALAC stream, on a file descriptor through a custom I/O context.
///
/// The file starts with an edit list in samples (the movie time scale is the sample rate), so
/// the encoder's priming and end padding are not audio: decoded, it has the frames written.
/// Version strings are left out (bit-exact flags), so the same frames give the same bytes.
final class LibAVWriter {
    /// The file as the user named it.
    let path: String
    /// Interleaved channels per frame written.
    let channelCount: Int
    private let api: CFFmpegAPI
    private let descriptor: Int32
    private var formatContext: UnsafeMutablePointer<AVFormatContext>?
    private var ioContext: UnsafeMutablePointer<AVIOContext>?
    private var codecContext: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var stream: UnsafeMutablePointer<AVStream>?
    /// Frames per encoded frame (1,024 for AAC, 4,096 for ALAC); the last may be shorter.
    private var frameSize = 4_096
    private var descriptorIsOpen = true
    /// What the encoder's planes hold: 16-bit or left-justified 32-bit integers (ALAC of 16 or
    /// 24 bits), or floats (AAC).
    private let planeSample: PlaneSample
    /// Frames in the frame being filled, and frames handed to the encoder before it.
    private var filled = 0
    private var sent: Int64 = 0
    /// The chapters to write, handed to the muxer when the file's length is known (`finish`).
    private let chapters: [EncoderChapter]
    private let sampleRate: Int
    /// Why the last write to the descriptor failed, for the message.
    fileprivate var writeFailure: String?

    /// The samples an encoder's planes hold.
    enum PlaneSample {
        /// 16-bit integers.
        case int16
        /// 32-bit integers holding 24-bit samples in their top bits.
        case int24
        /// 32-bit floats.
        case float
    }

    /// Starts an MPEG-4 audio file on `fileDescriptor` (owned from here, closed by `close()`)
    /// with FFmpeg's encoder called `codec` (`aac`, `alac`) taking `planeSample`s, at
    /// `sampleRate` with `channelCount` channels, compressing as `settings` ask (AAC only).
    init(api: CFFmpegAPI, fileDescriptor: Int32, path: String, codec: String, planeSample: PlaneSample, sampleRate: Int,
         channelCount: Int, settings: EncoderSettings) throws(AudioFormatError) {
        self.api = api
        self.path = path
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        chapters = settings.chapters
        descriptor = fileDescriptor
        self.planeSample = planeSample
        guard let encoder = api.avcodec_find_encoder_by_name(codec) else {
            close()
            throw Self.failure(path, "FFmpeg's libraries here have no \(codec) encoder")
        }
        guard api.avformat_alloc_output_context2(&formatContext, nil, "ipod", nil) >= 0, let context = formatContext,
              let buffer = api.av_malloc(65_536) else {
            close()
            throw Self.failure(path, "out of memory")
        }
        ioContext = api.avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), 65_536, 1,
                                           Unmanaged.passUnretained(self).toOpaque(), nil, { opaque, bytes, size in
            guard let opaque, let bytes else { return -1 }
            return Unmanaged<LibAVWriter>.fromOpaque(opaque).takeUnretainedValue().writeBytes(bytes, Int(size))
        }, { opaque, offset, whence in
            guard let opaque else { return -1 }
            return Unmanaged<LibAVWriter>.fromOpaque(opaque).takeUnretainedValue().seekBytes(offset, whence)
        })
        guard let ioContext else {
            api.av_free(buffer)
            close()
            throw Self.failure(path, "out of memory")
        }
        context.pointee.pb = ioContext
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO | AVFMT_FLAG_BITEXACT
        codecContext = api.avcodec_alloc_context3(encoder)
        guard let codecContext, let stream = api.avformat_new_stream(context, nil) else {
            close()
            throw Self.failure(path, "out of memory")
        }
        self.stream = stream
        codecContext.pointee.sample_rate = Int32(sampleRate)
        api.av_channel_layout_default(&codecContext.pointee.ch_layout, Int32(channelCount))
        switch planeSample {
        case .int16: codecContext.pointee.sample_fmt = AV_SAMPLE_FMT_S16P
        case .int24:
            codecContext.pointee.sample_fmt = AV_SAMPLE_FMT_S32P
            codecContext.pointee.bits_per_raw_sample = 24
        case .float: codecContext.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        }
        codecContext.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        codecContext.pointee.thread_count = 1
        codecContext.pointee.flags |= Int32(CFFMPEG_CODEC_FLAG_BITEXACT)
        if context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            codecContext.pointee.flags |= Int32(CFFMPEG_CODEC_FLAG_GLOBAL_HEADER)
        }
        if let quality = settings.quality {
            codecContext.pointee.flags |= Int32(CFFMPEG_CODEC_FLAG_QSCALE)
            codecContext.pointee.global_quality = Int32(((0.1 + 1.9 * quality) * Double(FF_QP2LAMBDA)).rounded())
        } else if planeSample == .float {
            codecContext.pointee.bit_rate = Int64(settings.bitRate ?? Self.defaultBitRate(channelCount: channelCount))
        }
        var status = api.avcodec_open2(codecContext, encoder, nil)
        guard status >= 0 else {
            close()
            throw Self.failure(path, "FFmpeg's \(codec) encoder refuses \(sampleRate) Hz with \(channelCount) channels (\(Self.message(api, status)))")
        }
        if codecContext.pointee.frame_size > 0 { frameSize = Int(codecContext.pointee.frame_size) }
        status = api.avcodec_parameters_from_context(stream.pointee.codecpar, codecContext)
        stream.pointee.time_base = codecContext.pointee.time_base
        var options: OpaquePointer?
        _ = api.av_dict_set(&options, "movie_timescale", "\(sampleRate)", 0)
        if status >= 0 { status = api.avformat_write_header(context, &options) }
        api.av_dict_free(&options)
        frame = api.av_frame_alloc()
        packet = api.av_packet_alloc()
        guard status >= 0, let frame, packet != nil else {
            let reason = writeFailure ?? Self.message(api, status)
            close()
            throw Self.failure(path, "cannot start the file (\(reason))")
        }
        frame.pointee.nb_samples = Int32(frameSize)
        frame.pointee.format = codecContext.pointee.sample_fmt.rawValue
        frame.pointee.sample_rate = Int32(sampleRate)
        status = api.av_channel_layout_copy(&frame.pointee.ch_layout, &codecContext.pointee.ch_layout)
        if status >= 0 { status = api.av_frame_get_buffer(frame, 0) }
        guard status >= 0 else {
            close()
            throw Self.failure(path, "out of memory")
        }
    }

    deinit { close() }

    /// Gives the muxer `chapters` (in frames at `sampleRate`) as the context's `AVChapter`s, which
    /// the context frees with itself: the `ipod` muxer writes those it finds at its trailer as a
    /// chapter track and a Nero `chpl` list. False when memory ran out.
    private static func addChapters(_ chapters: [EncoderChapter], to context: UnsafeMutablePointer<AVFormatContext>, sampleRate: Int,
                                    api: CFFmpegAPI) -> Bool {
        guard !chapters.isEmpty else { return true }
        guard let list = api.av_malloc(chapters.count * MemoryLayout<UnsafeMutablePointer<AVChapter>?>.stride) else { return false }
        let pointers = list.bindMemory(to: UnsafeMutablePointer<AVChapter>?.self, capacity: chapters.count)
        context.pointee.chapters = pointers
        for (index, chapter) in chapters.enumerated() {
            guard let memory = api.av_malloc(MemoryLayout<AVChapter>.stride) else { return false }
            let made = memory.bindMemory(to: AVChapter.self, capacity: 1)
            made.initialize(to: AVChapter(id: Int64(index), time_base: AVRational(num: 1, den: Int32(sampleRate)),
                                          start: chapter.start, end: chapter.end, metadata: nil))
            pointers[index] = made
            context.pointee.nb_chapters = UInt32(index + 1)
            // Every chapter gets a title, "" too: the muxer writes no chapter-track sample for one without, and the next would take its time.
            if api.av_dict_set(&made.pointee.metadata, "title", chapter.title, 0) < 0 { return false }
        }
        return true
    }

    /// AAC's bit rate when none is given: 64 kb/s per channel (128 kb/s for stereo).
    static func defaultBitRate(channelCount: Int) -> Int { 64_000 * channelCount }

    /// Encodes `frames` interleaved frames of `samples`, as 16-bit values (`int16`),
    /// left-justified 32-bit values (`int32`) or floats (`float`) as the encoder takes them.
    func write<Sample>(_ samples: UnsafePointer<Sample>, frames: Int, int16: (Sample) -> Int16, int32: (Sample) -> Int32,
                       float: (Sample) -> Float) throws(AudioFormatError) {
        var done = 0
        while done < frames {
            guard let frame else { return }
            // The encoder may still hold the last frame's buffer: a new one is taken then.
            if filled == 0, api.av_frame_make_writable(frame) < 0 { throw Self.failure(path, "out of memory") }
            guard let planes = frame.pointee.extended_data else { return }
            let count = min(frames - done, frameSize - filled)
            for channel in 0..<channelCount {
                guard let plane = planes[channel] else { continue }
                let source = samples + done * channelCount + channel
                switch planeSample {
                case .int16:
                    let output = UnsafeMutableRawPointer(plane).assumingMemoryBound(to: Int16.self) + filled
                    for index in 0..<count { output[index] = int16(source[index * channelCount]) }
                case .int24:
                    let output = UnsafeMutableRawPointer(plane).assumingMemoryBound(to: Int32.self) + filled
                    for index in 0..<count { output[index] = int32(source[index * channelCount]) & ~0xFF }
                case .float:
                    let output = UnsafeMutableRawPointer(plane).assumingMemoryBound(to: Float.self) + filled
                    for index in 0..<count { output[index] = float(source[index * channelCount]) }
                }
            }
            filled += count
            done += count
            if filled == frameSize { try encodeFilled() }
        }
    }

    /// Encodes what is left, flushes the encoder and completes the file (its index and edit list).
    func finish() throws(AudioFormatError) {
        guard let formatContext else { return }
        if filled > 0 { try encodeFilled() }
        try encode(nil)
        guard Self.addChapters(MPEG4Chapters.tiled(chapters, frames: sent), to: formatContext, sampleRate: sampleRate, api: api) else {
            close()
            throw Self.failure(path, "out of memory")
        }
        let status = api.av_write_trailer(formatContext)
        let failure = writeFailure
        close()
        guard status >= 0, failure == nil else { throw Self.failure(path, "cannot complete the file (\(failure ?? Self.message(api, status)))") }
    }

    /// Frees the encoder, the muxer and the I/O context and closes the descriptor.
    func close() {
        api.av_frame_free(&frame)
        api.av_packet_free(&packet)
        api.avcodec_free_context(&codecContext)
        if let context = ioContext {
            api.av_freep(&context.pointee.buffer)
            api.avio_context_free(&ioContext)
        }
        if let context = formatContext {
            api.avformat_free_context(context)
            formatContext = nil
        }
        if descriptorIsOpen {
            descriptorIsOpen = false
            closeDescriptor(descriptor)
        }
    }

    /// Sends the filled frame to the encoder.
    private func encodeFilled() throws(AudioFormatError) {
        guard let frame else { return }
        frame.pointee.nb_samples = Int32(filled)
        frame.pointee.pts = sent
        sent += Int64(filled)
        filled = 0
        try encode(frame)
    }

    /// Sends `frame` (nil to flush) and writes every packet the encoder gives back.
    private func encode(_ frame: UnsafeMutablePointer<AVFrame>?) throws(AudioFormatError) {
        guard let codecContext, let packet, let formatContext, let stream else { return }
        var status = api.avcodec_send_frame(codecContext, frame)
        guard status >= 0 else { throw Self.failure(path, "cannot encode (\(Self.message(api, status)))") }
        while true {
            status = api.avcodec_receive_packet(codecContext, packet)
            if status == CFFMPEG_AVERROR_EAGAIN || status == CFFMPEG_AVERROR_EOF { return }
            guard status >= 0 else { throw Self.failure(path, "cannot encode (\(Self.message(api, status)))") }
            api.av_packet_rescale_ts(packet, codecContext.pointee.time_base, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            status = api.av_interleaved_write_frame(formatContext, packet)
            guard status >= 0 else { throw Self.failure(path, "cannot write (\(writeFailure ?? Self.message(api, status)))") }
        }
    }

    /// The I/O context's write: all of `bytes` to the descriptor, or a negative status.
    fileprivate func writeBytes(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
        var done = 0
        while done < count {
            let written = writeDescriptor(descriptor, bytes + done, count - done)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                writeFailure = String(cString: strerror(errno))
                return -1
            }
            done += written
        }
        return Int32(count)
    }

    /// The I/O context's seek, including its size query (`AVSEEK_SIZE`).
    fileprivate func seekBytes(_ offset: Int64, _ whence: Int32) -> Int64 {
        if whence & AVSEEK_SIZE != 0 {
            var status = stat()
            return fstat(descriptor, &status) == 0 ? Int64(status.st_size) : -1
        }
        return Int64(lseek(descriptor, off_t(offset), whence & ~AVSEEK_FORCE))
    }

    private static func message(_ api: CFFmpegAPI, _ code: Int32) -> String { LibAVReader.message(api, code) }

    private static func failure(_ path: String, _ reason: String) -> AudioFormatError {
        AudioFormatError(path: path, kind: .writeFailed, reason: reason)
    }
}

/// The C library's `close`, out of reach of `LibAVWriter.close()`'s name.
private func closeDescriptor(_ descriptor: Int32) {
    close(descriptor)
}

/// The C library's `write`.
private func writeDescriptor(_ descriptor: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
