// libFuzzer harness: arbitrary bytes as an EQ preset, a JSON file (first byte even) or a TSV
// table (first byte odd); each preset parsed is designed into a graphic EQ at 8 kHz and
// designed (its filters' resources allocated) and looked up by its own name, as a user's preset folder would be.
import AudioGraph
import AudioNodes
import FuzzSupport
import FoundationEssentials

/// The built-in presets; a broken embedded table stops the harness, as it is a build defect.
private let builtInPresets = try! EQPresetLibrary.builtIn

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPresets(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let body = Data(bytes: data + 1, count: size - 1)
    let presets: [EQPreset]
    if data[0] % 2 == 0 {
        guard let preset = try? EQPresetLibrary.parseJSON(body, source: "fuzz.json", defaultName: "fuzz") else { return 0 }
        presets = [preset]
    } else {
        guard let table = try? EQPresetLibrary.parseTable(String(decoding: body, as: UTF8.self), source: "fuzz.tsv") else { return 0 }
        presets = table
    }
    for preset in presets {
        _ = EQPresetLibrary.find(preset.name, in: presets + builtInPresets)
        _ = EQPresetLibrary.nearestNames(to: preset.name, in: presets + builtInPresets)
        guard let node = try? GraphicEQNode(presets: [preset], mode: data[0] % 4 < 2 ? .accurate : .classic) else { continue }
        let format = StreamFormat(sampleRate: 8000, channelCount: 1)
        _ = try? node.setStreamFormat(format, scope: Scope.input, bus: 0)
        _ = try? node.setStreamFormat(format, scope: Scope.output, bus: 0)
        _ = try? node.allocateRenderResources()
    }
    return 0
}

/// The entry SwiftPM links as `main`.
@_cdecl("FuzzPresets_main")
public func fuzzPresetsMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runLibFuzzer(argc, argv) { data, size in fuzzPresets(data, size) }
}
