import AudioFormats
import CSndfile
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libsndfile as a tenant of the format registry: it decodes PCM containers, FLAC, Ogg Vorbis
/// and Opus, MP3 and the rarer formats it recognises itself, and encodes what it can write.
public struct LibSndfileFormats: AudioFormatKind {
    /// libsndfile's kind, as the registry lists it.
    public init() {}

    /// `libsndfile`.
    public var name: String { "libsndfile" }

    /// The containers libsndfile reads whose magic numbers the sniffer knows; MPEG audio goes to
    /// libmpg123 directly (forced with `--decoder sndfile`, libsndfile still reads it).
    public var decodedContainers: Set<AudioContainer> { [.wav, .wavex, .aiff, .au, .raw, .w64, .rf64, .flac, .caf, .ogg] }

    /// libsndfile also recognises VOC, IFF/8SVX, IRCAM, NIST, PAF, SD2 and others by their headers.
    public var triesUnrecognisedInputs: Bool { true }

    /// A `SoundFileReader` on `input`, in aurender's vocabulary.
    public func makeDecoder(for input: AudioInput, raw: RawFormat?) throws(AudioFormatError) -> any AudioDecoder {
        let rawFormat = raw.map {
            SoundFileReader.RawFormat(sampleRate: $0.sampleRate, channelCount: $0.channelCount, encoding: Self.sndfileEncoding($0.encoding))
        }
        let statedFrames = raw == nil ? HeaderLength.statedFrames(input) : nil
        let reader = try SoundFileReader(input: input, raw: rawFormat)
        guard reader.type == .mpeg, statedFrames == nil, input.fileDescriptor == nil else {
            let beforeTag = raw == nil ? ID3v1Tag.start(in: input).flatMap { HeaderLength.waveFrames(before: $0, input) } : nil
            return SndfileDecoder(reader, statedFrames: statedFrames, dataChunkIsCut: raw == nil && HeaderLength.dataChunkIsCut(input),
                                  framesBeforeTag: beforeTag)
        }
        // An MP3 without a frame count: libsndfile would stop at its estimate, so it is read
        // again to its end, the estimate kept for `info`.
        return SndfileDecoder(try SoundFileReader.readingToTheEnd(input), statedFrames: nil, estimatedFrames: reader.frameCount)
    }

    /// Whether libsndfile accepts the combination (`sf_format_check`).
    public func canWrite(container: AudioContainer, encoding: AudioEncoding, sampleRate: Int, channelCount: Int) -> Bool {
        guard let type = Self.sndfileType(container) else { return false }
        return SoundFileWriter.canWrite(type: type, encoding: Self.sndfileEncoding(encoding), sampleRate: sampleRate, channelCount: channelCount)
    }

    /// Every container libsndfile writes with the encodings it accepts in it, as `sf_format_check`
    /// answers at 44.1 kHz stereo, 48 kHz stereo (Opus) or 8 kHz mono (GSM 6.10).
    public var writtenFormats: [(container: AudioContainer, encodings: [AudioEncoding])] {
        Self.types.compactMap { container, _ in
            let encodings = Self.encodings.map(\.0).filter { encoding in
                [(44100, 2), (48000, 2), (8000, 1)].contains { canWrite(container: container, encoding: encoding, sampleRate: $0.0, channelCount: $0.1) }
            }
            return encodings.isEmpty ? nil : (container, encodings)
        }
    }

    /// A `SoundFileWriter` on `fileDescriptor`, in aurender's vocabulary, compressing an MP3,
    /// Vorbis or Opus output as `settings` ask (`compression(for:settings:sampleRate:channelCount:)`),
    /// with `settings.leadingTags` before the audio of an Ogg stream or an MP3.
    public func makeEncoder(fileDescriptor: Int32, path: String, container: AudioContainer, encoding: AudioEncoding,
                            sampleRate: Int, channelCount: Int, settings: EncoderSettings) throws(AudioFormatError) -> any AudioEncoder {
        guard let type = Self.sndfileType(container) else {
            close(fileDescriptor)
            throw AudioFormatError(path: path, kind: .unsupportedFormat, reason: "libsndfile cannot write \(container.name)")
        }
        var compression: (level: Double, variableBitRate: Bool?)?
        if !settings.isDefault {
            do throws(AudioFormatError) {
                compression = try Self.compression(for: encoding, settings: settings, sampleRate: sampleRate, channelCount: channelCount, path: path)
            } catch {
                close(fileDescriptor)
                throw error
            }
        }
        let writer = try SoundFileWriter(fileDescriptor: fileDescriptor, path: path, type: type, encoding: Self.sndfileEncoding(encoding),
                                         sampleRate: sampleRate, channelCount: channelCount, tags: settings.leadingTags)
        if let compression { try writer.setCompression(level: compression.level, variableBitRate: compression.variableBitRate) }
        return SndfileEncoder(writer, container: container, encoding: encoding)
    }

