extension BatchReport {
    /// One share's report, with the name it goes by in messages (its file's path).
    public struct Share: Sendable {
        public var name: String
        public var report: BatchReport

        public init(name: String, report: BatchReport) {
            self.name = name
            self.report = report
        }
    }

    /// The report of the whole batch, made from the reports of all its shares: what one machine
    /// rendering the batch alone would have reported, apart from the timings.
    ///
    /// The shares must be of one batch (the same inputs, arguments and version) and each share
    /// of it given once; every input of the batch must be in exactly one share's report. Files
    /// that no share rendered because of their names are listed once. Entries come in the
    /// batch's input order, as an unshared batch lists them.
    public static func merging(_ shares: [Share]) throws(BatchReportMergeError) -> BatchReport {
        guard let first = shares.first else { throw .nothingToMerge }
        guard let batch = first.report.batch else { throw .namesNoBatch(first.name) }
        var shareCount: Int?
        var reportOfShare: [Int: String] = [:]
        for share in shares {
            guard let named = share.report.batch else { throw .namesNoBatch(share.name) }
            guard let text = share.report.shard, let shard = try? BatchJob.Shard(parsing: text) else { throw .wholeBatch(share.name) }
            let count = shareCount ?? shard.count
            let difference = share.report.aurender != first.report.aurender
                ? "made by aurender \(share.report.aurender), not \(first.report.aurender)"
                : named.inputs != batch.inputs ? "its inputs differ"
                : named.arguments != batch.arguments ? "its options differ"
                : shard.count != count ? "a share of \(shard.count), not of \(count)" : nil
            if let difference { throw .differentBatch(share.name, first.name, difference) }
            if let other = reportOfShare[shard.number] { throw .shareTwice(share.name, other, text) }
            shareCount = count
            reportOfShare[shard.number] = share.name
        }
        let missing = (1...shareCount!).filter { reportOfShare[$0] == nil }.map { "\($0)/\(shareCount!)" }
        if !missing.isEmpty { throw .missingShares(missing, given: shares.map(\.name)) }
        return try combine(shares, of: batch, version: first.report.aurender)
    }

    /// The shares' entries in the batch's input order, each input accounted for exactly once.
    private static func combine(_ shares: [Share], of batch: Batch, version: String) throws(BatchReportMergeError) -> BatchReport {
        enum Entry {
            case rendered(RenderReport)
            case skipped(NotRendered)
            case failed(NotRendered)
        }
        var position: [String: Int] = [:]
        for (index, input) in batch.inputs.enumerated() { position[input] = index }
        var placed: [Int: (entry: Entry, report: String)] = [:]
        var passedOver: [NotRendered] = []
        for share in shares {
            let report = share.report
            let entries = report.rendered.map { ($0.inputs.first ?? "", Entry.rendered($0)) }
                + report.skipped.filter { $0.output != nil }.map { ($0.input, Entry.skipped($0)) }
                + report.failed.map { ($0.input, Entry.failed($0)) }
            for (input, entry) in entries {
                guard let index = position[input] else { throw .notInTheBatch(share.name, input) }
                if let other = placed[index] { throw .inputTwice(share.name, input, other.report) }
                placed[index] = (entry, share.name)
            }
            for file in report.skipped where file.output == nil && !passedOver.contains(file) { passedOver.append(file) }
        }
        if let index = batch.inputs.indices.first(where: { placed[$0] == nil }) { throw .inputInNoShare(batch.inputs[index]) }
        var merged = BatchReport(version: version, batch: batch, rendered: [], skipped: passedOver, failed: [])
        for index in batch.inputs.indices {
            switch placed[index]!.entry {
            case .rendered(let report): merged.rendered.append(report)
            case .skipped(let file): merged.skipped.append(file)
            case .failed(let file): merged.failed.append(file)
            }
        }
        return merged
    }
}

/// Why the reports of shares could not be merged into one batch's report.
public enum BatchReportMergeError: Error, Equatable, CustomStringConvertible {
    /// No report was given.
    case nothingToMerge
    /// The report names no batch: it is not a batch's, or an older version wrote it.
    case namesNoBatch(String)
    /// The report covers a whole batch, not one share of it.
    case wholeBatch(String)
    /// The first report is of another batch than the second, for the reason given.
    case differentBatch(String, String, String)
    /// Both reports are of the same share.
    case shareTwice(String, String, String)
    /// No report of these shares was given among those named.
    case missingShares([String], given: [String])
    /// The report lists an input that is not the batch's.
    case notInTheBatch(String, String)
    /// The report lists an input another report lists too.
    case inputTwice(String, String, String)
    /// No report lists this input of the batch.
    case inputInNoShare(String)

    public var description: String {
        switch self {
        case .nothingToMerge: "no report to merge"
        case .namesNoBatch(let report): "\(report): names no batch: not a batch's report, or one an older aurender wrote"
        case .wholeBatch(let report): "\(report): the report of a whole batch, not of one share of it"
        case .differentBatch(let report, let other, let reason): "\(report): not a share of the same batch as \(other): \(reason)"
        case .shareTwice(let report, let other, let shard): "\(report): share \(shard) again (\(other) is of it too)"
        case .missingShares(let shards, let given):
            "\(given.joined(separator: ", ")): no report of share\(shards.count == 1 ? "" : "s") \(shards.joined(separator: ", ")) among them"
        case .notInTheBatch(let report, let input): "\(report): \(input) is not one of the batch's inputs"
        case .inputTwice(let report, let input, let other): "\(report): \(input) is in \(other) too"
        case .inputInNoShare(let input): "\(input): one of the batch's inputs, in no share's report"
        }
    }
}
