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
