import CLilv
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The LV2 plugins installed on this machine, through lilv: every lilv call is in this file.
///
/// The world is loaded once per process with `lilv_world_load_all`, which searches `LV2_PATH`
/// or, without it, `~/.lv2`, `/usr/local/lib/lv2` and `/usr/lib/lv2`. Instances get
/// `urid:map`, `urid:unmap`, `options:options` (sample rate, nominal, minimum and maximum block
/// length), the `bufsz` block-length features and `worker:schedule`, whose work runs at once,
/// on the render thread, so that offline output is the same every run.
enum LilvPlugins {
    /// The features instances are given; a plugin requiring any other is refused.
    static let supportedFeatures: Set<String> = [
        URI.uridMap, URI.uridUnmap, URI.optionsOptions, URI.bufsizeBoundedBlockLength,
        URI.bufsizeFixedBlockLength, URI.bufsizePowerOf2BlockLength, URI.workerSchedule,
        URI.coreInPlaceBroken, URI.coreIsLive, URI.coreHardRTCapable,
    ]

    /// Guards the world: lilv is not thread-safe, and tests look plugins up in parallel.
    private static let lock = RecursiveLock()
    // Safe: read and written only while `lock` is held (`withWorld`).
    nonisolated(unsafe) private static var loaded: World?
    /// The bundles `loadBundle` has added, so that loading one again leaves the world as it is
    /// (lilv would reload its plugins under instances that use them).
    // Safe: read and written only while `lock` is held (`loadBundle` runs inside `withWorld`).
    nonisolated(unsafe) private static var addedBundles: Set<String> = []

    /// Runs `body` on the world (loaded on first use), holding the lock.
    private static func withWorld<T>(_ body: (World) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        if let loaded { return try body(loaded) }
        let made = World()
        loaded = made
        return try body(made)
    }

    /// Runs `body` holding the world's lock.
    private static func locked<T>(_ body: () throws(PluginError) -> T) throws(PluginError) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Loads one more bundle into the world.
    static func loadBundle(_ path: String) {
        withWorld { world in
            guard addedBundles.insert(path).inserted else { return }
            let uri = lilv_new_file_uri(world.world, nil, path.hasSuffix("/") ? path : path + "/")
            lilv_world_load_bundle(world.world, uri)
            lilv_node_free(uri)
        }
    }

    /// Every installed plugin, in lilv's order.
    static func installed() -> [LoadedPlugin] { withWorld { world in
        var plugins: [LoadedPlugin] = []
        let all = lilv_world_get_all_plugins(world.world)
        var iterator = lilv_plugins_begin(all)
        while !lilv_plugins_is_end(all, iterator) {
            plugins.append(world.plugin(lilv_plugins_get(all, iterator)))
            iterator = lilv_plugins_next(all, iterator)
        }
        return plugins
    } }

    /// The plugin with URI `uri`, if installed.
    static func plugin(uri: String) -> LoadedPlugin? { withWorld { world in
        let node = lilv_new_uri(world.world, uri)
        defer { lilv_node_free(node) }
        guard let plugin = lilv_plugins_get_by_uri(lilv_world_get_all_plugins(world.world), node) else { return nil }
        return world.plugin(plugin)
    } }

    /// The URIs of every installed plugin, for nearest matches.
    static func installedURIs() -> [String] { withWorld { world in
        var uris: [String] = []
        let all = lilv_world_get_all_plugins(world.world)
        var iterator = lilv_plugins_begin(all)
        while !lilv_plugins_is_end(all, iterator) {
            uris.append(String(cString: lilv_node_as_uri(lilv_plugin_get_uri(lilv_plugins_get(all, iterator)))))
            iterator = lilv_plugins_next(all, iterator)
        }
        return uris
    } }

    /// The loaded lilv world, its URI nodes and its URID map.
    // Safe to share: it is used only while `LilvPlugins.lock` is held (`withWorld`, `locked`).
    private final class World: @unchecked Sendable {
        let world: OpaquePointer
        let map = URIDMap()
        private var nodes: [String: OpaquePointer] = [:]

        init() {
            world = lilv_world_new()
            lilv_world_load_all(world)
        }

