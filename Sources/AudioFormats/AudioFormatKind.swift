#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
/// One implementation of decoding and encoding behind the registry, as a SoX format handler:
/// it lists the containers it claims and opens decoders and encoders for them.
///
/// Adding a decoder is one type conforming to this and one line in the registry's tenant list.
public protocol AudioFormatKind: Sendable {
    /// The implementation's name, for messages and listings (`libsndfile`).
    var name: String { get }
    /// The containers it decodes when the input's first bytes name them.
    var decodedContainers: Set<AudioContainer> { get }
    /// The only encodings it claims in some of `decodedContainers` (libvorbisfile: Vorbis in
    /// Ogg); in the others, and by default, it claims every encoding.
    var decodedEncodings: [AudioContainer: [AudioEncoding]] { get }
    /// Whether it also tries inputs whose first bytes no table recognises (formats it knows by
    /// other means, such as headerless or rare ones).
    var triesUnrecognisedInputs: Bool { get }

    /// Opens a decoder on `input`, which it must read from its first byte (`input.head`
    /// first when the head was consumed); `raw` describes a headerless input.
    func makeDecoder(for input: AudioInput, raw: RawFormat?) throws(AudioFormatError) -> any AudioDecoder
    /// The containers it writes, each with the encodings it writes in it, for listings
    /// (`aurender formats`); empty for a kind that only decodes.
    var writtenFormats: [(container: AudioContainer, encodings: [AudioEncoding])] { get }
    /// Whether it can write `encoding` in `container` at `sampleRate` with `channelCount` channels.
    func canWrite(container: AudioContainer, encoding: AudioEncoding, sampleRate: Int, channelCount: Int) -> Bool
    /// Starts a file on `fileDescriptor`, which the encoder then owns and closes, compressing
    /// as `settings` ask (a lossy encoding's bit rate or quality).
    func makeEncoder(fileDescriptor: Int32, path: String, container: AudioContainer, encoding: AudioEncoding,
                     sampleRate: Int, channelCount: Int, settings: EncoderSettings) throws(AudioFormatError) -> any AudioEncoder
}

extension AudioFormatKind {
    /// None: every encoding in each of `decodedContainers`.
    public var decodedEncodings: [AudioContainer: [AudioEncoding]] { [:] }

    /// Whether it claims an input whose first bytes name `container` and, where they tell it,
    /// `encoding`: one in `decodedContainers`, in one of `decodedEncodings` where those are given.
    public func claims(_ container: AudioContainer, encoding: AudioEncoding?) -> Bool {
        guard decodedContainers.contains(container) else { return false }
        guard let only = decodedEncodings[container] else { return true }
        return encoding.map(only.contains) ?? false
    }
}

/// A kind that only decodes (libmpg123, libvorbisfile): it writes nothing, and the registry's
/// encoders come from the other kinds.
public protocol AudioDecoderKind: AudioFormatKind {}

extension AudioDecoderKind {
    /// None.
    public var writtenFormats: [(container: AudioContainer, encodings: [AudioEncoding])] { [] }

    /// Never.
    public func canWrite(container: AudioContainer, encoding: AudioEncoding, sampleRate: Int, channelCount: Int) -> Bool { false }

    /// Refuses, closing `fileDescriptor`.
    public func makeEncoder(fileDescriptor: Int32, path: String, container: AudioContainer, encoding: AudioEncoding,
                            sampleRate: Int, channelCount: Int, settings: EncoderSettings) throws(AudioFormatError) -> any AudioEncoder {
        close(fileDescriptor)
        throw AudioFormatError(path: path, kind: .unsupportedFormat, reason: "\(name) writes no files")
    }
}

/// A kind that only encodes (libFLAC, beside libsndfile that reads FLAC): it claims no input,
/// and the registry's decoders come from the other kinds.
public protocol AudioEncoderKind: AudioFormatKind {}

extension AudioEncoderKind {
    /// None.
    public var decodedContainers: Set<AudioContainer> { [] }

    /// No.
    public var triesUnrecognisedInputs: Bool { false }

    /// Refuses: the registry never hands it an input.
    public func makeDecoder(for input: AudioInput, raw: RawFormat?) throws(AudioFormatError) -> any AudioDecoder {
        throw AudioFormatError(path: input.path, kind: .unsupportedInput, reason: "\(name) decodes no files")
    }
}

extension AudioFormatKind {
    /// Whether it decodes anything: it claims containers or tries unrecognised inputs.
    public var decodes: Bool { !decodedContainers.isEmpty || triesUnrecognisedInputs }
}
