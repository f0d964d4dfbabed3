import AudioGraph
import AudioDSP
import FoundationEssentials

/// Finds presets: the built-in iPod presets, user preset folders, and preset files.
public enum EQPresetLibrary {
    /// The presets built into aurender, embedded from `presets/*.tsv` when it was built; a table
    /// that does not parse is this error wherever a preset is looked for, never fewer presets.
    public static var builtIn: [EQPreset] {
        get throws(PresetError) { try embedded.get() }
    }

    private static let embedded = Result { () throws(PresetError) in try builtIn(from: embeddedPresetTables) }

    /// The presets of `tables` (file names and texts), in order; the first table that does not
    /// parse is the error.
    public static func builtIn(from tables: [(file: String, text: String)]) throws(PresetError) -> [EQPreset] {
        var presets: [EQPreset] = []
        for table in tables { presets += try parseTable(table.text, source: table.file) }
        return presets
    }

    /// Parses a tab-separated preset table: `#` comment lines, a header `name<TAB>f1<TAB>f2…`
    /// of band centres in Hz (Q = √2), optionally ending in an `aliases` column, then one line per
    /// preset: name, one gain per band and, with that column, other names separated by commas.
    ///
    /// Lines and fields are split on the UTF-8 bytes of newline and tab, which never occur inside
    /// a multi-byte character, and trimmed of ASCII white space (a CRLF line's return too): the
    /// built-in table is read at every start, and splitting it by `Character` cost a render as much
    /// as the rest of its start-up's own work.
    public static func parseTable(_ text: String, source: String) throws(PresetError) -> [EQPreset] {
        var frequencies: [Double]?
        var hasAliases = false
        var presets: [EQPreset] = []
        for (number, rawLine) in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let line = trimmed(rawLine)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = rawLine.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false).map(trimmed)
            guard let bandFrequencies = frequencies else {
                hasAliases = fields.count > 2 && fields.last?.lowercased() == "aliases"
                let centres = fields.dropFirst().dropLast(hasAliases ? 1 : 0)
                let parsed = centres.compactMap { Double($0) }
                guard fields.first?.lowercased() == "name", parsed.count == centres.count, !parsed.isEmpty,
                      parsed.allSatisfy({ $0 > 0 }) else {
                    throw PresetError(source: source, field: "line \(number + 1)",
                                      problem: "the header must be 'name' then the band centres in Hz, tab-separated, then optionally 'aliases'")
                }
                frequencies = parsed
                continue
            }
            let bandCount = bandFrequencies.count
            let aliasField = hasAliases && fields.count == bandCount + 2 ? fields.last : nil
            let gains = fields.dropFirst().prefix(bandCount).map { Double($0) }
            guard fields.count == bandCount + 1 || aliasField != nil, let name = fields.first, !name.isEmpty,
                  gains.allSatisfy({ $0 != nil }) else {
                throw PresetError(source: source, field: "line \(number + 1)",
                                  problem: "expected a name and \(bandCount) gains in dB\(hasAliases ? " (then optionally aliases)" : ""), tab-separated")
            }
            let aliases = (aliasField ?? "").utf8.split(separator: UInt8(ascii: ",")).map(trimmed).filter { !$0.isEmpty }
            let bands = bandFrequencies.map { GraphicEQDesign.Band(frequency: $0, q: EQPreset.iPodQ) }
            let preset = EQPreset(name: name, aliases: aliases, bands: bands, gains: gains.map { $0! })
            try validate(preset, source: source, field: "line \(number + 1)")
            presets.append(preset)
        }
        return presets
    }

    /// The JSON form of a custom preset: ten iPod-band gains, or bands of its own.
    struct PresetFile: Decodable {
        struct Band: Decodable {
            var frequency: Double
            var gain: Double
            var q: Double?
        }
        var name: String?
        var gains: [Double]?
        var bands: [Band]?
        var preamp: Double?
    }

    /// Reads a custom preset from a JSON file: `{"name": …, "gains": [ten dB values],
    /// "preamp": dB}` or `{"name": …, "bands": [{"frequency": Hz, "gain": dB, "q": Q}, …]}`.
    public static func load(path: String) throws(PresetError) -> EQPreset {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PresetError(source: path, field: nil, problem: "cannot read the file")
        }
        return try parseJSON(data, source: path, defaultName: baseName(of: path))
    }

    /// Parses a custom preset from JSON (see `load(path:)`).
    public static func parseJSON(_ data: Data, source: String, defaultName: String) throws(PresetError) -> EQPreset {
        let file: PresetFile
        do {
            file = try JSONDecoder().decode(PresetFile.self, from: data)
        } catch let error as DecodingError {
            throw PresetError(decoding: error, source: source)
        } catch {
            throw PresetError(source: source, field: nil, problem: "not valid JSON")
        }
        let preset: EQPreset
        switch (file.gains, file.bands) {
        case (let gains?, nil):
            guard gains.count == EQPreset.iPodBands.count else {
                throw PresetError(source: source, field: "gains",
                                  problem: "expected \(EQPreset.iPodBands.count) gains in dB (one per iPod band), found \(gains.count)")
            }
            preset = EQPreset(name: file.name ?? defaultName, gains: gains, preamp: file.preamp ?? 0)
        case (nil, let bands?):
            guard !bands.isEmpty else { throw PresetError(source: source, field: "bands", problem: "no bands") }
            preset = EQPreset(name: file.name ?? defaultName,
                              bands: bands.map { GraphicEQDesign.Band(frequency: $0.frequency, q: $0.q ?? EQPreset.iPodQ) },
                              gains: bands.map(\.gain), preamp: file.preamp ?? 0)
        case (nil, nil):
            throw PresetError(source: source, field: "gains", problem: "give either 'gains' (ten values) or 'bands'")
        case (_?, _?):
            throw PresetError(source: source, field: "bands", problem: "give either 'gains' or 'bands', not both")
        }
        try validate(preset, source: source, field: file.bands == nil ? "gains" : "bands")
        return preset
    }

    /// Checks every value; `field` is `bands` (each band's values named), else the field or
    /// line the gains came from.
    private static func validate(_ preset: EQPreset, source: String, field: String) throws(PresetError) {
        for (index, band) in preset.bands.enumerated() {
            let place = field == "bands" ? "bands[\(index)]." : "\(field): "
            guard band.frequency.isFinite, band.frequency > 0, band.frequency <= 100_000 else {
                throw PresetError(source: source, field: field == "bands" ? place + "frequency" : field,
                                  problem: "a band centre must be above 0 and at most 100000 Hz, not \(band.frequency)")
            }
            guard band.q.isFinite, band.q > 0, band.q <= 100 else {
                throw PresetError(source: source, field: field == "bands" ? place + "q" : field,
                                  problem: "Q must be above 0 and at most 100, not \(band.q)")
            }
            let gain = preset.gains[index]
            guard gain.isFinite, abs(gain) <= 40 else {
                throw PresetError(source: source, field: field == "bands" ? place + "gain" : "\(field)[\(index)]",
                                  problem: "a gain must be from -40 to 40 dB, not \(gain)")
            }
        }
        guard preset.preamp.isFinite, abs(preset.preamp) <= 40 else {
            throw PresetError(source: source, field: "preamp", problem: "the preamp must be from -40 to 40 dB, not \(preset.preamp)")
        }
    }

    // MARK: Names

    /// The preset called `name` or with `name` among its aliases (matched by `NameMatching.key`,
    /// so `bass-booster` finds "Bass Booster"), if there is one.
    public static func find(_ name: String, in presets: [EQPreset]) -> EQPreset? {
        let key = NameMatching.key(name)
        return presets.first { ([$0.name] + $0.aliases).contains { NameMatching.key($0) == key } }
    }

    /// The names closest to `name`, nearest first, for a "did you mean" message.
    public static func nearestNames(to name: String, in presets: [EQPreset], count: Int = 3) -> [String] {
        let key = NameMatching.key(name)
        return presets.map { preset -> (String, Int) in
            let candidate = NameMatching.key(preset.name)
            let distance = candidate.hasPrefix(key) || key.hasPrefix(candidate) ? 0 : EditDistance.between(key, candidate)
            return (preset.name, distance)
        }
        .sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
        .prefix(count).map(\.0)
    }


    // MARK: User presets

    /// The user preset folder: `AURENDER_PRESETS`, else `~/.config/aurender/presets`.
    public static func userFolder(environment: [String: String]) -> String? {
        if let folder = environment["AURENDER_PRESETS"], !folder.isEmpty { return folder }
        return environment["HOME"].map { $0 + "/.config/aurender/presets" }
    }

    /// The presets in `folder`: every `*.json` (one preset each) and `*.tsv` (a table).
    /// A missing folder holds none; a malformed file is an error naming it.
    public static func presets(inFolder folder: String) throws(PresetError) -> [EQPreset] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        var presets: [EQPreset] = []
        for name in names.sorted() {
            let path = folder + "/" + name
            if name.hasSuffix(".json") {
                presets.append(try load(path: path))
            } else if name.hasSuffix(".tsv") {
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw PresetError(source: path, field: nil, problem: "cannot read the file")
                }
                presets += try parseTable(String(decoding: data, as: UTF8.self), source: path)
            }
        }
        return presets
    }

    /// The text of `bytes` without the ASCII white space (space, tab, return, line and form feeds)
    /// at either end.
    private static func trimmed(_ bytes: Substring.UTF8View) -> String {
        let isSpace = { (byte: UInt8) in byte == 0x20 || (0x09...0x0D).contains(byte) }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
              let last = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    private static func baseName(of path: String) -> String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        return file.hasSuffix(".json") ? String(file.dropLast(5)) : file
    }
}

