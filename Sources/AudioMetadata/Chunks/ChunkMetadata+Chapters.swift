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

extension ChunkMetadata {
    /// What an output of `frames` frames whose encoder wrote the markers (those in it) as chapters
    /// (an MPEG-4 file's, by its muxer, each running on to the next) did not keep: `bext` and
    /// iXML, which `formatName` holds none of, the ends of regions that stop before the next
    /// marker, and the notes, as its chapters hold a title only; nil when it kept everything.
    /// `path` names the output.
    public func lossAsChapters(frames: Int64, path: String, formatName: String) -> ChunkLoss? {
        var loss = ChunkLoss(path: path)
        loss.lose(broadcastExtension: broadcastExtension != nil, ixml: ixml != nil, because: "\(formatName) holds no Broadcast WAV chunk")
        let written = markers.sorted { $0.frame < $1.frame }
        let cut = zip(written, written.dropFirst().map(\.frame) + [frames]).filter { $0.isRegion && $0.frame + $0.length != $1 }.count
        if cut > 0 { loss.parts.append("\(ChunkLoss.count(cut, "region end")) not kept: \(formatName) chapters run on to the next one") }
        let notes = written.filter { !$0.note.isEmpty }.count
        if notes > 0 { loss.parts.append("\(ChunkLoss.count(notes, "marker note")) not kept: \(formatName) chapters hold a title only") }
        return loss.parts.isEmpty ? nil : loss
    }

    /// What a FLAC output of `frames` frames whose encoder wrote the markers as a `CUESHEET`
    /// block (a track starting at each, before the end, at most `trackLimit`, each running on to
    /// the next) did not keep: `bext` and iXML, the markers past the limit or at the end, the
    /// ends of regions that stop before the next marker, and the labels and notes, as a cue sheet
    /// holds no text; nil when it kept everything. `path` names the output.
    public func lossAsCueSheet(frames: Int64, trackLimit: Int, path: String) -> ChunkLoss? {
        var loss = ChunkLoss(path: path)
        loss.lose(broadcastExtension: broadcastExtension != nil, ixml: ixml != nil, because: "FLAC holds no Broadcast WAV chunk")
        let sorted = markers.sorted { $0.frame < $1.frame }
        loss.lose(markers: sorted.filter { $0.frame >= frames }.count, because: "a FLAC cue sheet track starts before the end")
        let written = Array(sorted.filter { $0.frame < frames }.prefix(trackLimit))
        loss.lose(markers: sorted.filter { $0.frame < frames }.count - written.count, because: "a FLAC cue sheet holds at most \(trackLimit) tracks")
        let cut = zip(written, written.dropFirst().map(\.frame) + [frames]).filter { $0.isRegion && $0.frame + $0.length != $1 }.count
        if cut > 0 { loss.parts.append("\(ChunkLoss.count(cut, "region end")) not kept: FLAC cue sheet tracks run on to the next one") }
        let texts = [(written.filter { !$0.label.isEmpty }.count, "marker label"), (written.filter { !$0.note.isEmpty }.count, "marker note")]
        for (count, noun) in texts where count > 0 { loss.parts.append("\(ChunkLoss.count(count, noun)) not kept: a FLAC cue sheet holds no text") }
        return loss.parts.isEmpty ? nil : loss
    }
}