        /// The interned URI node for `uri`.
        func node(_ uri: String) -> OpaquePointer {
            if let found = nodes[uri] { return found }
            let made = lilv_new_uri(world, uri)!
            nodes[uri] = made
            return made
        }

        /// The description and factory of `plugin`.
        func plugin(_ plugin: OpaquePointer) -> LoadedPlugin {
            let uri = String(cString: lilv_node_as_uri(lilv_plugin_get_uri(plugin)))
            let nameNode = lilv_plugin_get_name(plugin)
            let name = nameNode.map { String(cString: lilv_node_as_string($0)) } ?? uri
            lilv_node_free(nameNode)
            let count = Int(lilv_plugin_get_num_ports(plugin))
            var minimums = [Float](repeating: .nan, count: count)
            var maximums = [Float](repeating: .nan, count: count)
            var defaults = [Float](repeating: .nan, count: count)
            lilv_plugin_get_port_ranges_float(plugin, &minimums, &maximums, &defaults)
            var ports: [PluginPort] = []
            for index in 0..<count {
                let port = lilv_plugin_get_port_by_index(plugin, UInt32(index))
                let kind: PluginPort.Kind
                if lilv_port_is_a(plugin, port, node(URI.coreAudioPort)) { kind = .audio }
                else if lilv_port_is_a(plugin, port, node(URI.coreControlPort)) { kind = .control }
                else if lilv_port_is_a(plugin, port, node(URI.coreCVPort)) { kind = .cv }
                else if lilv_port_is_a(plugin, port, node(URI.atomAtomPort)) { kind = .atom }
                else { kind = .other }
                let portName = lilv_port_get_name(plugin, port)
                let toggle = lilv_port_has_property(plugin, port, node(URI.coreToggled))
                let low = minimums[index].isNaN ? (toggle ? 0 : -Float.infinity) : minimums[index]
                let high = maximums[index].isNaN ? (toggle ? 1 : Float.infinity) : maximums[index]
                let range = min(low, high)...max(low, high)
                let fallback: Float = range.lowerBound.isFinite ? range.lowerBound : 0
                let value = defaults[index].isNaN ? fallback : min(max(defaults[index], range.lowerBound), range.upperBound)
                ports.append(PluginPort(
                    index: index, symbol: String(cString: lilv_node_as_string(lilv_port_get_symbol(plugin, port))),
                    name: portName.map { String(cString: lilv_node_as_string($0)) } ?? "port \(index)", kind: kind,
                    isInput: lilv_port_is_a(plugin, port, node(URI.coreInputPort)), range: range, defaultValue: value,
                    isToggle: toggle, isOptional: lilv_port_has_property(plugin, port, node(URI.coreConnectionOptional)),
                    scalesWithSampleRate: false))
                lilv_node_free(portName)
            }
            let required = strings(lilv_plugin_get_required_features(plugin))
            let className = String(cString: lilv_node_as_uri(lilv_plugin_class_get_uri(lilv_plugin_get_class(plugin))))
            let description = PluginDescription(
                id: uri, standard: .lv2, name: name, label: nil,
                library: lilv_node_get_path(lilv_plugin_get_library_uri(plugin), nil).map { pointer in
                    defer { lilv_free(pointer) }
                    return String(cString: pointer)
                } ?? "",
                ports: ports, latencyPort: lilv_plugin_has_latency(plugin) ? Int(lilv_plugin_get_latency_port_index(plugin)) : nil,
                requiredFeatures: required, refusal: Self.refusal(ports: ports, className: className),
                needsFixedBlockLength: required.contains(URI.bufsizeFixedBlockLength),
                needsPowerOf2BlockLength: required.contains(URI.bufsizePowerOf2BlockLength),
                isInPlaceBroken: required.contains(URI.coreInPlaceBroken))
            return LoadedPlugin(description: description, instantiate: { (rate, blocks) throws(PluginError) in
                try LilvPlugins.locked { () throws(PluginError) in try self.instantiate(plugin, description: description, sampleRate: rate, blocks: blocks) }
            }, presetValues: { (preset) throws(PluginError) in
                try LilvPlugins.locked { () throws(PluginError) in try self.presetValues(plugin, id: uri, preset: preset) }
            })
        }

