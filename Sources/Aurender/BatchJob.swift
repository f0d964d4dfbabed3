import AudioFiles
import AudioFormats
import Dispatch
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Renders many inputs into one folder, several at a time: what `aurender -o FOLDER` does.
///
/// Inputs are files, or folders whose audio files (by extension) are taken, optionally with
/// their subfolders mirrored. Each output is named after its input, with a suffix and the
/// chosen container's extension. A batch whose outputs collide is refused before any work. A
/// failing file does not stop the others; outcomes come back in input order. Given a `Shard`,
/// the batch keeps only that share of the inputs, so several machines can split it.
public struct BatchJob: Sendable {
    /// One input and where it goes.
    /// The seconds of audio the items' inputs hold, read from their headers; nil when one cannot
    /// be opened or does not state its length.
    public static func statedSeconds(of items: [Item]) -> Double? {
        var total = 0.0
        for item in items {
            guard let file = try? FormatRegistry.standard.openDecoder(path: item.input), let frames = file.length.frames else { return nil }
            total += Double(frames) / file.format.sampleRate
        }
        return total
    }

    public struct Item: Equatable, Sendable {
        public let input: String
        public let output: String

        public init(input: String, output: String) {
            self.input = input
            self.output = output
        }
    }

    /// Which outputs that already exist are left alone.
    public enum Skipping: Sendable {
        /// None: every output is rendered.
        case none
        /// Every output that exists.
        case existing
        /// Outputs newer than their input, as make decides.
        case newer
    }

    /// What became of one item.
    public enum Outcome<Rendered: Sendable>: Sendable {
        case rendered(Rendered)
        /// Left alone by the skipping rule, for the reason given.
        case skipped(SkipReason)
        case failed(any Error)
    }

    /// Why an input was not rendered though no error stopped it.
    public enum SkipReason: Equatable, Sendable, CustomStringConvertible {
        /// Its output exists and existing outputs are left alone.
        case outputExists(String)
        /// Its output is newer than it, as make decides.
        case outputIsNewer(String)
        /// A file in an input folder whose name says it holds no audio (the folder scan goes by names).
        case notAudioFileName

        /// One clause for messages and reports: `out/a.wav exists`.
        public var description: String {
            switch self {
            case .outputExists(let output): "\(output) exists"
            case .outputIsNewer(let output): "\(output) is newer than it"
            case .notAudioFileName: "its name is not that of an audio file"
            }
        }
    }

    /// Files in the input folders left out because their names are not audio files' (`notes.txt`),
    /// in the order found, so a batch can say what it passed over.
    public let notAudioFiles: [String]
    /// The items, in input order: those of the shard, given one.
    public let items: [Item]
    /// The share of the inputs this batch renders; nil for all of them.
    public let shard: Shard?
    /// Every input of the whole batch, across every shard, in input order: what tells one
    /// batch's shares from another batch's.
    public let batchInputs: [String]
    /// How many items the whole batch holds, across every shard.
    public var totalItemCount: Int { batchInputs.count }
    /// How many items render at once.
    public var jobs: Int
    /// Which existing outputs are left alone.
    public var skipping: Skipping

    /// The batch of `inputs` (files or folders, `recursive` into subfolders) into `folder`, each
    /// output named after its input with `suffix` and, given a container, its extension; with a
    /// `shard`, only that share of them (which may be empty: there are more shards than inputs).
    /// Collisions and a batch without audio files are refused over the whole batch, so every
    /// shard refuses alike.
    public init(inputs: [String], into folder: String, recursive: Bool = false, suffix: String = "",
                container: AudioContainer? = nil, encoding: AudioEncoding? = nil, jobs: Int = 1,
                skipping: Skipping = .none, shard: Shard? = nil) throws(BatchError) {
        let naming = Naming(folder: folder, suffix: suffix, extension: container.map { Self.fileExtension($0, encoding: encoding) })
        var items: [Item] = [], relativePaths: [String] = [], passedOver: [String] = []
        for path in inputs {
            if Self.isFolder(path) {
                let scanned = Self.audioFiles(in: path, recursive: recursive)
                for relative in scanned.audio {
                    items.append(Item(input: path + "/" + relative, output: naming.output(for: relative)))
                    relativePaths.append(relative)
                }
                passedOver += scanned.other.map { path + "/" + $0 }
            } else {
                let name = path.split(separator: "/").last.map(String.init) ?? path
                items.append(Item(input: path, output: naming.output(for: name)))
                relativePaths.append(name)
            }
        }
        guard !items.isEmpty else { throw .noAudioFiles }
        var inputsByOutput: [String: [String]] = [:]
        for item in items { inputsByOutput[item.output, default: []].append(item.input) }
        if let item = items.first(where: { inputsByOutput[$0.output]!.count > 1 }) {
            throw .collision(inputs: inputsByOutput[item.output]!, output: item.output)
        }
        self.items = shard.map { $0.indices(of: relativePaths).map { items[$0] } } ?? items
        self.shard = shard
        batchInputs = items.map(\.input)
        notAudioFiles = passedOver
        self.jobs = max(1, jobs)
        self.skipping = skipping
    }

