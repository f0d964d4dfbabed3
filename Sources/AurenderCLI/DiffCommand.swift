import ArgumentParser
import Aurender
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `aurender diff A B`: a null test for CI — compares two files sample by sample, or two folders
/// of renders pair by pair (`FolderComparison`, printed by `FolderDiff`), each pair by the same
/// library comparison (`RenderComparison`) and tolerances.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two audio files sample by sample (a null test), or a folder of approved renders with new ones.",
        discussion: """
            Both files are decoded to 32-bit float, so a 16-bit WAV and its FLAC compare equal. Prints \
            the largest and the RMS difference in dBFS and the first differing frame. Exits 0 when \
            every tolerance given holds (--tolerance, --rms-tolerance, --loudness-tolerance, \
            --spectrum-tolerance; with none, the samples must be identical), 1 when one does not or when \
            the rates, channel counts or lengths differ (--length-tolerance allows frames), 65/66 when a \
            file cannot be read. --json prints \
            the same findings as one JSON object, with the same exit status. --plot draws both waveforms, \
            the difference's level over time and the spectra as an SVG, whatever the verdict (files of \
            different rates or channel counts are not compared, so not drawn).

            Given two folders (APPROVED/ RENDERED/), the audio files of both are found recursively \
            and paired by their exact relative path; a file on one side only fails. Each pair passes \
            when every tolerance given holds (--tolerance, --rms-tolerance, --loudness-tolerance, \
            --spectrum-tolerance; with none, its samples must be identical) and its rates, channel \
            counts and lengths match (--length-tolerance allows frames); a file that cannot be read \
            fails its pair with its error. Prints one line per pair, in path order whatever -j; exits \
            1 when any pair fails. --junit and --report write the pairs as JUnit tests and as a page \
            with each failing pair's plot. --approve copies the failing and new renders over the \
            approved folder (each put in place whole) and, with --prune, removes approved files that \
            have no render; it exits 0 when the approved folder then matches the renders.
            """
    )

    @Argument(help: "The reference file, or the folder of approved renders.", completion: .file())
    var first: String

    @Argument(help: "The file compared with it, or the folder of new renders.", completion: .file())
    var second: String

    @Option(parsing: .unconditional,
            help: ArgumentHelp("The largest difference allowed, in dBFS: -90 or -90dB (-96 allows about half a 16-bit step).", valueName: "dB"))
    var tolerance: LevelArgument<DBFSUnit>?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("The largest RMS of the difference allowed, in dBFS.", valueName: "dB"))
    var rmsTolerance: LevelArgument<DBFSUnit>?

    @Option(help: ArgumentHelp("The largest difference of integrated loudness allowed, in LU.", valueName: "LU"))
    var loudnessTolerance: LevelArgument<LoudnessDifferenceUnit>?

    @Option(help: ArgumentHelp("The largest difference of a third-octave band's level allowed, in dB.", valueName: "dB"))
    var spectrumTolerance: LevelArgument<BandDifferenceUnit>?

    @Option(help: ArgumentHelp("The frames by which lengths may differ (default 0).", valueName: "frames"))
    var lengthTolerance: Int64?

    @Flag(help: "Print the comparison as JSON on standard output.")
    var json = false

    @Option(help: ArgumentHelp("Folders: write one JUnit test case per pair to this file.", valueName: "file.xml"),
            completion: .file(extensions: ["xml"]))
    var junit: String?

    @Option(help: ArgumentHelp("Folders: write a page of the pairs, with each failing pair's plot, to this file.", valueName: "file.html"),
            completion: .file(extensions: ["html"]))
    var report: String?

    @Option(name: .customShort("j"), help: ArgumentHelp("Folders: pairs compared at once (default: the number of cores).", valueName: "n"))
    var jobs: Int?

    @Flag(help: "Folders: copy the failing and new renders over the approved folder.")
    var approve = false

    @Flag(help: "Folders, with --approve: remove approved files that have no render.")
    var prune = false

    @Option(help: ArgumentHelp("Draw both waveforms, the difference's level over time and the spectra to this SVG file.", valueName: "file.svg"),
            completion: .file(extensions: ["svg"]))
    var plot: String?

    /// The comparison as `--json` prints it. Levels are in dBFS to 0.01, null for no difference
    /// at all; lengths, differences and the first differing frame are null when the formats differ.
    struct Report: Encodable {
        var fileA, fileB: String
        var formatA, formatB: String
        @NullWhenAbsent var framesA: Int64? = nil
        @NullWhenAbsent var framesB: Int64? = nil
        @NullWhenAbsent var maxDifference: Double? = nil
        @NullWhenAbsent var maxDifferenceDBFS: Double? = nil
        @NullWhenAbsent var rmsDifference: Double? = nil
        @NullWhenAbsent var rmsDifferenceDBFS: Double? = nil
        @NullWhenAbsent var firstDifferingFrame: Int64? = nil
        /// Present with `--loudness-tolerance`: B's integrated loudness less A's.
        var loudnessDifferenceLU: Double? = nil
        /// Present with `--spectrum-tolerance`: the largest difference of a third-octave band's level.
        var spectrumDifferenceDB: Double? = nil
        @NullWhenAbsent var toleranceDBFS: Double?
        /// `identical`, `within tolerance`, `different`, `different lengths` or `different formats`.
        var verdict: String
        /// Each tolerance that did not hold, as the folder comparison words it.
        var failures: [String]
    }

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("-j takes 1 or more pairs at once, not \(jobs)") }
        if let lengthTolerance, lengthTolerance < 0 { throw ValidationError("--length-tolerance takes 0 or more frames, not \(lengthTolerance)") }
        if prune, !approve { throw ValidationError("--prune removes approved files only with --approve") }
        if let report, !ReportPage.isPage(report) { throw ValidationError("--report writes a page: give it a name ending in .html") }
    }

    func run() throws {
        let tolerances = ComparisonTolerances(maxDifferenceDBFS: tolerance?.value, rmsDifferenceDBFS: rmsTolerance?.value,
                                              loudnessLU: loudnessTolerance?.value, spectrumDB: spectrumTolerance?.value,
                                              lengthFrames: lengthTolerance ?? 0)
        let (firstIsFolder, secondIsFolder) = (FolderComparison.isFolder(first), FolderComparison.isFolder(second))
        if firstIsFolder || secondIsFolder {
            guard firstIsFolder, secondIsFolder else {
                throw fail("\(firstIsFolder ? second : first): not a folder: give two folders, or two files", .usage)
            }
            if plot != nil { throw fail("--plot draws two files; for folders, --report draws each failing pair", .usage) }
            let commandLine = (["aurender"] + CommandLine.arguments.dropFirst()).joined(separator: " ")
            try FolderDiff(approved: first, rendered: second, tolerances: tolerances, jobs: jobs ?? Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))),
                           json: json, junit: junit, report: report, approve: approve, prune: prune, commandLine: commandLine).run()
            return
        }
        let folderOnly: [(String, Bool)] = [("--junit", junit != nil), ("--report", report != nil), ("-j", jobs != nil), ("--approve", approve)]
        if let (option, _) = folderOnly.first(where: \.1) {
            throw fail("\(option) applies to folders: give two folders (APPROVED/ RENDERED/)", .usage)
        }
        let outcome: RenderComparison.Outcome
        do {
            outcome = try withLibraryMessagesSilenced {
                try RenderComparison(tolerances: tolerances, sketching: plot != nil).compare(approved: first, rendered: second)
            }
        } catch let error as AudioFormatError {
            throw fail(error.description, ExitStatus(input: error))
        }
        let figures = outcome.figures
        var report = Report(fileA: first, fileB: second, formatA: figures.formatA, formatB: figures.formatB,
                            toleranceDBFS: tolerance.map { ReportJSON.level($0.value) }, verdict: "different formats",
                            failures: outcome.failures.map(\.description))
        if !json {
            print("A: \(first): \(figures.formatA)")
            print("B: \(second): \(figures.formatB)")
        }
        guard figures.compared else {
            if plot != nil { printError("\(plot!): not drawn: the files' rates or channel counts differ, so they are not compared") }
            try finish(report, text: "result: different formats (\(figures.formatA) vs \(figures.formatB))")
            return
        }
        let (largest, rms, firstDifference) = (figures.largest, figures.rms, figures.firstDifferingFrame)
        report.framesA = figures.framesA
        report.framesB = figures.framesB
        report.maxDifference = Double(largest)
        report.maxDifferenceDBFS = largest > 0 ? ReportJSON.level(20 * log10(Double(largest))) : nil
        report.rmsDifference = rms
        report.rmsDifferenceDBFS = rms > 0 ? ReportJSON.level(20 * log10(rms)) : nil
        report.firstDifferingFrame = firstDifference
        report.loudnessDifferenceLU = figures.loudnessDifference.map(ReportJSON.level)
        report.spectrumDifferenceDB = figures.spectrumDifference.map(ReportJSON.level)
        if let plot, let sketches = figures.sketches {
            let drawing = DiffPlot(first: (first, sketches.a), second: (second, sketches.b), difference: sketches.difference,
                                   toleranceDBFS: tolerance?.value, firstDifferingFrame: firstDifference)
            do { try OutputFile.write(text: drawing.svg, to: plot) } catch { throw fail(error.description, ExitStatus(RenderError.output(error))) }
        }
        if !json {
            print("frames: \(figures.framesA) and \(figures.framesB)")
            print("max difference: \(Self.dBFS(Double(largest)))")
            print("rms difference: \(Self.dBFS(rms))")
            if let difference = report.loudnessDifferenceLU { print("loudness difference: \(difference) LU") }
            if let difference = report.spectrumDifferenceDB { print("largest third-octave band difference: \(difference) dB") }
            print("first differing frame: \(firstDifference.map(String.init) ?? "none")")
        }
        if outcome.failures.contains(where: { if case .length = $0 { true } else { false } }) {
            report.verdict = "different lengths"
            try finish(report, text: "result: different lengths")
            return
        }
        if outcome.passed {
            report.verdict = largest == 0 ? "identical" : "within tolerance"
            let within = tolerance.map { "result: within \(Self.dBFS(pow(10, $0.value / 20)))" } ?? "result: within the tolerances"
            try finish(report, text: largest == 0 ? "result: identical" : within, passed: true)
            return
        }
        report.verdict = "different"
        let others = outcome.failures.filter { if case .maxDifference = $0 { false } else if case .notIdentical = $0 { false } else { true } }
        try finish(report, text: "result: different" + (tolerance.map { " (tolerance \(Self.dBFS(pow(10, $0.value / 20))))" } ?? "")
                   + (others.isEmpty ? "" : ": " + others.map(\.description).joined(separator: "; ")))
    }

    /// Prints the verdict (`text`, or the whole report with `--json`), then exits 1 unless the
    /// files `passed`.
    private func finish(_ report: Report, text: String, passed: Bool = false) throws {
        print(json ? try ReportJSON.text(report) : text)
        if !passed { throw ExitCode(1) }
    }

    /// A level in dBFS with one decimal, or -inf for silence.
    static func dBFS(_ value: Double) -> String {
        guard value > 0 else { return "-inf dBFS" }
        let tenths = Int((20 * log10(value) * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10) dBFS"
    }
}

/// A difference of loudness, in LU, as `--loudness-tolerance` takes it.
enum LoudnessDifferenceUnit: LevelUnit {
    static let name = "LU"
    static let range = ComparisonTolerances.loudnessRange
    static let suffixes: Set<String> = ["lu"]
}

/// A difference of level, in dB, as `--spectrum-tolerance` takes it.
enum BandDifferenceUnit: LevelUnit {
    static let name = "dB"
    static let range = ComparisonTolerances.spectrumRange
    static let suffixes: Set<String> = ["db"]
}
