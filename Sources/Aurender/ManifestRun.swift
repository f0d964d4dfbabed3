import AudioFormats
import FoundationEssentials

/// What became of one manifest line: one JSON line of `aurender batch --results`.
///
/// The rows come in the manifest's order, one for every line that holds something (of the
/// shard, given one), so an engine can join them back to its table by `line` or by `output`.
public struct ManifestResult: Codable, Equatable, Sendable {
    /// Rendered, left alone, or failed.
    public enum Status: String, Codable, Sendable {
        case rendered, skipped, failed
    }

    /// The manifest line, from 1.
    public var line: Int
    public var input: String?
    public var output: String?
    public var status: Status
    /// The exit status the job alone would have ended with: 0 when rendered or skipped.
    public var exitStatus: Int32
    /// The one-line error of a failed job; why a skipped one was left alone.
    public var error: String?
    public var skipReason: String?
    /// What was written (rendered jobs).
    public var frames: Int64?
    public var durationSeconds: Double?
    /// The output's integrated loudness (LUFS) and true peak (dBTP), to 0.01, when asked for
    /// and the output is not silent.
    public var integratedLUFS: Double?
    public var truePeakDBTP: Double?
    /// The wall-clock seconds the job took, to 0.0001 (0 for a job that failed).
    public var seconds: Double

    public init(line: Int, input: String? = nil, output: String? = nil, status: Status, exitStatus: Int32, error: String? = nil,
                skipReason: String? = nil, frames: Int64? = nil, durationSeconds: Double? = nil, integratedLUFS: Double? = nil,
                truePeakDBTP: Double? = nil, seconds: Double) {
        self.line = line
        self.input = input
        self.output = output
        self.status = status
        self.exitStatus = exitStatus
        self.error = error
        self.skipReason = skipReason
        self.frames = frames
        self.durationSeconds = durationSeconds
        self.integratedLUFS = integratedLUFS
        self.truePeakDBTP = truePeakDBTP
        self.seconds = seconds
    }

    /// The row as one line of JSON, keys sorted.
    public var jsonLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }
}

extension JobManifest {
    /// Renders `entries` (a manifest's, or a shard's of them) `jobs` at a time through
    /// `BatchJob`, with `render` rendering one job and returning the frames and seconds of audio
    /// it wrote; `describe` turns an error into its one-line message and exit status. Lines that
    /// are no job fail without running; outputs left alone by `skipping` are skipped. With
    /// `measuringLoudness`, each written output is read back and measured. Rows in entry order.
    public static func run(_ entries: [Entry], jobs: Int, skipping: BatchJob.Skipping, measuringLoudness: Bool,
                           render: @escaping @Sendable (ManifestJob) throws -> (frames: Int64, durationSeconds: Double),
                           describe: (any Error) -> (message: String, exitStatus: Int32)) -> [ManifestResult] {
        let runnable = entries.compactMap { try? $0.job.get() }
        let jobsByOutput = Dictionary(uniqueKeysWithValues: runnable.map { ($0.output, $0) })
        let batch = BatchJob(items: runnable.map { BatchJob.Item(input: $0.input, output: $0.output) }, jobs: jobs, skipping: skipping)
        let outcomes = batch.run { item -> Rendered in
            let started = RenderReport.now()
            let written = try render(jobsByOutput[item.output]!)
            let loudness = measuringLoudness ? try measure(item.output) : nil
            return Rendered(frames: written.frames, durationSeconds: written.durationSeconds, loudness: loudness,
                            seconds: ((RenderReport.now() - started) * 10000).rounded() / 10000)
        }
        var remaining = outcomes[...]
        return entries.map { entry in
            var row = ManifestResult(line: entry.line, status: .failed, exitStatus: 0, seconds: 0)
            guard case .success(let job) = entry.job else {
                if case .failure(let error) = entry.job { (row.error, row.exitStatus) = describe(error) }
                return row
            }
            (row.input, row.output) = (job.input, job.output)
            switch remaining.popFirst()! {
            case .rendered(let rendered):
                row.status = .rendered
                (row.frames, row.durationSeconds, row.seconds) = (rendered.frames, rendered.durationSeconds, rendered.seconds)
                row.integratedLUFS = rendered.loudness?.integrated.map(ReportJSON.level)
                row.truePeakDBTP = rendered.loudness?.truePeak.map(ReportJSON.level)
            case .skipped(let reason):
                row.status = .skipped
                row.skipReason = reason.description
            case .failed(let error):
                (row.error, row.exitStatus) = describe(error)
            }
            return row
        }
    }

    /// One job's render as the run keeps it.
    private struct Rendered: Sendable {
        let frames: Int64
        let durationSeconds: Double
        let loudness: LoudnessMeasurement?
        let seconds: Double
    }

    private static func measure(_ output: String) throws -> LoudnessMeasurement {
        try LoudnessScan.measure(try FormatRegistry.standard.openDecoder(path: output))
    }
}

extension ManifestJob {
    /// The render of a graph job: its graph file, whose one `file` node reads this job's input and
    /// whose output node writes its output. The graph's own other paths stay confined to its
    /// folder; the job's input and output, named by the manifest, are allowed where they are.
    public func graphJob(settings: RenderSettings, presets: PresetLookup) throws -> GraphJob {
        guard case .graph(let path) = processing else { throw ManifestError(line: nil, reason: "not a graph job") }
        var description = try GraphDescription.load(path: path)
        let files = description.nodes.indices.filter { description.nodes[$0].type == "file" }
        let outputs = description.nodes.indices.filter { description.nodes[$0].type == "output" }
        guard files.count == 1, outputs.count == 1 else {
            throw ManifestError(line: nil, reason: "\(path): a manifest's graph needs one file node and one output node, "
                                + "which read the job's input and write its output; it has \(files.count) and \(outputs.count)")
        }
        let input = Self.absolute(self.input), output = Self.absolute(self.output)
        description.nodes[files[0]].fields["path"] = .text(input)
        description.nodes[outputs[0]].fields["path"] = .text(output)
        return GraphJob(description: description, folder: Self.folder(of: path), allowing: [Self.folder(of: input), Self.folder(of: output)],
                        options: settings, presets: presets)
    }

    private static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    private static func folder(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
    }
}
