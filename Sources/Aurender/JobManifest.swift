import AudioNodes
import FoundationEssentials

/// A table of render jobs, one JSON object a line: what `aurender batch JOBS.jsonl` reads.
///
/// Engines that fan work out (Ray Data, Dask, Spark, job arrays) hand a tool rows of a table;
/// each row here is one render, independent of the others, so any share of the lines renders
/// the same bytes on any machine. A line that cannot be a job (not JSON, an unknown key, no
/// input) becomes a failed entry naming its line number, and the other lines still run.
public struct JobManifest: Sendable {
    /// One line of the manifest that holds something (blank lines are passed over).
    public struct Entry: Sendable {
        /// The line's number in the file, from 1.
        public let line: Int
        /// The job it states, or why it states none.
        public let job: Result<ManifestJob, ManifestError>
    }

    /// The lines that hold something, in file order.
    public let entries: [Entry]

    /// Reads the manifest at `path` (see `init(text:)`).
    public init(path: String) throws(RenderError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .input(AudioFormatError(path: path, kind: .cannotOpen, reason: "cannot read the manifest"))
        }
        self.init(text: String(decoding: data, as: UTF8.self))
    }

    /// The manifest whose lines are `text`'s (LF or CRLF). An output named by two lines makes
    /// the later line fail, so no two jobs race to one file.
    public init(text: String) {
        var entries: [Entry] = [], firstLineByOutput: [String: Int] = [:]
        // CRLF is one Character, a newline as LF is.
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            guard line.contains(where: { !$0.isWhitespace }) else { continue }
            var job = ManifestJob.parse(String(line), line: index + 1)
            if case .success(let parsed) = job {
                if let first = firstLineByOutput[parsed.output] {
                    job = .failure(ManifestError(line: index + 1, reason: "output \(parsed.output) is also line \(first)'s output"))
                } else {
                    firstLineByOutput[parsed.output] = index + 1
                }
            }
            entries.append(Entry(line: index + 1, job: job))
        }
        self.entries = entries
    }

    /// The entries in `shard`'s share: the Kth, the K+Nth and so on, in manifest order, so
    /// machines given the same manifest and shares of it render each line once.
    public func entries(in shard: BatchJob.Shard?) -> [Entry] {
        guard let shard else { return entries }
        return shard.indices(count: entries.count).map { entries[$0] }
    }
}

/// One render a manifest line asks for: an input, an output and how to render it.
public struct ManifestJob: Equatable, Sendable {
    /// How the job is rendered.
    public enum Processing: Equatable, Sendable {
        /// The render command's options, long names without dashes, and a `chain` string if given.
        case options([String: SettingValue], chain: String?)
        /// A graph file whose one `file` node reads the input and whose output node writes the output.
        case graph(String)
    }

    /// The keys a line may hold.
    public static let keys: Set<String> = ["input", "output", "options", "chain", "graph"]
    /// Render options a job may not give: they belong to the batch, or to reports the result line replaces.
    public static let batchOptions: Set<String> = [
        "output-folder", "o", "shard", "j", "jobs", "recursive", "r", "suffix", "skip-existing", "newer",
        "report", "json", "junit", "dry-run", "plan", "verbose", "v", "quiet", "q", "progress",
    ]

    public let input: String
    public let output: String
    public let processing: Processing

    public init(input: String, output: String, processing: Processing) {
        self.input = input
        self.output = output
        self.processing = processing
    }

    /// The job on line `line`, or why there is none.
    public static func parse(_ text: String, line: Int) -> Result<ManifestJob, ManifestError> {
        func failure(_ reason: String) -> Result<ManifestJob, ManifestError> { .failure(ManifestError(line: line, reason: reason)) }
        guard let object = try? JSONDecoder().decode(SettingValue.self, from: Data(text.utf8)) else { return failure("not valid JSON") }
        guard case .object(let fields) = object else { return failure("not a JSON object (a job is {\"input\": ..., \"output\": ...})") }
        if let key = fields.keys.sorted().first(where: { !keys.contains($0) }) {
            return failure("unknown key '\(key)' (a job has \(keys.sorted().joined(separator: ", ")); render options go in \"options\")")
        }
        func field(_ key: String) -> Result<String?, ManifestError> {
            switch fields[key] {
            case nil: .success(nil)
            case .text(let value)? where !value.isEmpty: .success(value)
            case let value?: .failure(ManifestError(line: line, reason: "'\(key)' must be a non-empty text, not \(value.kindName)"))
            }
        }
        let input: String?, output: String?, chain: String?, graph: String?
        do {
            input = try field("input").get()
            output = try field("output").get()
            chain = try field("chain").get()
            graph = try field("graph").get()
        } catch { return .failure(error) }
        guard let input else { return failure("missing 'input'") }
        guard let output else { return failure("missing 'output'") }
        if let graph {
            if fields["options"] != nil || chain != nil { return failure("'graph' states the whole processing; give no 'options' or 'chain' beside it") }
            return .success(ManifestJob(input: input, output: output, processing: .graph(graph)))
        }
        var options: [String: SettingValue] = [:]
        switch fields["options"] {
        case nil: break
        case .object(let given)?: options = given
        case let value?: return failure("'options' must be an object of render options, not \(value.kindName)")
        }
        if let name = options.keys.sorted().first(where: { batchOptions.contains($0) }) {
            return failure("option '\(name)' belongs to the batch, not to one job")
        }
        return .success(ManifestJob(input: input, output: output, processing: .options(options, chain: chain)))
    }
}

/// Why a manifest line is no job, or why a job could not be set up.
public struct ManifestError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The line's number, when the error is about the line as written.
    public let line: Int?
    public let reason: String

    public init(line: Int?, reason: String) {
        self.line = line
        self.reason = reason
    }

    /// `line 4: missing 'input'`.
    public var description: String { line.map { "line \($0): \(reason)" } ?? reason }
}
