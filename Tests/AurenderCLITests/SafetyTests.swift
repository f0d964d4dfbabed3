import Foundation
import TestSupport
import Testing

@Suite struct SafetyTests {
    /// Runs a render expected to fail, and checks the exit status, the one-line message, and
    /// that the output folder holds exactly `remaining` afterwards.
    func expectFailure(_ arguments: [String], status: Int32, message: String, folder: TemporaryFolder,
                       remaining: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try aurender(arguments)
        #expect(result.status == status, "\(result.standardError)", sourceLocation: sourceLocation)
        #expect(result.standardError == "aurender: \(message)\n", sourceLocation: sourceLocation)
        #expect(folder.contents() == remaining, "no temporary or partial file is left", sourceLocation: sourceLocation)
    }

    @Test func missingInput() throws {
        let folder = try TemporaryFolder()
        try expectFailure(["/no/such.wav", folder.file("out.wav")], status: 66,
                          message: "/no/such.wav: No such file or directory", folder: folder)
    }

    @Test func directoryInput() throws {
        let folder = try TemporaryFolder()
        try expectFailure([folder.path, folder.file("out.wav")], status: 66,
                          message: "\(folder.path): is a directory, not a sound file", folder: folder)
    }

    @Test func symlinkLoopInput() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createSymbolicLink(atPath: folder.file("loop.wav"), withDestinationPath: folder.file("loop.wav"))
        try expectFailure([folder.file("loop.wav"), folder.file("out.wav")], status: 66,
                          message: "\(folder.file("loop.wav")): Too many levels of symbolic links", folder: folder,
                          remaining: ["loop.wav"])
    }

    static let brokenInputs: [(String, [UInt8])] = [
        ("empty.wav", []),
        ("garbage.wav", (0..<2048).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 17) }),
        ("text.wav", Array("just some text\n".utf8)),
        ("zero-channels.wav", WaveFile.bytes(channels: 0, sampleRate: 44100, data: [0, 0])),
        ("many-channels.wav", WaveFile.bytes(channels: 65535, sampleRate: 44100, data: [0, 0])),
        ("zero-hz.wav", WaveFile.bytes(channels: 1, sampleRate: 0, data: [0, 0])),
        ("max-hz.wav", WaveFile.bytes(channels: 1, sampleRate: 4_294_967_295, data: [0, 0])),
    ]

    @Test(arguments: brokenInputs.map(\.0))
    func brokenInputIsRefusedCleanly(_ name: String) throws {
        let folder = try TemporaryFolder()
        let input = folder.file(name)
        try WaveFile.write(Self.brokenInputs.first { $0.0 == name }!.1, to: input)
        let original = bytes(input)
        try WaveFile.write(Array("keep me".utf8), to: folder.file("out.wav"))
        let result = try aurender([input, folder.file("out.wav")])
        #expect(result.status == 65, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("aurender: \(input): "))
        #expect(result.standardError.filter { $0 == "\n" }.count == 1)
        #expect(!result.standardError.contains("Fatal") && !result.standardError.contains("Stack"))
        #expect(folder.contents() == [name, "out.wav"].sorted())
        #expect(bytes(folder.file("out.wav")) == Data("keep me".utf8), "an existing output is untouched")
        #expect(bytes(input) == original, "the input is untouched")
    }

    @Test func decoderChatterStaysOffStandardError() throws {
        let folder = try TemporaryFolder()
        let noise = (0..<60_000).map { UInt8(truncatingIfNeeded: ($0 &* 2654435761) >> 13) }
        try WaveFile.write(noise, to: folder.file("noise.mp3"))
        for arguments in [[folder.file("noise.mp3"), folder.file("out.wav")], ["info", folder.file("noise.mp3")]] {
            let result = try aurender(arguments)
            #expect(result.status == 65)
            #expect(result.standardError == "aurender: \(folder.file("noise.mp3")): not audio libsndfile can decode (unrecognised or damaged)\n")
        }
    }

    @Test func refusesToOverwriteTheInput() throws {
        let folder = try TemporaryFolder()
        let input = folder.file("in.wav")
        try FileManager.default.copyItem(atPath: fixture("speech.wav"), toPath: input)
        try FileManager.default.linkItem(atPath: input, toPath: folder.file("hard.wav"))
        try FileManager.default.createSymbolicLink(atPath: folder.file("soft.wav"), withDestinationPath: input)
        let original = bytes(input)
        for output in [input, folder.path + "/./in.wav", folder.file("hard.wav"), folder.file("soft.wav")] {
            let result = try aurender([input, output])
            #expect(result.status == 64)
            #expect(result.standardError == "aurender: \(output): is the same file as the input \(input); refusing to overwrite an input\n")
        }
        #expect(bytes(input) == original)
        #expect(folder.contents() == ["hard.wav", "in.wav", "soft.wav"])
    }

    @Test func missingOutputFolder() throws {
        let folder = try TemporaryFolder()
        try expectFailure([fixture("speech.wav"), folder.file("no/such/out.wav")], status: 73,
                          message: "\(folder.file("no/such/out.wav")): cannot create output: No such file or directory", folder: folder)
    }

    @Test func outputIsADirectory() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("dir.wav"), withIntermediateDirectories: false)
        try expectFailure([fixture("speech.wav"), folder.file("dir.wav")], status: 73,
                          message: "\(folder.file("dir.wav")): cannot create output: is a directory", folder: folder,
                          remaining: ["dir.wav"])
    }

    @Test func fullDiskFailsCleanly() throws {
        let result = try aurender([fixture("music.wav"), "/dev/full", "--type", "au"])
        #expect(result.status == 74)
        #expect(result.standardError == "aurender: /dev/full: No space left on device\n")
    }

    @Test func unknownContainerIsAUsageError() throws {
        let folder = try TemporaryFolder()
        let result = try aurender([fixture("speech.wav"), folder.file("out.xyz")])
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix("aurender: \(folder.file("out.xyz")): cannot tell the output container from the name; use --type ("))
        #expect(folder.contents().isEmpty)
    }

    @Test func impossibleEncodingIsAUsageError() throws {
        let folder = try TemporaryFolder()
        try expectFailure([fixture("speech.wav"), folder.file("out.flac"), "--bits", "float"], status: 64,
                          message: "\(folder.file("out.flac")): FLAC (Free Lossless Audio Codec) cannot hold 32 bit float at 22050 Hz with 1 channels",
                          folder: folder)
    }

    @Test func badOptionsAreUsageErrors() throws {
        let folder = try TemporaryFolder()
        let badBits = try aurender([fixture("speech.wav"), folder.file("o.wav"), "--bits", "12"])
        #expect(badBits.status == 64)
        #expect(badBits.standardError.contains("--bits"))
        let badSlice = try aurender([fixture("speech.wav"), folder.file("o.wav"), "--frames-per-slice", "0"])
        #expect(badSlice.status == 64)
        #expect(badSlice.standardError.contains("--frames-per-slice must be from 1 to 1048576, not 0"))
        #expect(folder.contents().isEmpty)
    }
}

