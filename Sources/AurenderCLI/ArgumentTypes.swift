import ArgumentParser
import Aurender

/// An output container named on the command line (`--type wav`).
struct ContainerArgument: ExpressibleByArgument {
    let type: AudioContainer
    let encoding: AudioEncoding?

    init?(argument: String) {
        guard let named = AudioContainer.named(argument) else { return nil }
        type = named.container
        encoding = named.encoding
    }

    static var allValueStrings: [String] { AudioContainer.knownNames }
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

/// A sample encoding named by bit depth on the command line (`--bits 24`).
struct BitsArgument: ExpressibleByArgument {
    let encoding: AudioEncoding

    init?(argument: String) {
        guard let encoding = AudioEncoding.forBits(argument) else { return nil }
        self.encoding = encoding
    }

    static var allValueStrings: [String] { ["8", "16", "24", "32", "float", "double"] }
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

/// A codec named on the command line (`--codec alac`).
struct CodecArgument: ExpressibleByArgument {
    let encoding: AudioEncoding

    init?(argument: String) {
        guard let encoding = [AudioEncoding.aac, .alac].first(where: { $0.identifier == argument.lowercased() }) else { return nil }
        self.encoding = encoding
    }

    static var allValueStrings: [String] { ["aac", "alac"] }
}

/// A bit rate on the command line: bits per second, or thousands of them with `k` (`256k`).
struct BitRateArgument: ExpressibleByArgument {
    let bitsPerSecond: Int

    init?(argument: String) {
        guard let bits = EncoderSettings.bitRate(parsing: argument) else { return nil }
        bitsPerSecond = bits
    }
}

extension RenderJob.ClipPolicy: ExpressibleByArgument {}

/// A gain in dB with a sign and two decimals: `+3.50`, `-0.25`.
func decibels(_ value: Double) -> String {
    let hundredths = Int((abs(value) * 100).rounded())
    let fraction = hundredths % 100
    return (value < 0 && hundredths > 0 ? "-" : "+") + "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
}

/// A time on the command line, in the library's syntax (`TimeValue`): seconds (`90`, `1.5s`),
/// milliseconds (`500ms`), minutes and hours (`1:30`, `1:02:03.5`) or frames (`441000f`).
struct TimeArgument: ExpressibleByArgument {
    let time: TimeValue

    init(_ time: TimeValue) { self.time = time }

    init?(argument: String) {
        guard let time = TimeValue(argument) else { return nil }
        self.time = time
    }
}