        /// Why a plugin with these ports and class is no effect, or nil.
        private static func refusal(ports: [PluginPort], className: String) -> String? {
            let audioIn = ports.contains { $0.kind == .audio && $0.isInput }
            let audioOut = ports.contains { $0.kind == .audio && !$0.isInput }
            if className == URI.coreInstrumentPlugin { return "it is an instrument (it makes sound from notes, not from audio)" }
            if !audioIn && !audioOut { return "it has no audio ports (a GUI-only or MIDI plugin)" }
            if !audioIn { return "it has no audio input (a generator)" }
            if !audioOut { return "it has no audio output (an analyser)" }
            if let port = ports.first(where: { ($0.kind == .cv || $0.kind == .atom || $0.kind == .other) && !$0.isOptional }) {
                return "its \(port.kind == .cv ? "CV" : port.kind == .atom ? "atom" : "unknown") port '\(port.symbol)' must be connected, "
                    + "and aurender connects only audio and control ports"
            }
            return nil
        }

        /// Instantiates `plugin` with the host's features, refusing a required feature it lacks.
        private func instantiate(_ plugin: OpaquePointer, description: PluginDescription, sampleRate: Double,
                                 blocks: BlockLengths) throws(PluginError) -> PluginInstance {
            if let missing = description.requiredFeatures.first(where: { !LilvPlugins.supportedFeatures.contains($0) }) {
                throw .missingFeature(plugin: description.id, feature: missing)
            }
            let features = Features(map: map, sampleRate: sampleRate, blocks: blocks)
            guard let instance = lilv_plugin_instantiate(plugin, sampleRate, features.list) else {
                throw .cannotLoad(plugin: description.id, reason: "lilv could not instantiate it at \(Int(sampleRate)) Hz")
            }
            return Instance(instance, features: features)
        }

        /// The port values of the preset whose URI or label is `preset`.
        private func presetValues(_ plugin: OpaquePointer, id: String, preset: String) throws(PluginError) -> [String: Float] {
            var known: [(uri: String, label: String?)] = []
            let related = lilv_plugin_get_related(plugin, node(URI.presetsPreset))
            var iterator = lilv_nodes_begin(related)
            while !lilv_nodes_is_end(related, iterator) {
                let presetNode = lilv_nodes_get(related, iterator)
                lilv_world_load_resource(world, presetNode)
                let labels = lilv_world_find_nodes(world, presetNode, node(URI.rdfsLabel), nil)
                known.append((String(cString: lilv_node_as_uri(presetNode)), strings(labels).first))
                iterator = lilv_nodes_next(related, iterator)
            }
            lilv_nodes_free(related)
            guard let chosen = known.first(where: { $0.uri == preset || $0.label?.lowercased() == preset.lowercased() }) else {
                throw .noSuchPreset(plugin: id, preset: preset, known: known.map { $0.label ?? $0.uri })
            }
            guard let state = lilv_state_new_from_world(world, map.feature, node(chosen.uri)) else {
                throw .noSuchPreset(plugin: id, preset: preset, known: known.map { $0.label ?? $0.uri })
            }
            defer { lilv_state_free(state) }
            let values = PresetValues(floatType: map.map(URI.atomFloat), doubleType: map.map(URI.atomDouble),
                                      intType: map.map(URI.atomInt))
            lilv_state_emit_port_values(state, { symbol, userData, value, _, type in
                guard let symbol, let userData, let value else { return }
                let values = Unmanaged<PresetValues>.fromOpaque(userData).takeUnretainedValue()
                values.add(String(cString: symbol), value, type: type)
            }, Unmanaged.passUnretained(values).toOpaque())
            return values.values
        }

        /// The strings of a node list, which it frees.
        private func strings(_ list: UnsafeMutableRawPointer?) -> [String] {
            guard let list else { return [] }
            defer { lilv_nodes_free(list) }
            var result: [String] = []
            var iterator = lilv_nodes_begin(list)
            while !lilv_nodes_is_end(list, iterator) {
                result.append(String(cString: lilv_node_as_string(lilv_nodes_get(list, iterator))))
                iterator = lilv_nodes_next(list, iterator)
            }
            return result
        }
    }

