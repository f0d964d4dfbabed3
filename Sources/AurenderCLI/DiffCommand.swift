import ArgumentParser
import Aurender
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `aurender diff A B`: a null test for CI — compares two files sample by sample (`NullTest`).
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two audio files sample by sample (a null test).",
        discussion: """
            Both files are decoded to 32-bit float, so a 16-bit WAV and its FLAC compare equal. Prints \
            the largest and the RMS difference in dBFS and the first differing frame. Exits 0 when the \
            largest difference is within --tolerance (default: none at all), 1 when it is not or when \
            the rates, channel counts or lengths differ, 65/66 when a file cannot be read. --json prints \
            the same findings as one JSON object, with the same exit status. --plot draws both waveforms, \
            the difference's level over time and the spectra as an SVG, whatever the verdict (files of \
            different rates or channel counts are not compared, so not drawn).
            """
    )

    @Argument(help: "The reference file.", completion: .file())
    var first: String

    @Argument(help: "The file compared with it.", completion: .file())
    var second: String

    @Option(parsing: .unconditional,
            help: ArgumentHelp("The largest difference allowed, in dBFS: -90 or -90dB (-96 allows about half a 16-bit step).", valueName: "dB"))
    var tolerance: LevelArgument<DBFSUnit>?

    @Flag(help: "Print the comparison as JSON on standard output.")
    var json = false

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
        @NullWhenAbsent var toleranceDBFS: Double?
        /// `identical`, `within tolerance`, `different`, `different lengths` or `different formats`.
        var verdict: String
    }

    func run() throws {
        let test: NullTest
        do { test = try withLibraryMessagesSilenced { try NullTest(first, second) } } catch let error as AudioFormatError {
            throw fail(error.description, ExitStatus(input: error))
        }
        let (a, b) = (test.a, test.b)
        var report = Report(fileA: first, fileB: second, formatA: "\(a.format.canonical)", formatB: "\(b.format.canonical)",
                            toleranceDBFS: tolerance.map { ReportJSON.level($0.value) }, verdict: "different formats")
        if !json {
            print("A: \(first): \(a.format.canonical)")
            print("B: \(second): \(b.format.canonical)")
        }
        if !test.formatsMatch {
            if plot != nil { printError("\(plot!): not drawn: the files' rates or channel counts differ, so they are not compared") }
            try finish(report, text: "result: different formats (\(a.format.canonical) vs \(b.format.canonical))")
        }
        let outcome: NullTest.Outcome
        do { outcome = try withLibraryMessagesSilenced { try test.compare(sketching: plot != nil) } } catch let error as AudioFormatError {
            throw fail(error.description, ExitStatus(input: error))
        }
        let (lengthA, lengthB, largest, rms, firstDifference) = (outcome.framesA, outcome.framesB, outcome.largest, outcome.rms, outcome.firstDifferingFrame)
        report.framesA = lengthA
        report.framesB = lengthB
        report.maxDifference = Double(largest)
        report.maxDifferenceDBFS = largest > 0 ? ReportJSON.level(20 * log10(Double(largest))) : nil
        report.rmsDifference = rms
        report.rmsDifferenceDBFS = rms > 0 ? ReportJSON.level(20 * log10(rms)) : nil
        report.firstDifferingFrame = firstDifference
        if let plot, let sketches = outcome.sketches {
            let drawing = DiffPlot(first: (first, sketches.a), second: (second, sketches.b), difference: sketches.difference,
                                   toleranceDBFS: tolerance?.value, firstDifferingFrame: firstDifference)
            do { try OutputFile.write(text: drawing.svg, to: plot) } catch { throw fail(error.description, ExitStatus(RenderError.output(error))) }
        }
        if !json {
            print("frames: \(lengthA) and \(lengthB)")
            print("max difference: \(Self.dBFS(Double(largest)))")
            print("rms difference: \(Self.dBFS(rms))")
            print("first differing frame: \(firstDifference.map(String.init) ?? "none")")
        }
        if lengthA != lengthB {
            report.verdict = "different lengths"
            try finish(report, text: "result: different lengths")
        }
        let limit = tolerance.map { pow(10, $0.value / 20) } ?? 0
        if Double(largest) <= limit {
            report.verdict = largest == 0 ? "identical" : "within tolerance"
            try finish(report, text: largest == 0 ? "result: identical" : "result: within \(Self.dBFS(limit))", passed: true)
            return
        }
        report.verdict = "different"
        try finish(report, text: "result: different" + (tolerance.map { " (tolerance \(Self.dBFS(pow(10, $0.value / 20))))" } ?? ""))
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
