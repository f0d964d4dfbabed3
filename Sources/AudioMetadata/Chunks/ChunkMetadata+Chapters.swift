extension ChunkMetadata {
    /// Writes the markers as ID3v2 chapters (`CHAP` frames under one top-level, ordered `CTOC`)
    /// into the finished file of `frames` frames at `rate` open for reading and writing on
    /// `descriptor`, written as `format` (an MP3's tag), keeping its other tags; then reads it back
    /// and gives what it did not keep, `bext` and iXML among it; nil when it kept everything.
    /// `path` names the output.
    ///
    /// An MP3 holds no chunks: its chapters are where a player looks for its markers.
    public func writeChapters(toDescriptor descriptor: Int32, format: TagFormat, rate: Double, frames: Int64,
                              path: String) throws(MetadataError) -> ChunkLoss? {
        var loss = ChunkLoss(path: path)
        loss.lose(broadcastExtension: broadcastExtension != nil, ixml: ixml != nil, because: "\(format.name) holds no Broadcast WAV chunk")
        if !markers.isEmpty {
            if let reason = TagLibFile.unavailability {
                loss.lose(markers: markers.count, because: reason)
            } else {
                let chapters = ChapterMarkers.chapters(of: markers, rate: rate, frames: frames)
                let kept = try TagLibFile.replaceChapters(with: chapters, descriptor: descriptor, format: format, path: path)
                loss.lose(markers: markers.count - kept, because: "the \(format.name) tag read back holds \(ChunkLoss.count(kept, "chapter"))")
            }
        }
        return loss.parts.isEmpty ? nil : loss
    }
}
