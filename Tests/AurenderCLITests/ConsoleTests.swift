import Foundation
import PseudoTerminal
import TestSupport
import Testing

/// What a render shows on a terminal: the progress line, and nothing with --quiet.
@Suite struct ConsoleTests {
    /// Runs `aurender` with its standard error on a pseudo-terminal; returns the exit status and
    /// everything the terminal received.
    func runOnTerminal(_ arguments: [String]) throws -> (status: Int32, screen: String) {
        var primary: Int32 = -1, terminal: Int32 = -1
        try #require(aurender_open_pseudo_terminal(&primary, &terminal) == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: aurenderPath)
        process.arguments = arguments
        process.standardError = FileHandle(fileDescriptor: terminal, closeOnDealloc: false)
        try process.run()
        close(terminal)
        var screen = Data(), chunk = [UInt8](repeating: 0, count: 4096)
        while case let count = read(primary, &chunk, chunk.count), count > 0 { screen.append(contentsOf: chunk[..<count]) }
        close(primary)
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: screen, as: UTF8.self))
    }

    /// A minute and a half of noise, converted at the best quality: long enough to draw progress.
    func longRender(_ folder: TemporaryFolder, _ extra: [String]) throws -> [String] {
        try writeFloats(Signal.noise(frames: 90 * 44100, amplitude: 0.3), rate: 44100, to: folder.file("long.wav"))
        return [folder.file("long.wav"), folder.file("out.wav"), "--rate", "96000"] + extra
    }

    @Test func aTerminalShowsProgressThenErasesIt() throws {
        let folder = try TemporaryFolder()
        let (status, screen) = try runOnTerminal(try longRender(folder, []))
        #expect(status == 0)
        let updates = screen.split(separator: "\r").filter { !$0.isEmpty }
        #expect(updates.count >= 2, "redrawn as it goes: \(screen.debugDescription)")
        for update in updates.dropLast() {
            #expect(update.hasPrefix("aurender: long.wav  ") && update.contains("× realtime  ETA ") && update.hasSuffix("\u{1B}[K"),
                    "\(update.debugDescription)")
        }
        #expect(updates.last == "\u{1B}[K", "erased at the end, leaving the terminal clean")
        let percents = updates.dropLast().compactMap { $0.split(separator: " ").first { $0.hasSuffix("%") }.flatMap { Int($0.dropLast()) } }
        #expect(percents == percents.sorted() && (percents.last ?? 0) > (percents.first ?? 100), "\(percents)")
    }

    @Test func aBatchShowsFilesDoneThenItsSummary() throws {
        let folder = try TemporaryFolder()
        let noise = Signal.noise(frames: 45 * 44100, amplitude: 0.3)
        try writeFloats(noise, rate: 44100, to: folder.file("a.wav"))
        try writeFloats(noise, rate: 44100, to: folder.file("b.wav"))
        let (status, screen) = try runOnTerminal(["-j", "1", "--rate", "96000", "-o", folder.file("out"), folder.file("a.wav"), folder.file("b.wav")])
        #expect(status == 0)
        let updates = screen.split(separator: "\r").filter { !$0.isEmpty }
        #expect(updates.dropLast().contains { $0.hasPrefix("aurender: 0/2 files  ") || $0.hasPrefix("aurender: 1/2 files  ") },
                "\(screen.debugDescription)")
        #expect(updates.dropLast().allSatisfy { $0.contains("× realtime  ETA ") })
        #expect(updates.last?.hasPrefix("\u{1B}[Kaurender: 2 rendered, 0 skipped, 0 failed; 1:30 of audio in ") == true,
                "the line erased, then the summary: \(updates.last ?? "")")
    }

    @Test func quietDrawsNothingOnATerminal() throws {
        let folder = try TemporaryFolder()
        let (status, screen) = try runOnTerminal(try longRender(folder, ["--quiet"]))
        #expect(status == 0)
        #expect(screen.isEmpty, "\(screen.debugDescription)")
    }

    @Test func quietAndVerboseConflict() throws {
        let result = try aurender(["-q", "-v", fixture("music.wav"), "/tmp/never-written.wav"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("--quiet and --verbose ask for opposite things; give one"))
    }
}
