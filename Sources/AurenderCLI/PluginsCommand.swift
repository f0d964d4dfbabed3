import ArgumentParser
import Aurender
import FoundationEssentials
import PluginHost

/// `aurender plugins`: lists the installed LADSPA and LV2 plugins with their ports.
struct PluginsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "List the installed LADSPA and LV2 plugins, with their ports, ranges, defaults and latency.",
        discussion: """
            LADSPA libraries are searched in LADSPA_PATH, ~/.ladspa, /usr/local/lib/ladspa, \
            /usr/lib/ladspa and the multiarch folder; LV2 bundles in LV2_PATH, else ~/.lv2, \
            /usr/local/lib/lv2 and /usr/lib/lv2. A plugin aurender cannot run says why. Control \
            names are the ones --plugin ID@name=value takes.
            """
    )

    @Flag(help: "Print the plugins as JSON on standard output.")
    var json = false

    /// One port as printed with `--json`.
    struct PortInfo: Codable {
        var index: Int
        var symbol: String
        var name: String
        var type: String
        var direction: String
        var minimum: Float?
        var maximum: Float?
        var defaultValue: Float?
        var toggle: Bool?
        var scalesWithSampleRate: Bool?
        var optional: Bool?
    }

    /// One plugin as printed with `--json`.
    struct PluginInfo: Codable {
        var id: String
        var standard: String
        var name: String
        var library: String
        var ports: [PortInfo]
        var reportsLatency: Bool
        var requiredFeatures: [String]
        var fixedBlockLength: Int?
        var refused: String?
    }

    func run() throws {
        let plugins = PluginRegistry.installed().map(\.description)
        if json {
            print(try ReportJSON.text(plugins.map(info)))
        } else {
            print(plugins.map(text).joined(separator: "\n"))
        }
    }

    private func info(_ plugin: PluginDescription) -> PluginInfo {
        PluginInfo(id: plugin.id, standard: plugin.standard.rawValue, name: plugin.name, library: plugin.library,
                   ports: plugin.ports.map { port in
                       let control = port.kind == .control
                       return PortInfo(index: port.index, symbol: port.symbol, name: port.name, type: port.kind.rawValue,
                                       direction: port.isInput ? "input" : "output",
                                       minimum: control && port.range.lowerBound.isFinite ? port.range.lowerBound : nil,
                                       maximum: control && port.range.upperBound.isFinite ? port.range.upperBound : nil,
                                       defaultValue: control && port.isInput ? port.defaultValue : nil,
                                       toggle: port.isToggle ? true : nil, scalesWithSampleRate: port.scalesWithSampleRate ? true : nil,
                                       optional: port.isOptional ? true : nil)
                   },
                   reportsLatency: plugin.latencyPort != nil, requiredFeatures: plugin.requiredFeatures,
                   fixedBlockLength: plugin.needsFixedBlockLength || plugin.needsPowerOf2BlockLength ? PluginNode.fixedBlockLength : nil,
                   refused: refusal(plugin))
    }

    private func refusal(_ plugin: PluginDescription) -> String? {
        do throws(PluginError) {
            _ = try PluginRegistry.plugin(plugin.id)
            return nil
        } catch {
            if case .refused(_, let reason) = error { return reason }
            return error.description
        }
    }

    private func text(_ plugin: PluginDescription) -> String {
        var lines = ["\(plugin.id)  \(plugin.name) (\(plugin.standard.rawValue))"]
        if let refused = refusal(plugin) { lines.append("  not usable: \(refused)") }
        let ins = plugin.audioInputs.count, outs = plugin.audioOutputs.count
        lines.append("  audio: \(ins) in, \(outs) out" + (plugin.latencyPort != nil ? "; reports its latency" : "")
                     + (plugin.needsFixedBlockLength || plugin.needsPowerOf2BlockLength ? "; runs in blocks of \(PluginNode.fixedBlockLength)" : ""))
        for port in plugin.controls {
            let range = "\(bound(port.range.lowerBound)) to \(bound(port.range.upperBound))" + (port.scalesWithSampleRate ? " x rate" : "")
            lines.append("  \(port.symbol)  \(port.name): \(port.isToggle ? "on/off" : range), default \(bound(port.defaultValue))")
        }
        return lines.joined(separator: "\n")
    }

    private func bound(_ value: Float) -> String {
        value.isInfinite ? (value < 0 ? "-inf" : "inf") : value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}
