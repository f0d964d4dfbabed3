#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Chooses a decoder for each input by its content and an encoder for each output by
/// container and encoding, among the format kinds it holds.
///
/// The registry aurender uses is `FormatRegistry.standard`, whose tenant list is in
/// AudioNodes (`RegisteredFormats.swift`).
public struct FormatRegistry: Sendable {
    /// The implementations, in order of preference.
    public let kinds: [any AudioFormatKind]

    /// A registry of `kinds`, the first preferred where several claim a format.
    public init(kinds: [any AudioFormatKind]) {
        self.kinds = kinds
    }

    /// Opens `path` (`-` for standard input); `raw` describes a headerless input, which is
    /// not sniffed (so a raw stream is read as soon as its first bytes come). A pipe's input is
    /// the one its tag reader got, if it came first (`AudioInput.shared`); else its head takes the
    /// metadata before the audio up to `leadingMetadataLimit` bytes, for the tag reader after.
    public func openDecoder(path: String, raw: RawFormat? = nil, leadingMetadataLimit: Int? = nil) throws(AudioFormatError) -> any AudioDecoder {
        try openDecoder(for: try Self.input(path, raw: raw, leadingMetadataLimit: leadingMetadataLimit), raw: raw)
    }

    /// Opens `path` (`-` for standard input) with the kind named `decoder` (`libsndfile` or
    /// `sndfile`, `FFmpeg`; any case), whatever its content, to force one decoder.
    public func openDecoder(path: String, raw: RawFormat? = nil, decoder: String, leadingMetadataLimit: Int? = nil) throws(AudioFormatError) -> any AudioDecoder {
        guard let kind = kind(named: decoder) else {
            throw AudioFormatError(path: path, kind: .unsupportedInput,
                                   reason: "no decoder called \(decoder) in this build (it has \(kinds.filter(\.decodes).map(\.name).joined(separator: ", ")))")
        }
        let input = try Self.input(path, raw: raw, leadingMetadataLimit: leadingMetadataLimit)
        if raw == nil, input.isEmpty {
            throw AudioFormatError(path: input.path, kind: .invalidFile, reason: input.path == "-" ? "standard input is empty" : "the file is empty")
        }
        return try kind.makeDecoder(for: input, raw: raw)
    }

    /// The input at `path` for a decoder: a raw one without a head, another with the head the sniffer reads.
    private static func input(_ path: String, raw: RawFormat?, leadingMetadataLimit: Int?) throws(AudioFormatError) -> AudioInput {
        raw == nil ? try AudioInput.shared(path: path, leadingMetadataLimit: leadingMetadataLimit, decoding: true)
            : try AudioInput.shared(path: path, headBytes: 0, decoding: true)
    }

    /// The decoding kind called `name`, ignoring case and a leading `lib` (`sndfile` is
    /// `libsndfile`); a kind that only encodes is no decoder to force.
    public func kind(named name: String) -> (any AudioFormatKind)? {
        func bare(_ text: String) -> String {
            let lower = text.lowercased()
            return lower.hasPrefix("lib") ? String(lower.dropFirst(3)) : lower
        }
        return kinds.first { $0.decodes && bare($0.name) == bare(name) }
    }

    /// Opens the input on `fileDescriptor` (left open), named `path` in messages.
    public func openDecoder(fileDescriptor: Int32, path: String, raw: RawFormat? = nil) throws(AudioFormatError) -> any AudioDecoder {
        try openDecoder(for: try AudioInput(fileDescriptor: fileDescriptor, path: path,
                                            headBytes: raw == nil ? AudioInput.headSize : 0), raw: raw)
    }

