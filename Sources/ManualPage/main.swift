// Writes aurender's manual page (mdoc) from the command's own help, which the argument
// parser prints as JSON: `aurender --experimental-dump-help | ManualPage DATE > aurender.1`.
// Unlike the parser's generate-manual plugin it keeps paragraphs and indented tables as
// they are written (so groff warns of nothing and no table runs on) and shows defaults.
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

var input: [UInt8] = []
while let line = readLine(strippingNewline: false) { input += Array(line.utf8) }
let tool: ToolDescription
do { tool = try JSONDecoder().decode(ToolDescription.self, from: Data(input)) } catch {
    let message = "ManualPage: standard input is not the JSON of --experimental-dump-help: \(error)\n"
    _ = message.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
    exit(65)
}
let date = CommandLine.arguments.dropFirst().first ?? "January 1, 1970"
print(ManualPage(tool.command, date: date).text, terminator: "")
