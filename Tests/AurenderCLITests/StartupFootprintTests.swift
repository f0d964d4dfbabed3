import Foundation
import Testing

/// What every run of `aurender` loads before it reads a byte: the libraries a plain WAV copy
/// needs, and none of the large ones only some inputs need.
///
/// FFmpeg's libraries (about 24 MB resident with their dependencies) are opened on first use;
/// full Foundation with ICU (about 8 MB) is not linked at all, FoundationEssentials serves.
@Suite struct StartupFootprintTests {
    /// The shared libraries the dynamic linker loads for the built binary, by file name.
    private func linkedLibraries() throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        process.arguments = [aurenderPath]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return text.split(separator: "\n").compactMap { line in
            line.split(whereSeparator: \.isWhitespace).first.map(String.init)
        }
    }

    @Test func theBinaryLinksNeitherFFmpegNorFullFoundation() throws {
        let libraries = try linkedLibraries()
        #expect(libraries.contains { $0.hasPrefix("libsndfile.so") })
        for unwanted in ["libavformat.so", "libavcodec.so", "libavutil.so", "libFoundation.so", "lib_FoundationICU.so"] {
            #expect(!libraries.contains { $0.hasPrefix(unwanted) }, "\(unwanted) is linked: every run pays for it")
        }
    }
}
