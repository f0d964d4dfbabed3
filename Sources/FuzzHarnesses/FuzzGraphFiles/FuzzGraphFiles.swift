// libFuzzer harness: arbitrary bytes as a graph file, parsed as JSON, checked and built (its
// plan and its dot form), never rendered. Files it names are resolved in a folder holding one
// short WAV (`in.wav`); a graph naming any other path is skipped, so that a seed can never
// make the harness read outside that folder (a device such as /dev/zero would block it).
import Aurender
import AudioNodes
import FuzzSupport
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The graph's folder, with `in.wav`: 0.1 s of stereo 16-bit PCM at 8 kHz.
private let folder: String = {
    let folder = "/tmp/aurender-fuzz-graphs-\(getpid())"
    mkdir(folder, 0o700)
    var wav: [UInt8] = Array("RIFF".utf8) + le32(36 + 3200) + Array("WAVEfmt ".utf8) + le32(16) + [1, 0, 2, 0]
    wav += le32(8000) + le32(32000) + [4, 0, 16, 0] + Array("data".utf8) + le32(3200)
    wav += (0..<1600).flatMap { index in [UInt8(truncatingIfNeeded: index), UInt8(truncatingIfNeeded: index >> 3)] }
    guard FileManager.default.createFile(atPath: folder + "/in.wav", contents: Data(wav)) else { fatalError("cannot write \(folder)/in.wav") }
    return folder
}()

private func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

/// Whether every text in the graph that could be a path stays inside the folder.
private func staysInFolder(_ value: SettingValue) -> Bool {
    switch value {
    case .text(let text): !text.contains("/") && text != "-"
    case .list(let values): values.allSatisfy(staysInFolder)
    case .object(let fields): fields.values.allSatisfy(staysInFolder)
    case .number, .flag: true
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGraphFiles(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let description = try? JSONDecoder().decode(GraphDescription.self, from: Data(bytes: data, count: size)),
          description.nodes.allSatisfy({ $0.fields.values.allSatisfy(staysInFolder) }) else { return 0 }
    let job = GraphJob(description: description, folder: folder, presets: PresetLookup(environment: [:]))
    _ = try? job.plan()
    _ = try? job.dot()
    return 0
}

/// The entry SwiftPM links as `main`.
@_cdecl("FuzzGraphFiles_main")
public func fuzzGraphFilesMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runLibFuzzer(argc, argv) { data, size in fuzzGraphFiles(data, size) }
}
