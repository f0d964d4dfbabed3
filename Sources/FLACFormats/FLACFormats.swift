import AudioFormats
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libFLAC as the registry's FLAC encoder, on every core (`ParallelFLACEncoder`); libsndfile
/// still decodes FLAC.
///
/// It writes what libsndfile wrote before it, byte for byte on a regular file: 8, 16 and
/// 24-bit PCM, 1 to 8 channels, 1 Hz to 655,350 Hz, at libFLAC's compression level 5.
public struct FLACFormats: AudioEncoderKind {
    /// The threads that encode each file; nil for one per processor (at most 8).
    public let workerCount: Int?

    /// libFLAC's kind, with `workerCount` threads a file (nil: one per processor, at most 8).
    public init(workerCount: Int? = nil) {
        self.workerCount = workerCount.map { max(1, $0) }
    }

    /// `libFLAC`.
    public var name: String { "libFLAC" }

    /// FLAC's integer encodings.
    public var writtenFormats: [(container: AudioContainer, encodings: [AudioEncoding])] { [(.flac, Self.encodings)] }

    /// FLAC in 8, 16 or 24 bits, with 1 to 8 channels at 1 to 655,350 Hz (libsndfile's limits, so
    /// what it refused is refused as before).
    public func canWrite(container: AudioContainer, encoding: AudioEncoding, sampleRate: Int, channelCount: Int) -> Bool {
        container == .flac && Self.encodings.contains(encoding) && (1...8).contains(channelCount) && (1...655_350).contains(sampleRate)
    }

    /// A `ParallelFLACEncoder` on `fileDescriptor`, its header holding `settings.leadingTags`;
    /// FLAC has no bit rate or quality to set.
    public func makeEncoder(fileDescriptor: Int32, path: String, container: AudioContainer, encoding: AudioEncoding,
                            sampleRate: Int, channelCount: Int, settings: EncoderSettings) throws(AudioFormatError) -> any AudioEncoder {
        guard canWrite(container: container, encoding: encoding, sampleRate: sampleRate, channelCount: channelCount), settings.isDefault else {
            close(fileDescriptor)
            throw AudioFormatError(path: path, kind: .unsupportedFormat,
                                   reason: settings.isDefault ? "libFLAC cannot write \(encoding.name) in \(container.name) at \(sampleRate) Hz with \(channelCount) channels"
                                                              : "\(encoding.name) has no bit rate or quality to set")
        }
        let bits = encoding == .pcmS8 ? 8 : encoding == .pcm16 ? 16 : 24
        return try ParallelFLACEncoder(fileDescriptor: fileDescriptor, path: path, encoding: encoding,
                                       settings: LibFLAC.Settings(channelCount: channelCount, bitsPerSample: bits, sampleRate: sampleRate, level: 5),
                                       workerCount: workerCount ?? Self.processorCount, cueOffsets: settings.chapters.map(\.start),
                                       tags: settings.leadingTags)
    }

    private static let encodings: [AudioEncoding] = [.pcmS8, .pcm16, .pcm24]

    /// The processors online, at most 8.
    private static var processorCount: Int { max(1, min(8, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))) }
}
