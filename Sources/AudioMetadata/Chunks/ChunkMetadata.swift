#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a file carries in chunks of its own beside its tags: Broadcast WAV's `bext`, iXML and
/// markers. Read from WAV, RF64/BW64, Wave64 and AIFF files by a chunk parser, since
/// libsndfile reads no labels nor regions and TagLib none of these.
public struct ChunkMetadata: Equatable, Sendable {
    /// The `bext` chunk, if the file has one.
    public var broadcastExtension: BroadcastExtension?
    /// The `iXML` chunk's bytes, carried verbatim.
    public var ixml: [UInt8]?
    /// The markers and regions, in the order of their positions, in frames at the file's rate.
    public var markers: [Marker]

    /// Nothing: no `bext`, no iXML, no marker.
    public init(broadcastExtension: BroadcastExtension? = nil, ixml: [UInt8]? = nil, markers: [Marker] = []) {
        self.broadcastExtension = broadcastExtension
        self.ixml = ixml
        self.markers = markers
    }

    /// Whether there is nothing to carry.
    public var isEmpty: Bool { broadcastExtension == nil && ixml == nil && markers.isEmpty }

    /// The chunks of the file at `path`, opened read-only; nothing for a file of another format.
    /// A damaged chunk is left out and named in the error, the others kept.
    public static func read(path: String) -> (metadata: ChunkMetadata, damage: MetadataError?) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return (ChunkMetadata(), nil) }
        defer { close(descriptor) }
        guard let file = ChunkFile(descriptor: descriptor) else { return (ChunkMetadata(), nil) }
        var metadata = ChunkMetadata()
        var damage: [String] = []
        if let cut = file.cutShort, ["bext", "iXML", "cue ", "LIST", "MARK"].contains(cut) {
            damage.append("the \(cut.trimmingTrailingSpaces) chunk runs past the file's end")
        }
        if let bext = file.body(of: "bext") {
            metadata.broadcastExtension = BroadcastExtension(bytes: bext)
            if metadata.broadcastExtension == nil {
                damage.append("the bext chunk holds \(bext.count) bytes, fewer than the \(BroadcastExtension.fixedSize) of its fields")
            }
        }
        metadata.ixml = file.body(of: "iXML")
        do throws(MarkerChunks.Damage) {
            if file.layout == .aiff {
                metadata.markers = try file.body(of: "MARK").map(MarkerChunks.aiff) ?? []
            } else if let cue = file.body(of: "cue ") {
                let labels = file.chunks.filter { $0.id == "LIST" }.map(file.body).first { $0.starts(with: Array("adtl".utf8)) }
                metadata.markers = try MarkerChunks.wave(cue: cue, labels: labels)
            }
        } catch {
            damage.append(error.reason)
        }
        let error = damage.isEmpty ? nil
            : MetadataError(path: path, kind: .damaged, reason: "markers and Broadcast WAV chunks not all read: " + damage.joined(separator: "; "))
        return (metadata, error)
    }

    /// Appends the chunks to the finished file open for reading and writing on `descriptor`, as
    /// its layout holds them, and gives what it could not hold (`formatName` says whose it is);
    /// nil when it kept everything. `path` names the output.
    public func write(toDescriptor descriptor: Int32, path: String, formatName: String) throws(MetadataError) -> ChunkLoss? {
        guard !isEmpty else { return nil }
        guard var file = ChunkFile(descriptor: descriptor) else { return ChunkLoss(path: path, dropping: self, formatName: formatName) }
        var chunks: [(id: String, body: [UInt8])] = []
        var loss = ChunkLoss(path: path)
        if file.layout == .aiff {
            loss.lose(broadcastExtension: broadcastExtension != nil, ixml: ixml != nil, because: "\(formatName) holds no Broadcast WAV chunk")
            if !markers.isEmpty { chunks.append(("MARK", MarkerChunks.aiff(markers))) }
            let regions = markers.filter(\.isRegion).count
            if regions > 0 { loss.parts.append("\(ChunkLoss.count(regions, "region")) kept as \(regions == 1 ? "a point" : "points"): \(formatName) markers have no length") }
        } else {
            if let broadcastExtension { chunks.append(("bext", broadcastExtension.bytes)) }
            if let ixml { chunks.append(("iXML", ixml)) }
            if !markers.isEmpty {
                if file.layout == .wave64 {
                    loss.lose(markers: markers.count, because: "aurender writes no markers into \(formatName) files")
                } else {
                    let (cue, labels) = MarkerChunks.wave(markers)
                    chunks.append(("cue ", cue))
                    if let labels { chunks.append(("LIST", labels)) }
                }
            }
        }
        if !chunks.isEmpty, let failure = file.append(chunks) {
            throw MetadataError(path: path, kind: .writeFailed, reason: "markers and Broadcast WAV chunks not written: " + failure)
        }
        return loss.parts.isEmpty ? nil : loss
    }
}

/// What of a file's `bext`, iXML and markers an output did not keep, said in one warning line.
public struct ChunkLoss: Equatable, Sendable, CustomStringConvertible {
    /// The output, as named.
    public let path: String
    /// What was not kept, and why: `bext and iXML not kept: FLAC holds no Broadcast WAV chunk`.
    public var parts: [String] = []
    /// Whether the `bext` chunk was not kept.
    public private(set) var lostBroadcastExtension = false
    /// Whether the iXML chunk was not kept.
    public private(set) var lostIXML = false
    /// How many markers were not kept (regions kept as points are kept).
    public private(set) var lostMarkers = 0

    init(path: String) { self.path = path }

    /// Everything in `metadata` lost, to an output of `formatName` that holds none of it.
    public init(path: String, dropping metadata: ChunkMetadata, formatName: String) {
        self.path = path
        lose(broadcastExtension: metadata.broadcastExtension != nil, ixml: metadata.ixml != nil,
             because: "\(formatName) holds no Broadcast WAV chunk")
        lose(markers: metadata.markers.count, because: "\(formatName) holds no markers aurender writes")
    }

    /// Everything in `metadata` lost, to an output that is a pipe or a device.
    public init(path: String, dropping metadata: ChunkMetadata, because reason: String) {
        self.path = path
        let names = [metadata.broadcastExtension.map { _ in "bext" }, metadata.ixml.map { _ in "iXML" },
                     metadata.markers.isEmpty ? nil : "markers"].compactMap { $0 }
        parts = [Self.list(names) + " not kept: " + reason]
        lostBroadcastExtension = metadata.broadcastExtension != nil
        lostIXML = metadata.ixml != nil
        lostMarkers = metadata.markers.count
    }

    mutating func lose(broadcastExtension: Bool, ixml: Bool, because reason: String) {
        let names = [broadcastExtension ? "bext" : nil, ixml ? "iXML" : nil].compactMap { $0 }
        if !names.isEmpty { parts.append(Self.list(names) + " not kept: " + reason) }
        lostBroadcastExtension = lostBroadcastExtension || broadcastExtension
        lostIXML = lostIXML || ixml
    }

    mutating func lose(markers: Int, because reason: String) {
        guard markers > 0 else { return }
        parts.append("\(Self.count(markers, "marker")) not kept: " + reason)
        lostMarkers += markers
    }

    /// `out.flac: bext and iXML not kept: FLAC holds no Broadcast WAV chunk; 2 markers not kept: …`.
    public var description: String { "\(path): " + parts.joined(separator: "; ") }

    static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    private static func list(_ names: [String]) -> String {
        names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names.last!
    }
}
