import AudioGraph
/// Finds installed plugins by identifier: an LV2 URI, `ladspa:LABEL` or `ladspa:FILE.so:LABEL`.
public enum PluginRegistry {
    /// Every installed plugin: LADSPA (by library, then descriptor order), then LV2.
    public static func installed() -> [LoadedPlugin] {
        LADSPAPlugins.installed() + LilvPlugins.installed()
    }

    /// Loads the LV2 bundle at `path` (a folder holding `manifest.ttl`) beside those found on
    /// the search path, so its plugins can be named.
    public static func loadLV2Bundle(_ path: String) {
        LilvPlugins.loadBundle(path)
    }

    /// The plugin `id` names, checked usable as an effect: installed, not an instrument or
    /// analyser, needing no feature the host lacks. Unknown identifiers get the nearest installed ones.
    public static func plugin(_ id: String) throws(PluginError) -> LoadedPlugin {
        guard let found = lookUp(id) else { throw .notInstalled(id: id, nearest: nearest(to: id)) }
        let description = found.description
        if let refusal = description.refusal { throw .refused(plugin: id, reason: refusal) }
        if let missing = description.requiredFeatures.first(where: { !LilvPlugins.supportedFeatures.contains($0) }) {
            throw .missingFeature(plugin: id, feature: missing)
        }
        return found
    }

    private static func lookUp(_ id: String) -> LoadedPlugin? {
        guard id.hasPrefix("ladspa:") else { return LilvPlugins.plugin(uri: id) }
        let parts = id.dropFirst("ladspa:".count).split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let plugins = LADSPAPlugins.installed()
        switch parts.count {
        case 1: return plugins.first { $0.description.label == parts[0] }
        case 2:
            return plugins.first {
                $0.description.label == parts[1]
                    && ($0.description.library == parts[0] || $0.description.library.hasSuffix("/" + parts[0]))
            }
        default: return nil
        }
    }

    /// Up to three installed identifiers closest to `id` (by edit distance, LADSPA by `ladspa:LABEL`).
    static func nearest(to id: String) -> [String] {
        let candidates = LADSPAPlugins.installed().compactMap { $0.description.label.map { "ladspa:" + $0 } } + LilvPlugins.installedURIs()
        let scored = candidates.map { ($0, EditDistance.between(id.lowercased(), $0.lowercased())) }
        return scored.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(3).map(\.0)
    }
}
