import Aurender

/// The Broadcast WAV `bext`, iXML and markers `aurender info` shows of a file, in text and in `--json`.
struct InfoChunks: Encodable {
    /// The `bext` chunk's fields (`--json`: `{"description": …, "timeReference": 158760000, "timeReferenceSeconds": 3600, …}`).
    struct Broadcast: Encodable {
        var description, originator, originatorReference, originationDate, originationTime: String
        var timeReference: UInt64
        var timeReferenceSeconds: Double
        var version: Int
        var umid: String
        var codingHistory: String
        var loudness: Loudness?

        /// Version 2's loudness fields; a field the chunk states as unknown is absent.
        struct Loudness: Encodable {
            var integratedLUFS, rangeLU, maximumTruePeakDBTP, maximumMomentaryLUFS, maximumShortTermLUFS: Double?
        }
    }

    /// One marker or region (`--json`: `{"frame": 44100, "seconds": 1, "lengthFrames": 0, "label": "Slate", "note": ""}`).
    struct MarkerInfo: Encodable {
        var frame: Int64
        var seconds: Double
        var lengthFrames: Int64
        var label: String
        var note: String
    }

    var broadcastExtension: Broadcast?
    /// The iXML chunk's text, as the file holds it.
    var ixml: String?
    var markers: [MarkerInfo]

    init(broadcastExtension: Broadcast?, ixml: String?, markers: [MarkerInfo]) {
        self.broadcastExtension = broadcastExtension
        self.ixml = ixml
        self.markers = markers
    }

    init(_ chunks: ChunkMetadata, sampleRate: Double) {
        broadcastExtension = chunks.broadcastExtension.map { bext in
            Broadcast(description: bext.description, originator: bext.originator, originatorReference: bext.originatorReference,
                      originationDate: bext.originationDate, originationTime: bext.originationTime, timeReference: bext.timeReference,
                      timeReferenceSeconds: Double(bext.timeReference) / sampleRate, version: bext.version, umid: bext.umid,
                      codingHistory: bext.codingHistory,
                      loudness: bext.loudness.map { Broadcast.Loudness(integratedLUFS: $0.integrated, rangeLU: $0.range, maximumTruePeakDBTP: $0.maximumTruePeak,
                                                                       maximumMomentaryLUFS: $0.maximumMomentary, maximumShortTermLUFS: $0.maximumShortTerm) })
        }
        ixml = chunks.ixml.map { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        markers = chunks.markers.map {
            MarkerInfo(frame: $0.frame, seconds: Double($0.frame) / sampleRate, lengthFrames: $0.length, label: $0.label, note: $0.note)
        }
    }

    /// The chunks of `path` at `sampleRate` (of standard input, a pipe or a device, those before
    /// its audio), and the damage when a chunk is damaged.
    static func read(_ path: String, sampleRate: Double) -> (chunks: InfoChunks, damage: MetadataError?) {
        if let piped = MetadataCarriage.everything(piped: path) {
            return (InfoChunks(piped.metadata.chunks, sampleRate: sampleRate), piped.chunkReadError)
        }
        let read = MetadataCarriage.chunks(of: path)
        return (InfoChunks(read?.metadata ?? ChunkMetadata(), sampleRate: sampleRate), read?.damage)
    }

    /// The text lines: `Bext        : …`, `iXML        : 412 bytes`, `Markers     : 1.000 s (frame 44100) "Slate"`; nothing without them.
    func text(sampleRate: Double) -> String {
        let indent = String(repeating: " ", count: 14)
        func block(_ title: String, _ lines: [String]) -> [String] {
            lines.enumerated().map { index, line in (index == 0 ? (title + String(repeating: " ", count: max(0, 12 - title.count))) + ": " : indent) + line }
        }
        var lines: [String] = []
        if let bext = broadcastExtension {
            var fields = [("description", bext.description), ("originator", bext.originator), ("reference", bext.originatorReference),
                          ("origination", [bext.originationDate, bext.originationTime].filter { !$0.isEmpty }.joined(separator: " "))]
                .filter { !$0.1.isEmpty }.map { "\($0.0): \($0.1)" }
            fields.append("time reference: \(bext.timeReference) frames (\(InfoCommand.formatDuration(bext.timeReferenceSeconds)))")
            if !bext.umid.isEmpty { fields.append("UMID: \(bext.umid)") }
            if let loudness = bext.loudness {
                let stated = [(loudness.integratedLUFS, "LUFS integrated"), (loudness.rangeLU, "LU range"), (loudness.maximumTruePeakDBTP, "dBTP maximum true peak"),
                              (loudness.maximumMomentaryLUFS, "LUFS maximum momentary"), (loudness.maximumShortTermLUFS, "LUFS maximum short-term")]
                    .compactMap { value, unit in value.map { "\(RenderError.format($0)) \(unit)" } }
                if !stated.isEmpty { fields.append("loudness: " + stated.joined(separator: ", ")) }
            }
            fields += bext.codingHistory.split(whereSeparator: \.isNewline).map { "coding history: \($0)" }
            lines += block("Bext", fields)
        }
        if let ixml { lines += block("iXML", ["\(ixml.utf8.count) bytes"]) }
        lines += block("Markers", markers.map { marker in
            let at = "\(RenderError.format(marker.seconds)) s (frame \(marker.frame))"
            let place = marker.lengthFrames > 0
                ? "region from \(at), \(RenderError.format(Double(marker.lengthFrames) / sampleRate)) s (\(marker.lengthFrames) frames)" : at
            return place + (marker.label.isEmpty ? "" : " \"\(marker.label)\"") + (marker.note.isEmpty ? "" : ", note \"\(marker.note)\"")
        })
        return lines.map { "\n" + $0 }.joined()
    }
}
