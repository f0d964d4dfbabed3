import ArgumentParser
import Aurender
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension LibraryLeveling.AlbumGrouping: ExpressibleByArgument {}

/// `aurender loudness PATH...`: a library's track and album loudness, reported, or written as
/// ReplayGain 2.0, R128 and Sound Check tags (`LibraryLeveling`), or those tags removed.
struct LoudnessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loudness",
        abstract: "Measure track and album loudness of files and folders; write or remove ReplayGain 2.0, R128 and Sound Check tags.",
        discussion: """
            Measures each file's integrated loudness (BS.1770-4), loudness range and true peak, and \
            each album's, an album being a folder's files (or, with --albums-by tag, the files with \
            one ALBUM and ALBUMARTIST tag). Folders are searched for audio files by extension (-r: \
            their subfolders too). By default it only reports. --write writes ReplayGain 2.0 tags \
            (reference -18 LUFS) to FLAC, Ogg Vorbis, MP3, MP4, WAV and AIFF, R128_TRACK_GAIN and \
            R128_ALBUM_GAIN to Opus (reference -23 LUFS; the header's output gain is left alone), \
            and Sound Check's iTunNORM to MP3 and MP4 (reference -16 LUFS); each file is rewritten \
            through a copy beside it renamed over it, its audio bytes untouched. --remove deletes \
            those tags. A file that fails is named on standard error and the exit status is non-zero. \
            See docs/loudness.md.
            """
    )

    @Argument(help: "Files and folders to measure.", completion: .file())
    var paths: [String] = []

    @Flag(name: .customShort("r"), help: "Look for audio files in the folders' subfolders too.")
    var recursive = false

    @Option(name: .customShort("j"), help: ArgumentHelp("Files measured at once (default: the number of cores).", valueName: "n"))
    var jobs: Int?

    @Option(help: ArgumentHelp("What makes an album: the files of one folder, or of one album tag.", valueName: "folder|tag"))
    var albumsBy: LibraryLeveling.AlbumGrouping?

    @Flag(help: "Write the gains into each file's tags.")
    var write = false

    @Flag(help: "Remove the ReplayGain, R128 and Sound Check tags (nothing is measured).")
    var remove = false

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Lower a gain so the track's (or album's) true peak stays at or under this level, in dBTP (like loudgain's -K).", valueName: "dBTP"))
    var maxTruePeak: Double?

    @Flag(help: "Print the figures as JSON on standard output (see docs/loudness.md for the fields).")
    var json = false

    func validate() throws {
        if paths.isEmpty { throw ValidationError("name at least one file or folder") }
        if write && remove { throw ValidationError("--write and --remove undo each other; give one of them") }
        if remove, maxTruePeak != nil { throw ValidationError("--max-true-peak sets the gains written; --remove writes none") }
        if remove, albumsBy != nil { throw ValidationError("--albums-by chooses the albums measured; --remove measures none") }
        if let jobs, jobs < 1 { throw ValidationError("-j takes at least 1 file at once, not \(jobs)") }
        if let maxTruePeak, !maxTruePeak.isFinite { throw ValidationError("--max-true-peak takes a level in dBTP, not \(maxTruePeak)") }
    }

    func run() throws {
        let leveling = LibraryLeveling(albums: albumsBy ?? .folder, action: write ? .write : remove ? .remove : .report,
                                       maxTruePeak: maxTruePeak, jobs: jobs ?? Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        let outcome = withLibraryMessagesSilenced { leveling.run(LibraryFiles(paths: paths, recursive: recursive)) }
        for failure in outcome.failures { printError(failure.description) }
        if json {
            print(try ReportJSON.text(LoudnessListing(outcome)))
        } else {
            print(LoudnessListing.text(outcome, action: leveling.action), terminator: "")
        }
        if let first = outcome.failures.first { throw ExitCode(Self.status(first).rawValue) }
    }

    static func status(_ failure: LevelingFailure) -> ExitStatus {
        switch failure.kind {
        case .cannotOpen: .noInput
        case .invalid, .unsupported: .dataError
        case .cannotWrite: .ioError
        }
    }
}
