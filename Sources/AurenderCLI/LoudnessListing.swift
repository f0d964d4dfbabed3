import Aurender
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `aurender loudness` prints: the `--json` document (its fields are documented in
/// docs/loudness.md and stable) and the table.
struct LoudnessListing: Encodable {
    /// One track. Levels to 0.01; null where there is none (silence has no loudness or peak).
    struct Track: Encodable {
        var path: String
        var container: String
        var album: String?
        @NullWhenAbsent var integratedLUFS: Double?
        @NullWhenAbsent var loudnessRangeLU: Double?
        @NullWhenAbsent var truePeakDBTP: Double?
        @NullWhenAbsent var trackGainDB: Double?
        @NullWhenAbsent var albumGainDB: Double?
        /// The tags written (their values) or removed (null); empty when only reporting.
        var tags: [String: String?]
    }

    /// One album.
    struct Album: Encodable {
        var name: String
        var tracks: Int
        @NullWhenAbsent var integratedLUFS: Double?
        var loudnessRangeLU: Double
        @NullWhenAbsent var truePeakDBTP: Double?
        @NullWhenAbsent var gainDB: Double?
    }

    struct Failure: Encodable {
        var path: String
        var reason: String
    }

    var referenceLUFS = LevelingGains.replayGainReference
    var tracks: [Track]
    var albums: [Album]
    var failures: [Failure]
    var passedOver: [String]

    init(_ outcome: LibraryLeveling.Outcome) {
        tracks = outcome.tracks.map { track in
            Track(path: track.path, container: track.container, album: track.album.isEmpty ? nil : track.album,
                  integratedLUFS: track.integrated.map(ReportJSON.level), loudnessRangeLU: track.album.isEmpty ? nil : ReportJSON.level(track.range),
                  truePeakDBTP: Self.decibels(track.truePeak), trackGainDB: track.trackGain.map(ReportJSON.level),
                  albumGainDB: track.albumGain.map(ReportJSON.level),
                  tags: Dictionary(track.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }))
        }
        albums = outcome.albums.map { album in
            Album(name: album.name, tracks: album.trackCount, integratedLUFS: album.integrated.map(ReportJSON.level),
                  loudnessRangeLU: ReportJSON.level(album.range), truePeakDBTP: Self.decibels(album.truePeak), gainDB: album.gain.map(ReportJSON.level))
        }
        failures = outcome.failures.map { Failure(path: $0.path, reason: $0.reason) }
        passedOver = outcome.passedOver
    }

    /// A linear peak in dB to 0.01; nil for silence.
    static func decibels(_ peak: Double) -> Double? { peak > 0 ? ReportJSON.level(20 * log10(peak)) : nil }

    /// The table: a row a track, then a row an album; or, for `--remove`, the files cleared.
    static func text(_ outcome: LibraryLeveling.Outcome, action: LibraryLeveling.Action) -> String {
        if action == .remove {
            return outcome.tracks.map { "loudness tags removed: \($0.path)\n" }.joined()
        }
        func level(_ value: Double?, _ unit: String) -> String { value.map { LevelingGains.text($0, decimals: 2) + " " + unit } ?? "-" }
        var rows = [["Loudness", "Range", "True peak", "Track gain", "Album gain", "File"]]
        for track in outcome.tracks {
            rows.append([level(track.integrated, "LUFS"), level(track.range, "LU"), level(decibels(track.truePeak), "dBTP"),
                         level(track.trackGain, "dB"), level(track.albumGain, "dB"), track.path])
        }
        var text = table(rows)
        if !outcome.albums.isEmpty {
            var albumRows = [["Loudness", "Range", "True peak", "Album gain", "Tracks", "Album"]]
            for album in outcome.albums {
                albumRows.append([level(album.integrated, "LUFS"), level(album.range, "LU"), level(decibels(album.truePeak), "dBTP"),
                                  level(album.gain, "dB"), String(album.trackCount), album.name])
            }
            text += "\n" + table(albumRows)
        }
        if action == .write {
            let count = outcome.tracks.filter { !$0.fields.isEmpty }.count
            text += "\nTags written to \(count) file\(count == 1 ? "" : "s") (ReplayGain 2.0 at -18 LUFS; R128 in Opus; iTunNORM in MP3 and MP4).\n"
        }
        if !outcome.passedOver.isEmpty {
            text += "Passed over, not audio by their names: " + outcome.passedOver.joined(separator: ", ") + "\n"
        }
        return text
    }

    /// `rows` in columns, numbers right-aligned, the last column (a path) left as it is.
    static func table(_ rows: [[String]]) -> String {
        guard let width = rows.first?.count else { return "" }
        let widths = (0..<width).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == width - 1 ? cell : String(repeating: " ", count: widths[column] - cell.count) + cell
            }.joined(separator: "  ") + "\n"
        }.joined()
    }
}