    /// The port values a preset sets, collected from lilv's callback.
    private final class PresetValues {
        let floatType: UInt32, doubleType: UInt32, intType: UInt32
        var values: [String: Float] = [:]

        init(floatType: UInt32, doubleType: UInt32, intType: UInt32) {
            self.floatType = floatType
            self.doubleType = doubleType
            self.intType = intType
        }

        func add(_ symbol: String, _ value: UnsafeRawPointer, type: UInt32) {
            switch type {
            case floatType: values[symbol] = value.load(as: Float.self)
            case doubleType: values[symbol] = Float(value.load(as: Double.self))
            case intType: values[symbol] = Float(value.load(as: Int32.self))
            default: break
            }
        }
    }

    /// URIDs for the process: `urid:map` and `urid:unmap`, locked, as plugins may map from any thread.
    // Safe to share: its tables change only inside `lock`, and the feature pointers never change.
    final class URIDMap: @unchecked Sendable {
        private let lock = Mutex(())
        private var ids: [String: UInt32] = [:]
        private var uris: [UnsafeMutablePointer<CChar>] = []
        /// The `urid:map` feature's data.
        let feature: UnsafeMutablePointer<LV2_URID_Map>
        /// The `urid:unmap` feature's data.
        let unmapFeature: UnsafeMutablePointer<LV2_URID_Unmap>

        init() {
            feature = .allocate(capacity: 1)
            unmapFeature = .allocate(capacity: 1)
            let handle = Unmanaged.passUnretained(self).toOpaque()
            feature.initialize(to: LV2_URID_Map(handle: handle, map: { handle, uri in
                guard let handle, let uri else { return 0 }
                return Unmanaged<URIDMap>.fromOpaque(handle).takeUnretainedValue().map(String(cString: uri))
            }))
            unmapFeature.initialize(to: LV2_URID_Unmap(handle: handle, unmap: { handle, urid in
                guard let handle else { return nil }
                return Unmanaged<URIDMap>.fromOpaque(handle).takeUnretainedValue().unmap(urid)
            }))
        }

        /// The URID of `uri`, made on first use (from 1).
        func map(_ uri: String) -> UInt32 {
            lock.withLock { _ in
                if let id = ids[uri] { return id }
                uris.append(strdup(uri))
                let id = UInt32(uris.count)
                ids[uri] = id
                return id
            }
        }

        func unmap(_ urid: UInt32) -> UnsafePointer<CChar>? {
            lock.withLock { _ in
                urid >= 1 && Int(urid) <= uris.count ? UnsafePointer(uris[Int(urid) - 1]) : nil
            }
        }
    }

    /// One instance's features: options, block-length flags and the synchronous worker, with
    /// the memory they point at, freed with the instance.
    private final class Features {
        let list: UnsafeMutablePointer<UnsafePointer<LV2_Feature>?>
        private var features: [UnsafeMutablePointer<LV2_Feature>] = []
        private let options: UnsafeMutablePointer<LV2_Options_Option>
        private let values: UnsafeMutablePointer<Int32>
        private let rate: UnsafeMutablePointer<Float>
        let schedule: UnsafeMutablePointer<LV2_Worker_Schedule>
        /// The instance's worker, set once it exists; `schedule_work` calls it at once.
        var worker: (interface: UnsafePointer<LV2_Worker_Interface>, handle: LV2_Handle)?
        /// Responses the worker sent during a run, delivered after it (64 KiB, made once).
        let responses = UnsafeMutableRawPointer.allocate(byteCount: Features.responseCapacity, alignment: 8)
        var responseBytes = 0
        static let responseCapacity = 65536

