import ArgumentParser
import Aurender
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The options that make a render print or write its report.
struct ReportOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Write a JSON report of the render (levels, clipping, timing, options) to this file.",
                               valueName: "file.json"))
    var report: String?

    @Flag(help: "Print the JSON report on standard output.")
    var json = false

    /// Prints and writes `report` as asked; the file is written atomically.
    func emit(_ report: RenderReport) throws {
        guard json || self.report != nil else { return }
        let text = try report.json() + "\n"
        if json { print(text, terminator: "") }
        guard let path = self.report else { return }
        do {
            let file = try OutputFile(path: path)
            let written = text.utf8CString.withUnsafeBufferPointer { write(file.fileDescriptor, $0.baseAddress, $0.count - 1) }
            close(file.fileDescriptor)
            guard written == text.utf8.count else {
                file.discard()
                throw RenderError.cannotCreate(path: path, reason: "the report could not be written")
            }
            try file.commit()
        } catch let error as RenderError {
            throw fail(error.description, ExitStatus(error))
        }
    }
}
