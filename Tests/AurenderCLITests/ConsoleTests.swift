import Foundation
import PseudoTerminal
import TestSupport
import Testing

/// What a render shows on a terminal: the progress line, and nothing with --quiet.
@Suite struct ConsoleTests {
    /// Runs `aurender` with its standard error on a pseudo-terminal and, when given, `input` on
    /// its standard input, sent only after `delay` seconds; returns the exit status and
    /// everything the terminal received.
    func runOnTerminal(_ arguments: [String], input: Data? = nil, after delay: Double = 0) throws -> (status: Int32, screen: String) {
        var primary: Int32 = -1, terminal: Int32 = -1
        try #require(aurender_open_pseudo_terminal(&primary, &terminal) == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: aurenderPath)
        process.arguments = arguments
        process.standardError = FileHandle(fileDescriptor: terminal, closeOnDealloc: false)
        let standardInput = Pipe()
        if input != nil { process.standardInput = standardInput }
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        close(terminal)
        if let input {
            Thread {
                Thread.sleep(forTimeInterval: delay)
                try? standardInput.fileHandleForWriting.write(contentsOf: input)
                try? standardInput.fileHandleForWriting.close()
            }.start()
        }
        var screen = Data(), chunk = [UInt8](repeating: 0, count: 4096)
        while case let count = read(primary, &chunk, chunk.count), count > 0 { screen.append(contentsOf: chunk[..<count]) }
        close(primary)
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: screen, as: UTF8.self))
    }

    /// A minute and a half of noise, converted by libsamplerate's best sinc (the slowest converter,
    /// as libsoxr finishes too soon to redraw): long enough to draw progress.
    func longRender(_ folder: TemporaryFolder, _ extra: [String]) throws -> [String] {
        try writeFloats(Signal.noise(frames: 90 * 44100, amplitude: 0.3), rate: 44100, to: folder.file("long.wav"))
        return [folder.file("long.wav"), folder.file("out.wav"), "--rate", "96000", "--resampler", "libsamplerate"] + extra
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

    @Test func nothingIsDrawnBeforeTheFirstAudio() throws {
        // The input comes down a pipe after 0.8 s: as on a loaded machine, the render starts late,
        // and a line drawn while it waits would have neither a speed nor a time left to show.
        // libsamplerate's best sinc keeps the render itself long enough to be drawn on any machine.
        let folder = try TemporaryFolder()
        try writeFloats(Signal.noise(frames: 20 * 44100, amplitude: 0.3), rate: 44100, to: folder.file("late.wav"))
        let (status, screen) = try runOnTerminal(["-", folder.file("out.wav"), "--rate", "96000", "--resampler", "libsamplerate"],
                                                 input: bytes(folder.file("late.wav")), after: 0.8)
        #expect(status == 0)
        let updates = screen.split(separator: "\r").filter { !$0.isEmpty }
        #expect(updates.count >= 2, "drawn once the audio comes: \(screen.debugDescription)")
        for update in updates.dropLast() {
            #expect(update.hasPrefix("aurender: -  ") && update.contains("× realtime  ETA ") && update.hasSuffix("\u{1B}[K"),
                    "\(update.debugDescription)")
        }
        #expect(updates.last == "\u{1B}[K")
        #expect(try samples(of: folder.file("out.wav")).samples.count == 20 * 96000)
    }

    @Test func aBatchShowsFilesDoneThenItsSummary() throws {
        let folder = try TemporaryFolder()
        let noise = Signal.noise(frames: 45 * 44100, amplitude: 0.3)
        try writeFloats(noise, rate: 44100, to: folder.file("a.wav"))
        try writeFloats(noise, rate: 44100, to: folder.file("b.wav"))
        let (status, screen) = try runOnTerminal(["-j", "1", "--rate", "96000", "--resampler", "libsamplerate", "-o", folder.file("out"), folder.file("a.wav"), folder.file("b.wav")])
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
