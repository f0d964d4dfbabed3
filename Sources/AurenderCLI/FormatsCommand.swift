import ArgumentParser
import Aurender
import FoundationEssentials

/// `aurender formats`: the containers and encodings this build reads and writes, with the
/// decoder or encoder handling each, as the format registry's tenants claim them.
struct FormatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "formats",
        abstract: "List the containers and encodings this build reads and writes, with the decoder or encoder handling each.",
        discussion: "Inputs are recognised by their content; --decoder on render, mix and info forces one decoder."
    )

    @Flag(help: "Print the listing as JSON on standard output.")
    var json = false

    /// A read container, as printed with `--json`.
    struct ReadInfo: Codable {
        var container: String
        var descriptions: [String]
        var decoder: String
        /// The only encodings the decoder claims in the container; absent when it claims all.
        var encodings: [String]?
    }

    /// A written container, as printed with `--json`.
    struct WriteInfo: Codable {
        var container: String
        var description: String
        var extensions: [String]
        var encodings: [String]
        var encoder: String
    }

    /// The whole listing, as printed with `--json`.
    struct ListingInfo: Codable {
        var decoders: [String]
        var reads: [ReadInfo]
        var decodersOfUnrecognisedInputs: [String]
        var writes: [WriteInfo]
    }

    func run() throws {
        let listing = FormatListing(FormatRegistry.standard)
        if json {
            print(try ReportJSON.text(ListingInfo(
                decoders: FormatRegistry.standard.kinds.filter { !$0.decodedContainers.isEmpty }.map(\.name),
                reads: listing.reads.map { ReadInfo(container: $0.container.identifier, descriptions: $0.descriptions, decoder: $0.decoder,
                                                      encodings: $0.encodings.isEmpty ? nil : $0.encodings.map(\.identifier)) },
                decodersOfUnrecognisedInputs: listing.decodersOfUnrecognisedInputs,
                writes: listing.writes.map {
                    WriteInfo(container: $0.container.identifier, description: $0.container.name, extensions: $0.container.extensions,
                              encodings: $0.encodings.map(\.identifier), encoder: $0.encoder)
                })))
        } else {
            print(Self.text(listing), terminator: "")
        }
    }

    /// The listing as aligned text: reads, then writes.
    static func text(_ listing: FormatListing) -> String {
        func padded(_ text: String, _ width: Int) -> String { text.padded(to: width - 1) + " " }
        var lines = ["Reads (recognised by content; raw needs --input-type raw):"]
        for read in listing.reads {
            let shared = listing.reads.contains { $0.container == read.container && !$0.encodings.isEmpty }
            let encodings = read.encodings.isEmpty ? (shared ? ": the other encodings" : "") : ": " + read.encodings.map(\.name).joined(separator: ", ")
            lines.append("  " + padded(read.container.identifier, 11) + padded(read.decoder, 12) + read.descriptions.joined(separator: "; ") + encodings)
        }
        lines.append("  other inputs are tried by \(listing.decodersOfUnrecognisedInputs.joined(separator: ", then "))")
        lines.append("Writes (chosen by --type or the output's extension):")
        for write in listing.writes {
            lines.append("  " + padded(write.container.identifier, 11) + padded(write.encoder, 12) + write.container.name
                         + " (." + write.container.extensions.joined(separator: ", .") + "): "
                         + write.encodings.map(\.identifier).joined(separator: ", "))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
