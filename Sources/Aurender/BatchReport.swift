import FoundationEssentials

/// What a batch render made, for machines: `--report FILE.json` and `--json` with `-o FOLDER`.
///
/// Each rendered file has the report a single render gives; skipped and failed files name
/// their input and output, and a failure its one-line error and exit status. The report names
/// its batch (`batch`) and, for one share of it, the share (`shard`), so the reports of a
/// batch's shares can be merged into the whole batch's (`merging(_:)`) and told from another
/// batch's.
public struct BatchReport: Codable, Equatable, Sendable {
    /// What makes a batch the batch it is: the same inputs rendered as the same command asks.
    public struct Batch: Codable, Equatable, Sendable {
        /// Every input of the whole batch, across all its shares, in input order.
        public var inputs: [String]
        /// What the batch was asked to do, as the program that ran it words it (`aurender`: its
        /// arguments, less those that may differ between shares without changing an output).
        public var arguments: [String]

        public init(inputs: [String], arguments: [String]) {
            self.inputs = inputs
            self.arguments = arguments
        }
    }

    /// A file that was not rendered.
    public struct NotRendered: Codable, Equatable, Sendable {
        public var input: String
        /// Where it would have gone; nil for a file a folder scan left out by its name.
        public var output: String?
        /// Why a skipped file was skipped (`out/a.wav exists`); nil for a failure.
        public var reason: String?
        /// The error, as printed; nil for a skipped file.
        public var error: String?
        /// The exit status this failure alone would give; nil for a skipped file.
        public var exitStatus: Int32?

        /// A file skipped for `reason`, or one that failed with `error` (and `exitStatus`).
        public init(input: String, output: String?, reason: String? = nil, error: String? = nil, exitStatus: Int32? = nil) {
            self.input = input
            self.output = output
            self.reason = reason
            self.error = error
            self.exitStatus = exitStatus
        }
    }

    public var aurender: String
    /// The batch this report is of; nil in reports written before reports named their batch.
    public var batch: Batch?
    /// The share of the batch this report covers, `K/N`; nil for the whole batch.
    public var shard: String?
    public var rendered: [RenderReport]
    public var skipped: [NotRendered]
    public var failed: [NotRendered]

    public init(version: String, batch: Batch?, shard: String? = nil, rendered: [RenderReport], skipped: [NotRendered], failed: [NotRendered]) {
        aurender = version
        self.batch = batch
        self.shard = shard
        self.rendered = rendered
        self.skipped = skipped
        self.failed = failed
    }
}

/// How reports and listings are printed: pretty JSON with sorted keys, slashes unescaped.
public enum ReportJSON {
    public static func text<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// A level as reports give it: dB (or LU) to 0.01.
    public static func level(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}