    /// A batch of `items` named elsewhere (a manifest's jobs, whose outputs differ), run as a folder
    /// batch is: `jobs` at a time, outputs left alone by `skipping`, outcomes in order.
    public init(items: [Item], jobs: Int, skipping: Skipping) {
        self.items = items
        shard = nil
        batchInputs = items.map(\.input)
        notAudioFiles = []
        self.jobs = max(1, jobs)
        self.skipping = skipping
    }

    /// Renders every item not skipped with `render`, `jobs` at a time, making output folders
    /// as needed; the outcomes are in input order.
    public func run<Rendered: Sendable>(_ render: @escaping @Sendable (Item) throws -> Rendered) -> [Outcome<Rendered>] {
        let next = Atomic(0), results = Mutex([Outcome<Rendered>?](repeating: nil, count: items.count))
        let group = DispatchGroup()
        let queue = DispatchQueue(label: "aurender.batch", attributes: .concurrent)
        for _ in 0..<min(jobs, items.count) {
            queue.async(group: group) {
                while case let index = next.wrappingAdd(1, ordering: .relaxed).oldValue, index < items.count {
                    let outcome = outcome(of: items[index], render)
                    results.withLock { $0[index] = outcome }
                }
            }
        }
        group.wait()
        return results.withLock { $0.compactMap { $0 } }
    }

    private func outcome<Rendered>(of item: Item, _ render: (Item) throws -> Rendered) -> Outcome<Rendered> {
        if let reason = skipReason(item) { return .skipped(reason) }
        if let slash = item.output.lastIndex(of: "/") {
            try? FileManager.default.createDirectory(atPath: String(item.output[..<slash]), withIntermediateDirectories: true)
        }
        do { return .rendered(try render(item)) } catch { return .failed(error) }
    }

    private func skipReason(_ item: Item) -> SkipReason? {
        var existing = stat(), input = stat()
        guard skipping != .none, stat(item.output, &existing) == 0 else { return nil }
        if skipping == .existing { return .outputExists(item.output) }
        let isNewer = stat(item.input, &input) == 0
            && (existing.st_mtim.tv_sec, existing.st_mtim.tv_nsec) > (input.st_mtim.tv_sec, input.st_mtim.tv_nsec)
        return isNewer ? .outputIsNewer(item.output) : nil
    }

    /// How outputs are named: in `folder`, with `suffix` before the extension, which is the
    /// input's unless a container gives its own.
    private struct Naming {
        let folder: String
        let suffix: String
        let `extension`: String?

        func output(for relative: String) -> String {
            var base = relative, ext = ""
            if let dot = relative.lastIndex(of: "."), !relative[dot...].contains("/") {
                base = String(relative[..<dot])
                ext = String(relative[relative.index(after: dot)...])
            }
            if let `extension` { ext = `extension` }
            return (folder.hasSuffix("/") ? folder : folder + "/") + base + suffix + (ext.isEmpty ? "" : "." + ext)
        }
    }

    /// The extension an output in `container` (with a lossy `encoding`) gets.
    static func fileExtension(_ container: AudioContainer, encoding: AudioEncoding?) -> String {
        if encoding == .opus { return "opus" }
        if encoding == .mp3 { return "mp3" }
        return AudioContainer.knownNames.first { AudioContainer.named($0)?.container == container } ?? "wav"
    }

    private static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Paths, relative to `folder`, of the files in it whose names say they hold audio (a
    /// container's extension, or that of a format the sniffer recognises, as `m4a` or `wv`),
    /// and of the other files (hidden ones aside).
    private static func audioFiles(in folder: String, recursive: Bool, prefix: String = "") -> (audio: [String], other: [String]) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder + (prefix.isEmpty ? "" : "/" + prefix)) else { return ([], []) }
        var found: (audio: [String], other: [String]) = ([], [])
        for name in names.sorted() where !name.hasPrefix(".") {
            let relative = prefix.isEmpty ? name : prefix + "/" + name
            if isFolder(folder + "/" + relative) {
                guard recursive else { continue }
                let inside = audioFiles(in: folder, recursive: true, prefix: relative)
                found.audio += inside.audio
                found.other += inside.other
            } else if FormatSniffer.isAudioFileName(name) {
                found.audio.append(relative)
            } else {
                found.other.append(relative)
            }
        }
        return found
    }
}

/// A batch could not be set up; nothing was rendered.
public enum BatchError: Error, Equatable, CustomStringConvertible {
    /// No input is or holds an audio file.
    case noAudioFiles
    /// Two or more inputs would be rendered to the same output.
    case collision(inputs: [String], output: String)
    /// A share that is not `K/N` with K from 1 to N.
    case badShard(String)

    public var description: String {
        switch self {
        case .noAudioFiles: "no audio files among the inputs"
        case .collision(let inputs, let output):
            "\(inputs.dropLast().joined(separator: ", ")) and \(inputs.last!) would \(inputs.count == 2 ? "both" : "all") "
                + "be rendered to \(output); rename them or render them separately"
        case .badShard(let text): "'\(text)' is not a shard: give K/N, the Kth of N shares, with K from 1 to N (1/4 to 4/4)"
        }
    }
}
