import ArgumentParser
import Aurender

/// An output container named on the command line (`--type wav`).
struct ContainerArgument: ExpressibleByArgument {
    let type: SoundFileType
    let encoding: SoundFileEncoding?

    init?(argument: String) {
        guard let named = SoundFileType.named(argument) else { return nil }
        type = named.type
        encoding = named.encoding
    }

    static var allValueStrings: [String] { SoundFileType.knownNames }
}

/// A sample encoding named by bit depth on the command line (`--bits 24`).
struct BitsArgument: ExpressibleByArgument {
    let encoding: SoundFileEncoding

    init?(argument: String) {
        guard let encoding = SoundFileEncoding.forBits(argument) else { return nil }
        self.encoding = encoding
    }

    static var allValueStrings: [String] { ["8", "16", "24", "32", "float", "double"] }
}

extension RenderJob.ClipPolicy: ExpressibleByArgument {}

/// A gain in dB with a sign and two decimals: `+3.50`, `-0.25`.
func decibels(_ value: Double) -> String {
    let hundredths = Int((abs(value) * 100).rounded())
    let fraction = hundredths % 100
    return (value < 0 && hundredths > 0 ? "-" : "+") + "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
}