        init(map: URIDMap, sampleRate: Double, blocks: BlockLengths) {
            rate = .allocate(capacity: 1)
            rate.initialize(to: Float(sampleRate))
            values = .allocate(capacity: 3)
            values.initialize(from: [Int32(blocks.nominal), Int32(blocks.minimum), Int32(blocks.maximum)], count: 3)
            let float = map.map(URI.atomFloat), int = map.map(URI.atomInt)
            options = .allocate(capacity: 5)
            let context = LV2_OPTIONS_INSTANCE
            options.initialize(from: [
                LV2_Options_Option(context: context, subject: 0, key: map.map(URI.parametersSampleRate), size: 4, type: float, value: rate),
                LV2_Options_Option(context: context, subject: 0, key: map.map(URI.bufsizeNominalBlockLength), size: 4, type: int, value: values),
                LV2_Options_Option(context: context, subject: 0, key: map.map(URI.bufsizeMinBlockLength), size: 4, type: int, value: values + 1),
                LV2_Options_Option(context: context, subject: 0, key: map.map(URI.bufsizeMaxBlockLength), size: 4, type: int, value: values + 2),
                LV2_Options_Option(context: context, subject: 0, key: 0, size: 0, type: 0, value: nil),
            ], count: 5)
            schedule = .allocate(capacity: 1)
            list = .allocate(capacity: 10)
            schedule.initialize(to: LV2_Worker_Schedule(handle: nil, schedule_work: { handle, size, data in
                guard let handle else { return LV2_WORKER_ERR_UNKNOWN }
                return Unmanaged<Features>.fromOpaque(handle).takeUnretainedValue().work(size: size, data: data)
            }))
            schedule.pointee.handle = Unmanaged.passUnretained(self).toOpaque()
            let entries: [(String, UnsafeMutableRawPointer?)] = [
                (URI.uridMap, UnsafeMutableRawPointer(map.feature)), (URI.uridUnmap, UnsafeMutableRawPointer(map.unmapFeature)),
                (URI.optionsOptions, UnsafeMutableRawPointer(options)), (URI.bufsizeBoundedBlockLength, nil),
                (URI.bufsizeFixedBlockLength, nil), (URI.bufsizePowerOf2BlockLength, nil),
                (URI.workerSchedule, UnsafeMutableRawPointer(schedule)), (URI.coreInPlaceBroken, nil), (URI.coreIsLive, nil),
            ]
            for (index, entry) in entries.enumerated() {
                let feature = UnsafeMutablePointer<LV2_Feature>.allocate(capacity: 1)
                feature.initialize(to: LV2_Feature(URI: UnsafePointer(strdup(entry.0)), data: entry.1))
                features.append(feature)
                list[index] = UnsafePointer(feature)
            }
            list[entries.count] = nil
        }

        /// Runs the work at once (offline, so the output does not depend on a thread's timing).
        func work(size: UInt32, data: UnsafeRawPointer?) -> LV2_Worker_Status {
            guard let worker else { return LV2_WORKER_ERR_UNKNOWN }
            return worker.interface.pointee.work(worker.handle, { handle, size, data in
                guard let handle, let data else { return LV2_WORKER_ERR_UNKNOWN }
                return Unmanaged<Features>.fromOpaque(handle).takeUnretainedValue().respond(size: size, data: data)
            }, Unmanaged.passUnretained(self).toOpaque(), size, data)
        }

        /// Keeps a response for after the run, as the worker extension asks.
        func respond(size: UInt32, data: UnsafeRawPointer) -> LV2_Worker_Status {
            let needed = 4 + Int(size)
            guard responseBytes + needed <= Features.responseCapacity else { return LV2_WORKER_ERR_NO_SPACE }
            responses.storeBytes(of: size, toByteOffset: responseBytes, as: UInt32.self)
            (responses + responseBytes + 4).copyMemory(from: data, byteCount: Int(size))
            responseBytes += (needed + 7) & ~7
            return LV2_WORKER_SUCCESS
        }

        /// Hands the run's responses to the plugin, then tells it the run is over.
        func deliverResponses() {
            guard let worker else { return }
            var offset = 0
            while offset < responseBytes {
                let size = responses.load(fromByteOffset: offset, as: UInt32.self)
                _ = worker.interface.pointee.work_response?(worker.handle, size, responses + offset + 4)
                offset += (4 + Int(size) + 7) & ~7
            }
            responseBytes = 0
            _ = worker.interface.pointee.end_run?(worker.handle)
        }

        deinit {
            for feature in features {
                free(UnsafeMutableRawPointer(mutating: feature.pointee.URI))
                feature.deallocate()
            }
            list.deallocate()
            options.deallocate()
            values.deallocate()
            rate.deallocate()
            schedule.deallocate()
            responses.deallocate()
        }
    }