@Suite struct InterruptTests {
    /// A render waiting on a standard input that never ends, interrupted by `signal`.
    func interruptedRender(sendSignal: (Process) -> Void) throws -> (status: Int32, left: [String]) {
        let folder = try TemporaryFolder()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: aurenderPath)
        process.arguments = ["-", folder.file("out.wav"), "--input-type", "raw", "--input-rate", "44100",
                             "--input-channels", "2", "--input-bits", "16"]
        let input = Pipe()
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data(count: 4000))
        var waited = 0
        while unnamedFiles(openBy: process.processIdentifier, in: folder.path) == 0, waited < 500 {
            usleep(10_000)
            waited += 1
        }
        #expect(folder.contents().isEmpty && unnamedFiles(openBy: process.processIdentifier, in: folder.path) == 1,
                "the render has started, into an unnamed file")
        sendSignal(process)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        return (process.terminationStatus, folder.contents())
    }

    @Test func interruptRemovesTheTemporaryFile() throws {
        let interrupted = try interruptedRender { $0.interrupt() }
        #expect(interrupted.status == 130)
        #expect(interrupted.left.isEmpty)
        let terminated = try interruptedRender { $0.terminate() }
        #expect(terminated.status == 143)
        #expect(terminated.left.isEmpty)
    }

    @Test func interruptingABatchKeepsFinishedOutputsAndRemovesTheRest() throws {
        // Two raw inputs, two jobs: one a file that finishes, one a pipe that never ends.
        let folder = try TemporaryFolder()
        let pcm = Data((0..<88200).map { UInt8(truncatingIfNeeded: $0 &* 37) })
        try pcm.write(to: URL(fileURLWithPath: folder.file("done.raw")))
        #expect(mkfifo(folder.file("endless.raw"), 0o600) == 0)
        let feeder = open(folder.file("endless.raw"), O_RDWR)
        defer { close(feeder) }
        _ = Data(count: 8000).withUnsafeBytes { write(feeder, $0.baseAddress, 8000) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: aurenderPath)
        process.arguments = ["-j", "2", "-o", folder.file("out"), folder.file("done.raw"), folder.file("endless.raw"),
                             "--input-type", "raw", "--input-rate", "44100", "--input-channels", "2", "--input-bits", "16"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        func outputs() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: folder.file("out")))?.sorted() ?? [] }
        var waited = 0
        func underWay() -> Int { unnamedFiles(openBy: process.processIdentifier, in: folder.file("out")) }
        while !(outputs() == ["done.raw"] && underWay() == 1), waited < 500 {
            usleep(10_000)
            waited += 1
        }
        #expect(outputs() == ["done.raw"] && underWay() == 1, "one output done, one under way: \(outputs())")
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(outputs() == ["done.raw"])
        #expect(bytes(folder.file("out/done.raw")) == pcm, "the finished output is whole")
    }
}
