// libFuzzer harness: the values users type, chosen by the first byte: times (TimeValue, then
// converted to frames and seconds at common rates), levels and frequencies (ValueSyntax),
// mixing matrices (ChannelMatrix.parse), channel maps (as --channel-map splits them, then
// ChannelMatrix.selecting) and mix input specs' settings (`path@gain=…,pan=…,start=…,eq=…`,
// each value through the parser the mix command uses).
import AudioDSP
import AudioNodes
import FuzzSupport

/// The rates a time is converted at: the lowest and highest a user can ask for, and two common ones.
/// The built-in presets; a broken embedded table stops the harness, as it is a build defect.
private let builtInPresets = try! EQPresetLibrary.builtIn

private let rates: [Double] = [1, 8000, 44100, 48000, 768_000]

private func time(_ text: String) {
    guard let value = TimeValue(text) else { return }
    for rate in rates {
        _ = value.frames(at: rate)
        _ = value.seconds(at: rate)
    }
}

private func matrix(_ text: String) {
    guard let matrix = try? ChannelMatrix.parse(text) else { return }
    _ = matrix.isIdentity
    _ = matrix.description
}

private func channelMap(_ text: String, inputCount: Int) {
    let fields = text.split(separator: ",").map { Int($0.filter { $0 != " " }) }
    guard fields.allSatisfy({ $0 != nil }) else { return }
    _ = try? ChannelMatrix.selecting(fields.map { $0! }, inputCount: inputCount)
}

private func mixSpec(_ text: String) {
    guard let at = text.lastIndex(of: "@") else { return }
    for setting in text[text.index(after: at)...].split(separator: ",") {
        let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { continue }
        switch parts[0] {
        case "gain": _ = ValueSyntax.level(parts[1])
        case "pan": _ = Double(parts[1])
        case "start": time(parts[1])
        case "eq": _ = EQPresetLibrary.find(parts[1], in: builtInPresets)
            _ = EQPresetLibrary.nearestNames(to: parts[1], in: builtInPresets)
        default: continue
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArguments(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    switch data[0] % 6 {
    case 0: time(text)
    case 1: _ = ValueSyntax.level(text)
    case 2: _ = ValueSyntax.hertz(text)
    case 3: matrix(text)
    case 4: channelMap(text, inputCount: Int(data[0] / 6) % 9)
    default: mixSpec(text)
    }
    return 0
}

/// The entry SwiftPM links as `main`.
@_cdecl("FuzzArguments_main")
public func fuzzArgumentsMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runLibFuzzer(argc, argv) { data, size in fuzzArguments(data, size) }
}
