import Aurender
import Foundation
import TestSupport
import Testing

/// The chain in Swift against the same chain on the command line: `Chain(…).render` writes the
/// bytes `aurender in.wav out.wav --chain '…'` writes, and a bad value is the same error text.
@Suite struct SwiftChainTests {
    /// A chain as `--chain` text, the same chain as Swift values (given the folder of `in.wav` and
    /// `ir.wav`), and the command's other flags with the options they mean.
    struct Example: CustomTestStringConvertible, Sendable {
        let text: String
        let chain: @Sendable (String) throws -> Chain
        var flags: [String] = []
        var options: @Sendable () -> RenderJob.Options = { RenderJob.Options() }
        var testDescription: String { text }
    }

    static let examples: [Example] = [
        Example(text: "highpass frequency=80 | eq preset=Rock | reverb preset=\"large hall\" wet=30",
                chain: { _ in try Chain(.highpass(80), .eq("Rock"), .reverb(.largeHall, wet: 30)) }),
        Example(text: "eq preset=Rock | gain gain=-3 | eq preset=Pop", chain: { _ in try Chain(.eq("Rock"), .gain(-3), .eq("Pop")) }),
        Example(text: "gate threshold=-50 | compressor threshold=-18 ratio=3 | distortion drive=12 shape=hard | "
                    + "delay time=0.25 feedback=40 wet=30 | convolution impulse=ir.wav wet=30 | lowpass frequency=8000 q=0.7 | limiter ceiling=-1",
                chain: { folder in
                    try Chain(.gate(threshold: -50), .compressor(threshold: -18, ratio: 3), .distortion(drive: 12, shape: .hard),
                              .delay(0.25, feedback: 40, wet: 30), .convolution(folder + "/ir.wav", wet: 30), .lowpass(8000, q: 0.7),
                              .limiter(ceiling: -1))
                }),
        Example(text: "peak frequency=1000 gain=3 q=1.4 | eq preset=Pop preamp=-3 | timepitch tempo=1.25 | timepitch pitch=-2 | timepitch speed=1.1",
                chain: { _ in
                    try Chain(.band(.peak, frequency: 1000, gain: 3, q: 1.4), .eq("Pop", preamp: -3), .tempo(1.25), .pitch(-2), .speed(1.1))
                },
                flags: ["--rate", "48000", "--bits", "24"],
                options: {
                    var options = RenderJob.Options()
                    options.format.sampleRate = 48000
                    options.format.encoding = .pcm24
                    return options
                }),
    ]

    @Test(arguments: examples)
    func theSwiftChainRendersWhatTheCommandLineRenders(example: Example) throws {
        let folder = try ChainCommandTests.folderWithInputs()
        let chain = try example.chain(folder.path)
        #expect(chain == (try Chain(parsing: example.text.replacingOccurrences(of: "impulse=ir.wav", with: "impulse=\(folder.path)/ir.wav"))),
                "the Swift values are the stages the text states")
        try ChainCommandTests.render(["in.wav", "cli.wav", "--chain", example.text] + example.flags, in: folder)
        let summary = try chain.render(input: folder.file("in.wav"), output: folder.file("swift.wav"), options: example.options())
        #expect(summary.frames > 0)
        let written = try ChainCommandTests.bytes("swift.wav", in: folder)
        #expect(written == (try ChainCommandTests.bytes("cli.wav", in: folder)))
        #expect(written != (try ChainCommandTests.bytes("in.wav", in: folder)), "the chain changed the audio")
    }

    @Test func aKindGivenAgainGetsANumberedNameAsOnTheCommandLine() throws {
        let chain = try Chain(.eq("Rock"), .highpass(80), .gain(-3), .eq("Pop"), .highpass(120), .eq("Jazz"))
        #expect(chain.stages.map(\.name) == ["eq", "highpass", "gain", "eq 2", "highpass 2", "eq 3"])
        #expect(chain.stages.map(\.kind) == ["eq", "filter", "gain", "eq", "filter", "eq"])
    }

    /// Each case: a chain of Swift values with a value out of range, and the same chain as `--chain` text.
    static let mistakes: [(String, @Sendable () throws -> Chain)] = [
        ("highpass frequency=80 | eq preset=Rock | reverb preset=\"large hall\" wet=130",
         { try Chain(.highpass(80), .eq("Rock"), .reverb(.largeHall, wet: 130)) }),
        ("eq preset=Rock | gain gain=200", { try Chain(.eq("Rock"), .gain(200)) }),
        ("highpass frequency=80 q=200", { try Chain(.highpass(80, q: 200)) }),
        ("delay time=5", { try Chain(.delay(5)) }),
        ("gain gain=-3 | eq preset=Rock preamp=40", { try Chain(.gain(-3), .eq("Rock", preamp: 40)) }),
        ("timepitch tempo=8", { try Chain(.tempo(8)) }),
        ("eq preset=Rock | lowshelf frequency=100 gain=50", { try Chain(.eq("Rock"), .band(.lowshelf, frequency: 100, gain: 50)) }),
        ("gain gain=-3 | echo time=1", { try Chain(.gain(-3), ChainStage("echo", fields: ["time": .number(1)])) }),
    ]

    @Test(arguments: mistakes.indices)
    func aValueOutOfRangeIsRefusedWithTheCommandLinesText(index: Int) throws {
        let (text, make) = Self.mistakes[index]
        let folder = try ChainCommandTests.folderWithInputs()
        let result = try aurender(["in.wav", "out.wav", "--chain", text], in: folder.path)
        #expect(result.status == 64)
        let error = #expect(throws: ChainError.self) { try make() }
        let line = result.standardError.split(separator: "\n").first.map(String.init)
        #expect(line == "Error: --chain \(error?.description ?? "no error")")
        let parsed = #expect(throws: ChainError.self) { try Chain(parsing: text) }
        #expect(parsed == error, "the text's error is the values' error")
        #expect(folder.contents() == ["in.wav", "ir.wav"], "nothing written")
    }

    @Test func theRoomsAreTheReverbsPresets() {
        #expect(ReverbRoom.allCases.map(\.rawValue) == ReverbPreset.all.map(\.name))
    }
}
