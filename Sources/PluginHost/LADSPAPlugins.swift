import CLADSPA
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The LADSPA plugins installed on this machine, loaded with dlopen: every call into
/// `ladspa.h` descriptors is in this file.
///
/// Libraries are searched in `LADSPA_PATH` (colon-separated), then `~/.ladspa`,
/// `/usr/local/lib/ladspa`, `/usr/lib/ladspa` and the multiarch folder
/// (`/usr/lib/x86_64-linux-gnu/ladspa`). A library stays loaded for the life of the process.
enum LADSPAPlugins {
    /// The folders searched, in order, without duplicates.
    static var searchFolders: [String] {
        var folders = (ProcessInfo.processInfo.environment["LADSPA_PATH"] ?? "").split(separator: ":").map(String.init)
        if let home = ProcessInfo.processInfo.environment["HOME"] { folders.append(home + "/.ladspa") }
        folders += ["/usr/local/lib/ladspa", "/usr/lib/ladspa"]
        #if arch(x86_64)
        folders.append("/usr/lib/x86_64-linux-gnu/ladspa")
        #elseif arch(arm64)
        folders.append("/usr/lib/aarch64-linux-gnu/ladspa")
        #endif
        var seen: Set<String> = []
        return folders.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// The plugins found, by search path, loaded once.
    private static let cache = Mutex<[String: [LoadedPlugin]]>([:])

    /// Every plugin in every library of the search folders; a library that does not load is skipped.
    static func installed() -> [LoadedPlugin] {
        let folders = searchFolders
        let key = folders.joined(separator: ":")
        return cache.withLock { cache in
        if let found = cache[key] { return found }
        var plugins: [LoadedPlugin] = []
        var seenFiles: Set<String> = []
        for folder in folders {
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".so") }.sorted()
            for file in files where seenFiles.insert(file).inserted {
                plugins += load(library: folder + "/" + file)
            }
        }
        cache[key] = plugins
        return plugins
        }
    }

    /// The plugins one library holds, in its descriptor order.
    private static func load(library path: String) -> [LoadedPlugin] {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL), let symbol = dlsym(handle, "ladspa_descriptor") else { return [] }
        let function = unsafeBitCast(symbol, to: LADSPA_Descriptor_Function.self)
        var plugins: [LoadedPlugin] = []
        var index: UInt = 0
        while let descriptor = function(index) {
            plugins.append(plugin(descriptor, library: path))
            index += 1
        }
        return plugins
    }

    private static func plugin(_ descriptor: UnsafePointer<LADSPA_Descriptor>, library: String) -> LoadedPlugin {
        let d = descriptor.pointee
        let label = String(cString: d.Label)
        var ports: [PluginPort] = []
        var used: Set<String> = []
        for index in 0..<Int(d.PortCount) {
            let kind = Int32(d.PortDescriptors[index])
            let hint = d.PortRangeHints[index]
            let (range, defaultValue) = bounds(hint)
            let name = String(cString: d.PortNames[index]!)
            ports.append(PluginPort(
                index: index, symbol: uniqueSymbol(name, used: &used), name: name,
                kind: kind & LADSPA_PORT_AUDIO != 0 ? .audio : .control, isInput: kind & LADSPA_PORT_INPUT != 0,
                range: range, defaultValue: defaultValue, isToggle: hint.HintDescriptor & LADSPA_HINT_TOGGLED != 0,
                isOptional: false, scalesWithSampleRate: hint.HintDescriptor & LADSPA_HINT_SAMPLE_RATE != 0))
        }
        let latency = ports.first { $0.kind == .control && !$0.isInput && $0.name.lowercased() == "latency" }?.index
        let hasAudioIn = ports.contains { $0.kind == .audio && $0.isInput }
        let hasAudioOut = ports.contains { $0.kind == .audio && !$0.isInput }
        let description = PluginDescription(
            id: "ladspa:\(library.split(separator: "/").last.map(String.init) ?? library):\(label)", standard: .ladspa, name: String(cString: d.Name),
            label: label, library: library, ports: ports, latencyPort: latency, requiredFeatures: [],
            refusal: hasAudioIn && hasAudioOut ? nil : hasAudioOut ? "it has no audio input (a generator or instrument)" : "it has no audio output",
            needsFixedBlockLength: false, needsPowerOf2BlockLength: false,
            isInPlaceBroken: Int32(d.Properties) & LADSPA_PROPERTY_INPLACE_BROKEN != 0)
        return LoadedPlugin(description: description, instantiate: { (rate, _) throws(PluginError) in
            guard let handle = descriptor.pointee.instantiate(descriptor, UInt(rate.rounded())) else {
                throw .cannotLoad(plugin: description.id, reason: "its instantiate() returned nothing at \(Int(rate)) Hz")
            }
            return Instance(descriptor: descriptor, handle: handle)
        }, presetValues: { (preset) throws(PluginError) in
            throw .noSuchPreset(plugin: description.id, preset: preset, known: [])
        })
    }

    /// A port's range and default from its hints (unscaled by the sample rate).
    private static func bounds(_ hint: LADSPA_PortRangeHint) -> (ClosedRange<Float>, Float) {
        let hints = hint.HintDescriptor
        if hints & LADSPA_HINT_TOGGLED != 0 {
            return (0...1, hints & LADSPA_HINT_DEFAULT_MASK == LADSPA_HINT_DEFAULT_1 ? 1 : 0)
        }
        let low = hints & LADSPA_HINT_BOUNDED_BELOW != 0 ? hint.LowerBound : -Float.infinity
        let high = hints & LADSPA_HINT_BOUNDED_ABOVE != 0 ? hint.UpperBound : Float.infinity
        let logarithmic = hints & LADSPA_HINT_LOGARITHMIC != 0 && low > 0 && high.isFinite
        func between(_ weight: Float) -> Float {
            logarithmic ? exp(log(low) * (1 - weight) + log(high) * weight) : low * (1 - weight) + high * weight
        }
        let value: Float
        switch hints & LADSPA_HINT_DEFAULT_MASK {
        case LADSPA_HINT_DEFAULT_MINIMUM: value = low
        case LADSPA_HINT_DEFAULT_LOW: value = between(0.25)
        case LADSPA_HINT_DEFAULT_MIDDLE: value = between(0.5)
        case LADSPA_HINT_DEFAULT_HIGH: value = between(0.75)
        case LADSPA_HINT_DEFAULT_MAXIMUM: value = high
        case LADSPA_HINT_DEFAULT_1: value = 1
        case LADSPA_HINT_DEFAULT_100: value = 100
        case LADSPA_HINT_DEFAULT_440: value = 440
        default: value = low.isFinite ? low : high.isFinite ? min(0, high) : 0
        }
        let range = min(low, high)...max(low, high)
        return (range, value.isFinite ? min(max(value, range.lowerBound), range.upperBound) : 0)
    }

    /// `Delay (Seconds)` as `delay_seconds`, made unique among the plugin's ports.
    private static func uniqueSymbol(_ name: String, used: inout Set<String>) -> String {
        let words = name.lowercased().split { !($0.isLetter || $0.isNumber) || !$0.isASCII }
        let base = words.isEmpty ? "port" : words.joined(separator: "_")
        var symbol = base
        var number = 2
        while !used.insert(symbol).inserted {
            symbol = "\(base)_\(number)"
            number += 1
        }
        return symbol
    }

    /// One LADSPA instance: the descriptor's functions on one handle.
    private final class Instance: PluginInstance {
        let descriptor: UnsafePointer<LADSPA_Descriptor>
        let handle: LADSPA_Handle
        /// The descriptor's run function, read once: reading it per call costs an allocation.
        private let runFunction: @convention(c) (LADSPA_Handle?, UInt) -> Void
        private var active = false

        init(descriptor: UnsafePointer<LADSPA_Descriptor>, handle: LADSPA_Handle) {
            self.descriptor = descriptor
            self.handle = handle
            runFunction = descriptor.pointee.run
        }

        func connect(port: Int, to data: UnsafeMutablePointer<Float>?) {
            descriptor.pointee.connect_port(handle, UInt(port), data)
        }

        func activate() {
            descriptor.pointee.activate?(handle)
            active = true
        }

        func deactivate() {
            if active { descriptor.pointee.deactivate?(handle) }
            active = false
        }

        func run(frames: Int) { runFunction(handle, UInt(frames)) }

        deinit {
            deactivate()
            descriptor.pointee.cleanup(handle)
        }
    }
}
