/// Why voice processing cannot run: a setting out of range, a far end that cannot be used, an
/// error of WebRTC's library itself, or a resampled stream that fell behind its lead.
public enum VoiceProcessingError: Error, Equatable, CustomStringConvertible {
    /// A setting's value is out of its range.
    case outOfRange(setting: String, value: Double, range: ClosedRange<Double>, unit: String)
    /// WebRTC's audio processing module refused or failed, with its error code.
    case library(operation: String, code: Int32)
    /// The far end has no channels, or a rate of no whole number of Hz.
    case unusableFarEnd(String)
    /// The resampled stream ran short of the silence the node put ahead of it (`VoiceNode.leadMargin`).
    case resampledStreamRanShort(frames: Int)

    public var description: String {
        switch self {
        case .outOfRange(let setting, let value, let range, let unit):
            "the \(setting) must be from \(Self.text(range.lowerBound)) to \(Self.text(range.upperBound)) \(unit), not \(Self.text(value))"
        case .library(let operation, let code):
            "WebRTC's audio processing failed to \(operation) (error \(code)\(Self.meaning(code).map { ": \($0)" } ?? ""))"
        case .unusableFarEnd(let reason):
            "the echo reference cannot be used: \(reason)"
        case .resampledStreamRanShort(let frames):
            "the stream resampled around WebRTC's rate ran \(frames) frames short of its lead; please report this input's rate"
        }
    }

    /// What WebRTC's error codes (`AudioProcessing::Error`) mean.
    static func meaning(_ code: Int32) -> String? {
        switch code {
        case -1: "unspecified error"
        case -2: "creation failed"
        case -5: "a null pointer"
        case -6: "bad parameter"
        case -7: "bad sample rate"
        case -8: "bad data length"
        case -9: "bad number of channels"
        case -10: "file error"
        case -11: "stream parameter not set"
        case -12: "not enabled"
        default: nil
        }
    }

    static func text(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }
}