    /// Chooses by `input`'s first bytes: the first kind claiming the container they name (by
    /// its identifier: `mp4`, `ape`, `flac`, …); a format no kind reads is refused by name; bytes
    /// no table knows go to the kinds that try unrecognised inputs.
    ///
    /// A kind that refuses the input when opening it hands it on to the next that claims the
    /// container or tries unrecognised inputs (libsndfile refuses 64-bit PCM and Ogg files with
    /// a video stream, which FFmpeg reads). When none opens it, the error is the first one's:
    /// the decoder that claimed the format says what is wrong with it in its terms, where the
    /// others only tried. A pipe is not handed on once a decoder has read past the head.
    public func openDecoder(for input: AudioInput, raw: RawFormat?) throws(AudioFormatError) -> any AudioDecoder {
        if let raw {
            guard let kind = kinds.first(where: { $0.decodedContainers.contains(.raw) }) else { throw unsupported(input.path, "headerless (raw) audio") }
            return try kind.makeDecoder(for: input, raw: raw)
        }
        if input.isEmpty {
            throw AudioFormatError(path: input.path, kind: .invalidFile, reason: input.path == "-" ? "standard input is empty" : "the file is empty")
        }
        switch FormatSniffer.sniff(input.head) {
        case .container(let container, let encoding):
            let claiming = kinds.filter { $0.claims(container, encoding: encoding) }
            guard !claiming.isEmpty else { throw unsupported(input.path, container.name) }
            let others = kinds.filter { kind in kind.triesUnrecognisedInputs && !claiming.contains { $0.name == kind.name } }
            return try firstDecoder(among: claiming + others, for: input)
        case .unrecognised:
            let trying = kinds.filter(\.triesUnrecognisedInputs)
            guard !trying.isEmpty else { throw AudioFormatError(path: input.path, kind: .invalidFile, reason: "not a recognised audio format") }
            return try firstDecoder(among: trying, for: input)
        }
    }

    /// The first of `candidates` (at least one) that opens `input`; the first refusal when none
    /// does. A kind that declines (`AudioFormatError.Kind.declined`) read nothing and says
    /// nothing of the input: the next is tried, even on a pipe, and its refusal is the one given.
    private func firstDecoder(among candidates: [any AudioFormatKind], for input: AudioInput) throws(AudioFormatError) -> any AudioDecoder {
        var refusal: AudioFormatError?
        var declined: AudioFormatError?
        for kind in candidates {
            do {
                return try kind.makeDecoder(for: input, raw: nil)
            } catch where error.kind == .declined {
                declined = error
            } catch {
                refusal = refusal ?? error
                if input.headIsConsumed || ![.invalidFile, .unsupportedInput].contains(error.kind) { break }
            }
        }
        throw (refusal ?? declined)!
    }

    /// Whether some kind can write `encoding` in `container` at `sampleRate` with `channelCount` channels.
    public func canWrite(container: AudioContainer, encoding: AudioEncoding, sampleRate: Int, channelCount: Int) -> Bool {
        kinds.contains { $0.canWrite(container: container, encoding: encoding, sampleRate: sampleRate, channelCount: channelCount) }
    }

    /// Starts a file on `fileDescriptor` (which the encoder then owns) with the first kind that
    /// can write it, compressing as `settings` ask; the descriptor is closed when none can.
    public func makeEncoder(fileDescriptor: Int32, path: String, container: AudioContainer, encoding: AudioEncoding,
                            sampleRate: Int, channelCount: Int, settings: EncoderSettings = EncoderSettings()) throws(AudioFormatError) -> any AudioEncoder {
        guard let kind = kinds.first(where: {
            $0.canWrite(container: container, encoding: encoding, sampleRate: sampleRate, channelCount: channelCount)
        }) else {
            close(fileDescriptor)
            throw AudioFormatError(path: path, kind: .unsupportedFormat,
                                   reason: "cannot write \(encoding.name) in \(container.name) at \(sampleRate) Hz with \(channelCount) channels")
        }
        return try kind.makeEncoder(fileDescriptor: fileDescriptor, path: path, container: container, encoding: encoding,
                                    sampleRate: sampleRate, channelCount: channelCount, settings: settings)
    }

    private func unsupported(_ path: String, _ description: String) -> AudioFormatError {
        AudioFormatError(path: path, kind: .unsupportedInput, reason: "\(description) is not supported by this build")
    }
}
