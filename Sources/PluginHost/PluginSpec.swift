import FoundationEssentials

/// A plugin as a user names it: `ID[@name=value,...]`, where ID is an LV2 URI, `ladspa:LABEL`
/// or `ladspa:FILE.so:LABEL`, and `preset=` among the values chooses a preset by URI or label.
public struct PluginSpec: Equatable, Sendable {
    /// The plugin's identifier.
    public var id: String
    /// The preset to start from, by URI or label.
    public var preset: String?
    /// Control values by port symbol or name (case ignored), in the order given (applied after the preset).
    public var controls: [Control]

    /// One control value.
    public struct Control: Equatable, Sendable {
        /// The control's port symbol or name.
        public var name: String
        /// Its value.
        public var value: Float
    }

    /// Parses `ID[@name=value,...]`; the values are split at the last `@`.
    public init(parsing text: String) throws(PluginError) {
        let (id, assignments) = Self.split(text)
        self.init(id: id, assignments: assignments)
        try parseAssignments()
    }

    /// `ID[@name=value,...]` split at the last `@` into the identifier and the assignments
    /// (empty when there are none), as a graph file's `plugin` and `controls` fields hold them.
    public static func split(_ text: String) -> (id: String, assignments: String) {
        guard let at = text.lastIndex(of: "@"), text[text.index(after: at)...].contains("=") else { return (text, "") }
        return (String(text[..<at]), String(text[text.index(after: at)...]))
    }

    /// A plugin with `assignments` (`name=value,...`, as a graph file's `controls` field has them).
    public init(id: String, preset: String? = nil, controls: String) throws(PluginError) {
        self.init(id: id, assignments: controls)
        try parseAssignments()
        if let preset { self.preset = preset }
    }

    private var assignments: String

    private init(id: String, assignments: String) {
        self.id = id
        self.assignments = assignments
        controls = []
    }

    private mutating func parseAssignments() throws(PluginError) {
        for item in assignments.split(separator: ",", omittingEmptySubsequences: true) {
            let parts = item.split(separator: "=", maxSplits: 1).map { String($0.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()) }
            guard parts.count == 2, !parts[0].isEmpty else {
                throw .badControl(plugin: id, control: String(item), problem: "must be written name=value")
            }
            if parts[0] == "preset" {
                preset = parts[1]
                continue
            }
            let value: Float
            switch parts[1].lowercased() {
            case "on", "true": value = 1
            case "off", "false": value = 0
            default:
                guard let number = Float(parts[1]), number.isFinite else {
                    throw .badControl(plugin: id, control: parts[0], problem: "must be a number, not '\(parts[1])'")
                }
                value = number
            }
            controls.append(Control(name: parts[0], value: value))
        }
        assignments = ""
    }

    /// The node for this plugin at `sampleRate`, its tail capped at `tailLimit` frames.
    public func makeNode(name: String, sampleRate: Double, tailLimit: Int64) throws(PluginError) -> PluginNode {
        try PluginNode(name: name, plugin: PluginRegistry.plugin(id), sampleRate: sampleRate, preset: preset,
                       controls: controls.map { ($0.name, $0.value) }, tailLimit: tailLimit)
    }
}
