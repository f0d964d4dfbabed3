import AudioFormats

extension OutputFormatChoice {
    /// Chooses `codec` for an `.m4a` output (`.aac` or `.alac`), at the depth of `bits` (a PCM
    /// encoding: `.pcm16`, `.pcm24`) when given: ALAC holds 16 or 24 bits and keeps the one
    /// given; without `bits` it follows the input's resolution. AAC has no bit depth to set.
    public mutating func setCodec(_ codec: AudioEncoding, bits: AudioEncoding?) throws(CodecChoiceError) {
        guard let bits else {
            encoding = codec
            pinsBitDepth = false
            return
        }
        guard codec == .alac else { throw .noBitDepth(codec: codec) }
        guard let depth = bits.integerBits.flatMap(AudioEncoding.alac(bits:)) else { throw .unsupportedBitDepth(codec: codec, bits: bits) }
        encoding = depth
        pinsBitDepth = true
    }
}

/// A bit depth a codec cannot take.
public enum CodecChoiceError: Error, Equatable, CustomStringConvertible {
    /// A lossy codec (AAC) was given a bit depth.
    case noBitDepth(codec: AudioEncoding)
    /// ALAC was given a depth other than 16 or 24 bits.
    case unsupportedBitDepth(codec: AudioEncoding, bits: AudioEncoding)

    /// `alac holds 16 or 24 bits, not Signed 8 bit PCM`.
    public var description: String {
        switch self {
        case .noBitDepth(let codec): "\(codec.identifier) is a lossy codec, with no bit depth to set"
        case .unsupportedBitDepth(let codec, let bits): "\(codec.identifier) holds 16 or 24 bits, not \(bits.name)"
        }
    }
}
