import ArgumentParser
import Aurender
import FoundationEssentials

/// `aurender info FILE...`: what each file holds, like `soxi`.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print container, encoding, channels, rate, frames and duration of each file.",
        discussion: "A file that cannot be read gets a one-line error; the others are still printed, and the exit status is that of the first failure."
    )

    @Argument(help: "Files to describe (- for standard input).")
    var files: [String]

    @Flag(help: "Print a JSON array on standard output instead of text.")
    var json = false

    /// One file's description, as printed with `--json`.
    struct FileInfo: Codable {
        var path: String
        var container: String
        var encoding: String
        var channels: Int
        var sampleRate: Double
        var frames: Int64?
        var durationSeconds: Double?
    }

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one file") }
    }

    func run() throws {
        var described: [FileInfo] = []
        var firstFailure: ExitStatus?
        for path in files {
            switch withLibraryMessagesSilenced({ Self.open(path) }) {
            case .success(let file):
                described.append(FileInfo(
                    path: path, container: file.type.name, encoding: file.encoding.name,
                    channels: file.format.channelCount, sampleRate: file.format.sampleRate, frames: file.frameCount,
                    durationSeconds: file.frameCount.map { Double($0) / file.format.sampleRate }))
            case .failure(let error):
                printError(error.description)
                firstFailure = firstFailure ?? ExitStatus(input: error)
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(described), as: UTF8.self))
        } else {
            print(described.map(Self.text).joined(separator: "\n\n"))
        }
        if let firstFailure { throw ExitCode(firstFailure.rawValue) }
    }

    /// Opens a file, keeping libsndfile's typed error.
    static func open(_ path: String) -> Result<SoundFileReader, SoundFileError> {
        do throws(SoundFileError) { return .success(try SoundFileReader(path: path)) } catch { return .failure(error) }
    }

    static func text(_ info: FileInfo) -> String {
        let rate = info.sampleRate == info.sampleRate.rounded() ? String(Int(info.sampleRate)) : String(info.sampleRate)
        return """
            File        : \(info.path)
            Container   : \(info.container)
            Encoding    : \(info.encoding)
            Channels    : \(info.channels)
            Sample rate : \(rate) Hz
            Frames      : \(info.frames.map(String.init) ?? "unknown")
            Duration    : \(info.durationSeconds.map(formatDuration) ?? "unknown")
            """
    }

    /// Hours, minutes and seconds to the millisecond: `00:03:25.120`.
    static func formatDuration(_ seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        let (hours, rest) = milliseconds.quotientAndRemainder(dividingBy: 3_600_000)
        let (minutes, rest2) = rest.quotientAndRemainder(dividingBy: 60_000)
        let (secs, millis) = rest2.quotientAndRemainder(dividingBy: 1000)
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(hours, 2)):\(pad(minutes, 2)):\(pad(secs, 2)).\(pad(millis, 3))"
    }
}
