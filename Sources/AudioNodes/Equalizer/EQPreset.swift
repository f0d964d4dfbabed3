import AudioDSP

/// A named equalizer setting: a gain for each band, and a preamp.
///
/// The iPod presets use the ten ISO octave bands with Q = √2; a custom preset may bring bands
/// of its own.
public struct EQPreset: Equatable, Sendable {
    /// The name the preset is listed under.
    public var name: String
    /// Other names that find the preset (the Music app's newer names for some iPod presets).
    public var aliases: [String]
    /// The bands' centres and bandwidths.
    public var bands: [GraphicEQDesign.Band]
    /// The gain at each band's centre, in dB.
    public var gains: [Double]
    /// Gain applied before the bands, in dB.
    public var preamp: Double

    /// The ten ISO octave-band centres of the iPod equalizer, in Hz.
    public static let iPodFrequencies: [Double] = [32, 64, 125, 250, 500, 1000, 2000, 4000, 8000, 16000]
    /// The bandwidth of every iPod band: one octave.
    public static let iPodQ = 2.0.squareRoot()
    /// The iPod equalizer's bands.
    public static let iPodBands = iPodFrequencies.map { GraphicEQDesign.Band(frequency: $0, q: iPodQ) }

    /// A preset of `gains` over `bands`, found by `name` or any of `aliases`.
    public init(name: String, aliases: [String] = [], bands: [GraphicEQDesign.Band] = EQPreset.iPodBands,
                gains: [Double], preamp: Double = 0) {
        self.name = name
        self.aliases = aliases
        self.bands = bands
        self.gains = gains
        self.preamp = preamp
    }

    /// Whether the preset changes nothing: every gain and the preamp are 0 dB.
    public var isFlat: Bool { preamp == 0 && gains.allSatisfy { $0 == 0 } }

    /// The largest gain above 0 dB, or 0: what `--preamp auto` takes off.
    public var largestBoost: Double { max(0, gains.max() ?? 0) }
}

extension EQPreset {
    /// The built-in preset called `name` or with `name` among its aliases, matched loosely:
    /// `try EQPreset.named("bass-booster")` is "Bass Booster".
    public static func named(_ name: String) throws(PresetLookupError) -> EQPreset {
        let presets: [EQPreset]
        do { presets = try EQPresetLibrary.builtIn } catch { throw .malformed(error) }
        return try named(name, in: presets)
    }

    /// The preset of `presets` called `name` or with `name` among its aliases, matched loosely.
    /// An unknown name throws `PresetLookupError.unknown` with the nearest names.
    public static func named(_ name: String, in presets: [EQPreset]) throws(PresetLookupError) -> EQPreset {
        guard let found = EQPresetLibrary.find(name, in: presets) else {
            throw .unknown(name: name, nearest: EQPresetLibrary.nearestNames(to: name, in: presets))
        }
        return found
    }
}

/// A preset could not be found or read.
public enum PresetLookupError: Error, Equatable, CustomStringConvertible {
    /// No preset has this name; `nearest` are the closest names.
    case unknown(name: String, nearest: [String])
    /// A preset file or table is malformed.
    case malformed(PresetError)

    public var description: String {
        switch self {
        case .unknown(let name, let nearest):
            "unknown EQ preset '\(name)'; did you mean \(nearest.map { "'\($0)'" }.joined(separator: ", "))?"
        case .malformed(let error): error.description
        }
    }
}
