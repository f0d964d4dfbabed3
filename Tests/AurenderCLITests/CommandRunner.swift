import Foundation
import Synchronization
import SoundFile
import TestSupport

/// What one run of the built `aurender` binary did.
struct CommandResult {
    var status: Int32
    var standardOutput: Data
    var standardError: String
    var output: String { String(decoding: standardOutput, as: UTF8.self) }
}

/// The `aurender` binary SwiftPM built beside this test executable.
let aurenderPath: String = {
    let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("aurender").path
}()

/// Runs `aurender` with `arguments`, feeding `input` on standard input (as much of it as the
/// command reads: one that exits early must not kill the tests with SIGPIPE); `environment`
/// adds variables to the test's own.
func aurender(_ arguments: [String], input: Data? = nil, in folder: String? = nil,
              environment: [String: String] = [:]) throws -> CommandResult {
    signal(SIGPIPE, SIG_IGN)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: aurenderPath)
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
    if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    let stdout = Pipe(), stderr = Pipe(), stdin = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = stdin
    try process.run()
    let writer = Thread {
        if let input { try? stdin.fileHandleForWriting.write(contentsOf: input) }
        try? stdin.fileHandleForWriting.close()
    }
    writer.start()
    let outputData = Mutex(Data())
    let outputRead = DispatchSemaphore(value: 0)
    Thread {
        let read = stdout.fileHandleForReading.readDataToEndOfFile()
        outputData.withLock { $0 = read }
        outputRead.signal()
    }.start()
    let errorData = stderr.fileHandleForReading.readDataToEndOfFile()
    outputRead.wait()
    process.waitUntilExit()
    return CommandResult(status: process.terminationStatus, standardOutput: outputData.withLock { $0 },
                         standardError: String(decoding: errorData, as: UTF8.self))
}

/// All samples of a file, interleaved, as Float32.
func samples(of path: String) throws -> (format: StreamFormatSummary, samples: [Float]) {
    let reader = try SoundFileReader(path: path)
    var result: [Float] = []
    var chunk = [Float](repeating: 0, count: 4096 * reader.format.channelCount)
    while true {
        let frames = try chunk.withUnsafeMutableBufferPointer { try reader.read(into: $0.baseAddress!, frames: 4096) }
        result.append(contentsOf: chunk.prefix(frames * reader.format.channelCount))
        if frames < 4096 { break }
    }
    return (StreamFormatSummary(type: reader.type, encoding: reader.encoding, rate: reader.format.sampleRate,
                                channels: reader.format.channelCount), result)
}

/// The parts of a file's format the tests compare.
struct StreamFormatSummary: Equatable {
    var type: SoundFileType
    var encoding: SoundFileEncoding
    var rate: Double
    var channels: Int
}

func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

/// Writes interleaved float samples of `channels` channels at `rate` to a WAV file at `path`.
func writeFloats(_ samples: [Float], channels: Int = 1, rate: Int, to path: String) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let writer = try SoundFileWriter(fileDescriptor: descriptor, path: path, type: .wav, encoding: .float,
                                     sampleRate: rate, channelCount: channels)
    try samples.withUnsafeBufferPointer { try writer.write($0.baseAddress!, frames: samples.count / channels) }
    try writer.finish()
}