/// A preset file or table could not be used; the message names the file and the field.
public struct PresetError: Error, Equatable, CustomStringConvertible {
    public var source: String
    public var field: String?
    public var problem: String

    public init(source: String, field: String?, problem: String) {
        self.source = source
        self.field = field
        self.problem = problem
    }

    init(decoding error: DecodingError, source: String) {
        func path(_ codingPath: [any CodingKey]) -> String? {
            let text = codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
            let trimmed = text.hasPrefix(".") ? String(text.dropFirst()) : text
            return trimmed.isEmpty ? nil : trimmed
        }
        switch error {
        case .typeMismatch(let type, let context):
            self.init(source: source, field: path(context.codingPath), problem: "expected \(Self.describe(type))")
        case .valueNotFound(let type, let context):
            self.init(source: source, field: path(context.codingPath), problem: "expected \(Self.describe(type)), found null")
        case .keyNotFound(let key, let context):
            self.init(source: source, field: path(context.codingPath + [key]), problem: "missing")
        case .dataCorrupted(let context):
            self.init(source: source, field: path(context.codingPath), problem: "not valid JSON")
        @unknown default:
            self.init(source: source, field: nil, problem: "not a valid preset")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type: "a number"
        case is String.Type: "a string"
        case is [Double].Type, is [PresetFileBand].Type: "a list"
        default: "\(type)"
        }
    }

    public var description: String {
        "\(source): " + (field.map { "field '\($0)': " } ?? "") + problem
    }
}

typealias PresetFileBand = EQPresetLibrary.PresetFile.Band
