import ArgumentParser
import Aurender
import FoundationEssentials

/// `aurender info FILE...`: what each file holds, like `soxi`.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print container, encoding, channels, rate, frames, duration, tags and pictures of each file; with --loudness, its loudness.",
        discussion: "A file that cannot be read gets a one-line error; the others are still printed, and the exit status is that of the first failure."
    )

    @Argument(help: "Files to describe (- for standard input).", completion: .file())
    var files: [String]

    @Flag(help: "Print a JSON array on standard output instead of text.")
    var json = false

    @Option(help: ArgumentHelp("Decode with this decoder whatever the files hold (\(ConversionOptions.decoderNames)).", valueName: "decoder"), completion: CompletionValues.decoders)
    var decoder: String?

    @Flag(help: "Decode each file and count its frames, rather than take its header's word (or estimate) for them.")
    var exact = false

    @Flag(help: "Also measure integrated loudness (ITU-R BS.1770-4 / EBU R128, LUFS), loudness range (LU) and true peak (dBTP); reads the whole file.")
    var loudness = false

    /// A file's loudness, as printed with `--loudness`; levels rounded to 0.01.
    struct LoudnessInfo: Codable {
        /// Null when no 400 ms block reaches the −70 LUFS gate (silence, or a file that short).
        var integratedLUFS: Double?
        var loudnessRangeLU: Double
        /// Null for digital silence.
        var truePeakDBTP: Double?
        /// The 8× reconstructed peak (flat to 0.45 of the rate); `truePeakDBTP` is BS.1770-4's 4×.
        var reconstructedPeakDBTP: Double?
        var samplePeakDBFS: Double?

        init(_ measurement: LoudnessMeasurement) {
            integratedLUFS = measurement.integrated.map(ReportJSON.level)
            loudnessRangeLU = ReportJSON.level(measurement.range)
            truePeakDBTP = measurement.truePeak.map(ReportJSON.level)
            reconstructedPeakDBTP = measurement.reconstructedPeak.map(ReportJSON.level)
            samplePeakDBFS = measurement.samplePeak.map(ReportJSON.level)
        }
    }

    /// One file's description, as printed with `--json`; an unknown length is null, and
    /// `length` says whether `frames` is `exact` (stated by the container, or counted with
    /// `--exact`), `estimated` (from headers or bit rate) or `unknown`; `tags` and `pictures`
    /// are `InfoMetadata`'s, `broadcastExtension`, `ixml` and `markers` `InfoChunks`'.
    struct FileInfo: Encodable {
        var path, container, encoding, decoder: String
        var channels: Int
        var sampleRate: Double
        @NullWhenAbsent var frames: Int64?
        @NullWhenAbsent var durationSeconds: Double?
        var length: String
        var loudness: LoudnessInfo?
        /// Every tag key with its values, in the file's order; empty when it has none.
        var tags: [InfoMetadata.Tag] = []
        var pictures: [InfoMetadata.PictureInfo] = []
        /// The `bext` chunk's fields; absent without one.
        var broadcastExtension: InfoChunks.Broadcast?
        /// The iXML chunk's text; absent without one.
        var ixml: String?
        /// The markers and regions, in the order of their positions; empty when it has none.
        var markers: [InfoChunks.MarkerInfo] = []
    }

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one file") }
        if exact, loudness, files.contains("-") {
            throw ValidationError("--exact with --loudness reads standard input twice, and it can be read only once; give one of them")
        }
    }

    func run() throws {
        var described: [FileInfo] = []
        var firstFailure: ExitStatus?
        for path in files {
            switch withLibraryMessagesSilenced({ Self.open(path, decoder: decoder) }) {
            case .success(let file):
                var length = file.length
                if exact {
                    do {
                        length = .exact(try withLibraryMessagesSilenced { try file.countFramesToEnd() })
                        if loudness { try file.rewind() }
                    } catch {
                        printError("\(error)")
                        firstFailure = firstFailure ?? ((error as? AudioFormatError).map(ExitStatus.init(input:)) ?? .dataError)
                        continue
                    }
                }
                var info = FileInfo(
                    path: path, container: file.container.name, encoding: file.encoding.name, decoder: file.decoderName,
                    channels: file.format.channelCount, sampleRate: file.format.sampleRate, frames: length.frames,
                    durationSeconds: length.frames.map { Double($0) / file.format.sampleRate }, length: Self.name(of: length))
                let metadata = InfoMetadata.read(path)
                if let error = metadata.error { printError(error.description) }
                (info.tags, info.pictures) = (metadata.metadata.tags, metadata.metadata.pictures)
                let chunks = InfoChunks.read(path, sampleRate: file.format.sampleRate)
                if let damage = chunks.damage { printError(damage.description) }
                (info.broadcastExtension, info.ixml, info.markers) = (chunks.chunks.broadcastExtension, chunks.chunks.ixml, chunks.chunks.markers)
                if loudness {
                    do {
                        info.loudness = LoudnessInfo(try withLibraryMessagesSilenced { try LoudnessScan.measure(file) })
                    } catch {
                        printError("\(error)")
                        firstFailure = firstFailure ?? ((error as? AudioFormatError).map(ExitStatus.init(input:)) ?? .dataError)
                        continue
                    }
                }
                described.append(info)
            case .failure(let error):
                printError(error.description)
                firstFailure = firstFailure ?? ExitStatus(input: error)
            }
        }
        if json {
            print(try ReportJSON.text(described))
        } else {
            print(described.map(Self.text).joined(separator: "\n\n"))
        }
        if let firstFailure { throw ExitCode(firstFailure.rawValue) }
    }

    /// `exact`, `estimated` or `unknown`, as `--json` gives a length.
    static func name(of length: AudioLength) -> String {
        switch length {
        case .exact: "exact"
        case .estimated: "estimated"
        case .unknown: "unknown"
        }
    }

    /// Opens a file, with the decoder named when one is, keeping the typed error.
    static func open(_ path: String, decoder: String? = nil) -> Result<any AudioDecoder, AudioFormatError> {
        do throws(AudioFormatError) {
            // A pipe's metadata before its audio is kept in its head for the tags shown after.
            guard let decoder else { return .success(try FormatRegistry.standard.openDecoder(path: path, leadingMetadataLimit: LeadingMetadata.pipeLimit)) }
            return .success(try FormatRegistry.standard.openDecoder(path: path, decoder: decoder, leadingMetadataLimit: LeadingMetadata.pipeLimit))
        } catch {
            return .failure(error)
        }
    }

    static func text(_ info: FileInfo) -> String {
        let rate = info.sampleRate == info.sampleRate.rounded() ? String(Int(info.sampleRate)) : String(info.sampleRate)
        return """
            File        : \(info.path)
            Container   : \(info.container)
            Encoding    : \(info.encoding)
            Decoder     : \(info.decoder)
            Channels    : \(info.channels)
            Sample rate : \(rate) Hz
            Frames      : \(info.frames.map { info.length == "estimated" ? "~\($0) (estimated)" : String($0) } ?? "unknown")
            Duration    : \(info.durationSeconds.map { info.length == "estimated" ? "~\(RenderError.format($0)) s (estimated)" : formatDuration($0) } ?? "unknown")
            """ + InfoMetadata(tags: info.tags, pictures: info.pictures).text
            + InfoChunks(broadcastExtension: info.broadcastExtension, ixml: info.ixml, markers: info.markers).text(sampleRate: info.sampleRate)
            + (info.loudness.map(loudnessText) ?? "")
    }

    static func loudnessText(_ loudness: LoudnessInfo) -> String {
        func level(_ value: Double?, _ unit: String) -> String { value.map { "\(RenderError.format($0)) \(unit)" } ?? "silent" }
        return """

            Loudness    : \(loudness.integratedLUFS.map { "\(RenderError.format($0)) LUFS integrated" } ?? "none (no 400 ms block reaches the -70 LUFS gate)"), range \(RenderError.format(loudness.loudnessRangeLU)) LU
            True peak   : \(level(loudness.truePeakDBTP, "dBTP")) (sample peak \(level(loudness.samplePeakDBFS, "dBFS")))
            8× peak     : \(level(loudness.reconstructedPeakDBTP, "dBTP")) (reconstructed, flat to 0.45 of the rate)
            """
    }

    /// Hours, minutes and seconds to the millisecond: `00:03:25.120`.
    static func formatDuration(_ seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        let (hours, rest) = milliseconds.quotientAndRemainder(dividingBy: 3_600_000)
        let (minutes, rest2) = rest.quotientAndRemainder(dividingBy: 60_000)
        let (secs, millis) = rest2.quotientAndRemainder(dividingBy: 1000)
        func pad(_ value: Int, _ width: Int) -> String { String(value).padded(to: width, fill: "0", alignedRight: true) }
        return "\(pad(hours, 2)):\(pad(minutes, 2)):\(pad(secs, 2)).\(pad(millis, 3))"
    }
}
