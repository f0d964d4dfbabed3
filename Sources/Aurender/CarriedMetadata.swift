import AudioMetadata

/// What an output holds of the metadata a render carried into it: the tag keys, the pictures, the
/// `bext` and iXML chunks and the markers, for the report (`--json`, `--report`, a batch's report).
///
/// The warnings say what was not kept and why; this says what was, so a batch's report lists per
/// file what came through without reading every output back.
public struct CarriedMetadata: Codable, Equatable, Sendable {
    /// The tag keys the output holds every value of, in the input's order.
    public var tags: [String] = []
    /// The pictures the output holds (with or without their kind and description).
    public var pictures = 0
    /// Whether the output holds the input's `bext` chunk.
    public var broadcastExtension = false
    /// Whether the output holds the input's iXML chunk.
    public var ixml = false
    /// The markers and regions the output holds, after those outside it were dropped.
    public var markers = 0

    /// Nothing carried.
    public init() {}

    /// What is left of `offered`'s tags and pictures after `tagLoss`, and of `chunks` (retimed)
    /// after `chunkLoss`.
    init(tags offered: FileMetadata, chunks: ChunkMetadata, tagLoss: MetadataLoss?, chunkLoss: ChunkLoss?) {
        if tagLoss?.holdsNone == nil {
            let lost = Set(tagLoss?.tagKeys ?? [])
            tags = offered.tags.keys.filter { !lost.contains($0) }
            pictures = offered.pictures.count - (tagLoss?.pictures ?? 0)
        }
        broadcastExtension = chunks.broadcastExtension != nil && chunkLoss?.lostBroadcastExtension != true
        ixml = chunks.ixml != nil && chunkLoss?.lostIXML != true
        markers = chunks.markers.count - (chunkLoss?.lostMarkers ?? 0)
    }

    /// Whether nothing was carried.
    public var isEmpty: Bool { tags.isEmpty && pictures == 0 && !broadcastExtension && !ixml && markers == 0 }
}
