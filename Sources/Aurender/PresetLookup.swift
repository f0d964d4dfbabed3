import AudioNodes

/// Finds EQ presets the way users name them: a preset file by path, or a name matched
/// loosely (`bass-booster` is "Bass Booster") among the user's presets and the built-in ones.
///
/// The user's presets are in the folder `AURENDER_PRESETS`, else `~/.config/aurender/presets`;
/// they come before the built-in ones, so a user preset may replace one.
public struct PresetLookup: Sendable {
    /// The folder of user presets, if any.
    public var userFolder: String?

    /// A lookup over the user folder the environment names.
    public init(environment: [String: String]) {
        userFolder = EQPresetLibrary.userFolder(environment: environment)
    }

    /// Whether `name` names a preset file (a `.json` file or a path) rather than a preset.
    public static func namesAFile(_ name: String) -> Bool {
        name.hasSuffix(".json") || name.contains("/")
    }

    /// Every preset a name can find: the user's, then the built-in ones.
    public func available() throws(PresetLookupError) -> [EQPreset] {
        do { return try (userFolder.map(EQPresetLibrary.presets(inFolder:)) ?? []) + EQPresetLibrary.builtIn } catch { throw .malformed(error) }
    }

    /// The preset a name or a `.json` path names.
    public func preset(named name: String) throws(PresetLookupError) -> EQPreset {
        if Self.namesAFile(name) {
            do { return try EQPresetLibrary.load(path: name) } catch { throw .malformed(error) }
        }
        return try EQPreset.named(name, in: try available())
    }
}
