import ArgumentParser
import Aurender
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The documented exit codes, after BSD's sysexits.h.
enum ExitStatus: Int32 {
    case clipped = 3
    case usage = 64
    case dataError = 65
    case noInput = 66
    case software = 70
    case cannotCreate = 73
    case ioError = 74

    /// The status a render failure exits with.
    init(_ error: RenderError) {
        switch error {
        case .usage, .sameFile, .unknownContainer, .pathRefused: self = .usage
        case .input(let error): self.init(input: error)
        case .output(let error): self = error.kind == .unsupportedFormat ? .usage : (error.kind == .cannotOpen ? .cannotCreate : .ioError)
        case .cannotCreate: self = .cannotCreate
        case .clipped, .truePeakOver: self = .clipped
        case .silent, .noPeak, .noStoredGain: self = .dataError
        case .graph: self = .software
        }
    }

    /// The status for a failure to open or read an input.
    init(input error: AudioFormatError) {
        switch error.kind {
        case .cannotOpen: self = .noInput
        case .invalidFile, .unsupportedInput, .unsupportedFormat, .declined: self = .dataError
        case .readFailed, .writeFailed, .notSeekable: self = .ioError
        }
    }
}

/// Prints one line on standard error, prefixed with the command's name.
func printError(_ message: String) {
    writeToStandardError("aurender: \(message)\n")
}

/// Writes `text` to standard error whole, with `write(2)` (unbuffered, as C's `stderr` is).
func writeToStandardError(_ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        bytes = bytes.dropFirst(written)
    }
}

/// Prints `message` and ends the command with `status`.
func fail(_ message: String, _ status: ExitStatus) -> ExitCode {
    printError(message)
    return ExitCode(status.rawValue)
}

/// Runs `body` with standard error pointed at /dev/null, then restores it.
///
/// libmpg123, which libsndfile decodes MP3 with, prints its own notes on standard error
/// ("Note: Illegal Audio-MPEG-Header …") and libsndfile offers no way to quiet it; aurender's
/// promise is one line per error, printed after `body` returns.
func withLibraryMessagesSilenced<T>(_ body: () throws -> T) rethrows -> T {
    let saved = dup(STDERR_FILENO)
    let null = open("/dev/null", O_WRONLY)
    guard saved >= 0, null >= 0 else { return try body() }
    dup2(null, STDERR_FILENO)
    close(null)
    defer {
        dup2(saved, STDERR_FILENO)
        close(saved)
    }
    return try body()
}