    /// libsndfile's compression level (0 best to 1 smallest) and bit-rate mode for `settings`,
    /// or an error about `path`.
    ///
    /// A quality q is the level 1 − q (variable bit rate for MP3). A bit rate inverts
    /// libsndfile's own mappings: MP3's constant rate is 320 − level × 288 kb/s at 32 kHz and
    /// above (160 − level × 152 from 16 kHz, 64 − level × 56 below); Opus targets
    /// (6 + (1 − level) × 250) kb/s per channel. Vorbis takes a quality only.
    static func compression(for encoding: AudioEncoding, settings: EncoderSettings, sampleRate: Int,
                            channelCount: Int, path: String) throws(AudioFormatError) -> (level: Double, variableBitRate: Bool?) {
        if let quality = settings.quality { return (1 - quality, encoding == .mp3 ? true : nil) }
        guard let bitRate = settings.bitRate else { return (0, nil) }
        func outOfRange(_ low: Int, _ high: Int, _ unit: String) -> AudioFormatError {
            AudioFormatError(path: path, kind: .unsupportedFormat,
                             reason: "\(encoding.name) at \(sampleRate) Hz takes \(low) to \(high) kb/s\(unit), not \(kilobits(bitRate))")
        }
        func kilobits(_ bits: Int) -> String { bits % 1_000 == 0 ? "\(bits / 1_000)" : "\(Double(bits) / 1_000)" }
        switch encoding {
        case .mp3:
            let (low, high) = sampleRate >= 32_000 ? (32, 320) : sampleRate >= 16_000 ? (8, 160) : (8, 64)
            let kilobits = Double(bitRate) / 1_000
            guard kilobits >= Double(low), kilobits <= Double(high) else { throw outOfRange(low, high, "") }
            return (max(0, min(1, (Double(high) - kilobits - 0.5) / Double(high - low))), false)
        case .opus:
            let perChannel = Double(bitRate) / Double(channelCount)
            guard perChannel >= 6_000, perChannel <= 256_000 else { throw outOfRange(6, 256, " per channel") }
            return (max(0, min(1, 1 - (perChannel - 6_000 + 0.5) / 250_000)), nil)
        default:
            throw AudioFormatError(path: path, kind: .unsupportedFormat, reason: "\(encoding.name) takes a quality here, not a bit rate")
        }
    }

    /// libsndfile's containers, by aurender's names.
    private static let types: [(AudioContainer, SoundFileType)] = [
        (.wav, .wav), (.wavex, .wavex), (.aiff, .aiff), (.au, .au), (.raw, .raw), (.w64, .w64), (.rf64, .rf64),
        (.flac, .flac), (.caf, .caf), (.ogg, .ogg), (.mp3, .mpeg),
    ]

    /// libsndfile's encodings, by aurender's names.
    private static let encodings: [(AudioEncoding, SoundFileEncoding)] = [
        (.pcmS8, .pcmS8), (.pcmU8, .pcmU8), (.pcm16, .pcm16), (.pcm24, .pcm24), (.pcm32, .pcm32), (.float, .float),
        (.double, .double), (.ulaw, SoundFileEncoding(rawValue: Int32(SF_FORMAT_ULAW))),
        (.alaw, SoundFileEncoding(rawValue: Int32(SF_FORMAT_ALAW))),
        (.imaADPCM, SoundFileEncoding(rawValue: Int32(SF_FORMAT_IMA_ADPCM))),
        (.msADPCM, SoundFileEncoding(rawValue: Int32(SF_FORMAT_MS_ADPCM))),
        (.gsm610, SoundFileEncoding(rawValue: Int32(SF_FORMAT_GSM610))),
        (.vorbis, .vorbis), (.opus, .opus), (.mp3, .mpegLayer3),
    ]

    /// libsndfile's container for `container`, if it writes it.
    static func sndfileType(_ container: AudioContainer) -> SoundFileType? {
        types.first { $0.0 == container }?.1
    }

    /// aurender's name for a libsndfile container; one aurender has no name for keeps libsndfile's.
    static func container(_ type: SoundFileType) -> AudioContainer {
        types.first { $0.1 == type }?.0 ?? AudioContainer(identifier: "sndfile-\(String(type.rawValue, radix: 16))", name: type.name)
    }

    /// libsndfile's encoding for `encoding`; one it has no name for maps to an invalid subtype it refuses.
    static func sndfileEncoding(_ encoding: AudioEncoding) -> SoundFileEncoding {
        encodings.first { $0.0 == encoding }?.1 ?? SoundFileEncoding(rawValue: 0)
    }

    /// aurender's name for a libsndfile encoding; one aurender has no name for keeps libsndfile's.
    static func encoding(_ encoding: SoundFileEncoding) -> AudioEncoding {
        encodings.first { $0.1 == encoding }?.0
            ?? AudioEncoding(identifier: "sndfile-\(String(encoding.rawValue, radix: 16))", name: encoding.name, sampleType: encoding.sampleType)
    }
}