    /// One LV2 instance and its features.
    private final class Instance: PluginInstance {
        private let instance: UnsafeMutablePointer<LilvInstance>
        private let features: Features
        private var active = false

        init(_ instance: UnsafeMutablePointer<LilvInstance>, features: Features) {
            self.instance = instance
            self.features = features
            if let interface = lilv_instance_get_extension_data(instance, URI.workerInterface) {
                features.worker = (interface.assumingMemoryBound(to: LV2_Worker_Interface.self), lilv_instance_get_handle(instance))
            }
        }

        func connect(port: Int, to data: UnsafeMutablePointer<Float>?) {
            lilv_instance_connect_port(instance, UInt32(port), data)
        }

        func activate() {
            lilv_instance_activate(instance)
            active = true
        }

        func deactivate() {
            if active { lilv_instance_deactivate(instance) }
            active = false
        }

        func run(frames: Int) {
            lilv_instance_run(instance, UInt32(frames))
            features.deliverResponses()
        }

        deinit {
            deactivate()
            let instance = instance
            // lilv counts the users of each plugin library in the world, unguarded: a free racing
            // an instantiation could unload a library another instance still runs.
            LilvPlugins.lock.lock()
            defer { LilvPlugins.lock.unlock() }
            lilv_instance_free(instance)
        }
    }
}

/// The LV2 URIs the host uses (the headers build theirs by macro concatenation, which Swift does not import).
private enum URI {
    static let atomAtomPort = "http://lv2plug.in/ns/ext/atom#AtomPort"
    static let atomDouble = "http://lv2plug.in/ns/ext/atom#Double"
    static let atomFloat = "http://lv2plug.in/ns/ext/atom#Float"
    static let atomInt = "http://lv2plug.in/ns/ext/atom#Int"
    static let bufsizeBoundedBlockLength = "http://lv2plug.in/ns/ext/buf-size#boundedBlockLength"
    static let bufsizeFixedBlockLength = "http://lv2plug.in/ns/ext/buf-size#fixedBlockLength"
    static let bufsizeMaxBlockLength = "http://lv2plug.in/ns/ext/buf-size#maxBlockLength"
    static let bufsizeMinBlockLength = "http://lv2plug.in/ns/ext/buf-size#minBlockLength"
    static let bufsizeNominalBlockLength = "http://lv2plug.in/ns/ext/buf-size#nominalBlockLength"
    static let bufsizePowerOf2BlockLength = "http://lv2plug.in/ns/ext/buf-size#powerOf2BlockLength"
    static let coreAudioPort = "http://lv2plug.in/ns/lv2core#AudioPort"
    static let coreCVPort = "http://lv2plug.in/ns/lv2core#CVPort"
    static let coreControlPort = "http://lv2plug.in/ns/lv2core#ControlPort"
    static let coreInputPort = "http://lv2plug.in/ns/lv2core#InputPort"
    static let coreInstrumentPlugin = "http://lv2plug.in/ns/lv2core#InstrumentPlugin"
    static let coreConnectionOptional = "http://lv2plug.in/ns/lv2core#connectionOptional"
    static let coreHardRTCapable = "http://lv2plug.in/ns/lv2core#hardRTCapable"
    static let coreInPlaceBroken = "http://lv2plug.in/ns/lv2core#inPlaceBroken"
    static let coreIsLive = "http://lv2plug.in/ns/lv2core#isLive"
    static let coreToggled = "http://lv2plug.in/ns/lv2core#toggled"
    static let optionsOptions = "http://lv2plug.in/ns/ext/options#options"
    static let parametersSampleRate = "http://lv2plug.in/ns/ext/parameters#sampleRate"
    static let presetsPreset = "http://lv2plug.in/ns/ext/presets#Preset"
    static let uridMap = "http://lv2plug.in/ns/ext/urid#map"
    static let uridUnmap = "http://lv2plug.in/ns/ext/urid#unmap"
    static let workerInterface = "http://lv2plug.in/ns/ext/worker#interface"
    static let workerSchedule = "http://lv2plug.in/ns/ext/worker#schedule"
    static let rdfsLabel = "http://www.w3.org/2000/01/rdf-schema#label"
}
