import Foundation
import TestSupport
import Testing

/// `--chain` and `--plan json` through the built binary: a chain renders in the order given, as
/// the graph file written in that order does; its mistakes are one line naming the stage, its kind
/// and the field; and the graph file `--plan json` prints renders the same bytes as the flags.
@Suite struct ChainCommandTests {
    /// A folder holding `in.wav` (the music fixture) and `ir.wav` (a short decaying noise), for
    /// runs that name them relative to it.
    static func folderWithInputs() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(atPath: fixture("music.wav"), toPath: folder.file("in.wav"))
        let response = Signal.noise(frames: 4410, amplitude: 0.5, seed: 7).enumerated().map { $1 * Float(4410 - $0) / 4410 }
        try writeFloats(response, rate: 44100, to: folder.file("ir.wav"))
        return folder
    }

    /// Renders `arguments` in `folder`, expecting success.
    static func render(_ arguments: [String], in folder: TemporaryFolder) throws {
        let result = try aurender(arguments, in: folder.path)
        #expect(result.status == 0, "\(arguments): \(result.standardError)")
    }

    /// The bytes of `name` in `folder`.
    static func bytes(_ name: String, in folder: TemporaryFolder) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: folder.file(name)))
    }

    /// A graph file of `in.wav` through `nodes` (JSON objects, in order) into `output`.
    static func graphFile(_ nodes: [String], output: String) -> String {
        let named = ["{\"name\": \"input\", \"type\": \"file\", \"path\": \"in.wav\"}"] + nodes
            + ["{\"name\": \"output\", \"type\": \"output\", \"path\": \"\(output)\"}"]
        let names = named.map { node in String(node.split(separator: "\"")[3]) }
        let connections = zip(names, names.dropFirst()).map { "{\"from\": \"\($0)\", \"to\": \"\($1)\"}" }
        return "{\"nodes\": [\(named.joined(separator: ", "))], \"connections\": [\(connections.joined(separator: ", "))]}"
    }

    @Test func twoChainsDifferingOnlyInOrderDifferAndEachIsItsGraphFile() throws {
        let folder = try Self.folderWithInputs()
        let distortion = "{\"name\": \"distortion\", \"type\": \"distortion\", \"drive\": \"24dB\", \"shape\": \"hard\"}"
        let reverb = "{\"name\": \"reverb\", \"type\": \"reverb\", \"preset\": \"plate\", \"wet\": 50}"
        try Self.render(["in.wav", "drive-first.wav", "--chain", "distortion drive=24dB shape=hard | reverb preset=plate wet=50"], in: folder)
        try Self.render(["in.wav", "room-first.wav", "--chain", "reverb preset=plate wet=50 | distortion drive=24dB shape=hard"], in: folder)
        #expect(try Self.bytes("drive-first.wav", in: folder) != Self.bytes("room-first.wav", in: folder))
        try Data(Self.graphFile([distortion, reverb], output: "drive-first-graph.wav").utf8).write(to: URL(fileURLWithPath: folder.file("a.json")))
        try Data(Self.graphFile([reverb, distortion], output: "room-first-graph.wav").utf8).write(to: URL(fileURLWithPath: folder.file("b.json")))
        try Self.render(["a.json"], in: folder)
        try Self.render(["b.json"], in: folder)
        #expect(try Self.bytes("drive-first.wav", in: folder) == Self.bytes("drive-first-graph.wav", in: folder))
        #expect(try Self.bytes("room-first.wav", in: folder) == Self.bytes("room-first-graph.wav", in: folder))
    }

    @Test func aKindMayComeTwiceAndEachStageIsANodeInTheOrderGiven() throws {
        let folder = try Self.folderWithInputs()
        let chain = "eq preset=Rock | gain gain=-3dB | eq preset=Pop"
        let plan = try aurender(["in.wav", "twice.wav", "--chain", chain, "--dry-run"], in: folder.path)
        #expect(plan.status == 0, "\(plan.standardError)")
        let first = try #require(plan.output.range(of: "--> eq (preset 'Rock', accurate)"), "\(plan.output)")
        let gain = try #require(plan.output.range(of: "--> gain (-3 dB)"), "\(plan.output)")
        let second = try #require(plan.output.range(of: "--> eq 2 (preset 'Pop', accurate)"), "\(plan.output)")
        #expect(first.upperBound < gain.lowerBound && gain.upperBound < second.lowerBound)
        try Self.render(["in.wav", "twice.wav", "--chain", chain], in: folder)
        try Self.render(["in.wav", "once.wav", "--chain", "eq preset=Rock | gain gain=-3dB"], in: folder)
        #expect(try Self.bytes("twice.wav", in: folder) != Self.bytes("once.wav", in: folder))
        let graph = Self.graphFile(["{\"name\": \"eq\", \"type\": \"eq\", \"preset\": \"Rock\"}", "{\"name\": \"gain\", \"type\": \"gain\", \"gain\": \"-3dB\"}",
                                    "{\"name\": \"eq 2\", \"type\": \"eq\", \"preset\": \"Pop\"}"], output: "twice-graph.wav")
        try Data(graph.utf8).write(to: URL(fileURLWithPath: folder.file("twice.json")))
        try Self.render(["twice.json"], in: folder)
        #expect(try Self.bytes("twice.wav", in: folder) == Self.bytes("twice-graph.wav", in: folder))
    }

    @Test func theFlagsAreTheChainInTheLibrarysDefaultOrder() throws {
        let folder = try Self.folderWithInputs()
        try Self.render(["in.wav", "flags.wav", "--reverb", "plate:30", "--gain", "-3", "--eq", "Rock", "--highpass", "120"], in: folder)
        try Self.render(["in.wav", "chain.wav", "--chain",
                         "highpass frequency=120 | eq preset=Rock | gain gain=-3 | reverb preset=plate wet=30"], in: folder)
        #expect(try Self.bytes("flags.wav", in: folder) == Self.bytes("chain.wav", in: folder))
    }

    @Test(arguments: [
        ("highpass frequency=80 | eq preset=Rock | reverb preset=\"large hall\" wet=130",
         "--chain stage 3 (reverb): field 'wet': must be from 0 to 100, not 130"),
        ("eq preset=Rock | gain gain=200", "--chain stage 2 (gain): field 'gain': must be from -96 to 96 dB, not 200"),
        ("highpass frequency=80 q=200", "--chain stage 1 (highpass): field 'q': must be from 0.01 to 100, not 200"),
        ("delay time=5", "--chain stage 1 (delay): field 'time': must be from 0 to 2, not 5"),
        ("eq preset=Rock | gain gain=-3 gain=-4", "--chain stage 2 (gain): field 'gain': given twice"),
        ("gate threshold=-50 | compressor ratio", "--chain stage 2 (compressor): expected FIELD=VALUE, not 'ratio'"),
        ("eq preset=Rock | reverb size=3", "--chain stage 2 (reverb): field 'size': unknown field (reverb takes preset, tail, "),
        ("gain gain=-3 | eq", "--chain stage 2 (eq): field 'preset': missing (the preset: a built-in or user preset by name, or a preset file)"),
        ("gain gain=-3 | echo time=1", "--chain stage 2 (echo): unknown kind (it is one of "),
        ("gain gain=-3 | | eq preset=Rock", "--chain stage 2: empty: write KIND FIELD=VALUE …, as 'eq preset=Rock'"),
        ("reverb preset=\"large hall wet=30", "--chain stage 1 (reverb): a \" is not closed"),
    ])
    func aChainsMistakeNamesTheStageItsKindAndTheField(chain: String, message: String) throws {
        let folder = try Self.folderWithInputs()
        let result = try aurender(["in.wav", "out.wav", "--chain", chain], in: folder.path)
        #expect(result.status == 64)
        let first = result.standardError.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.contains(message), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }

    @Test func aChainWithAnEffectFlagIsRefusedNamingTheFlag() throws {
        let folder = try Self.folderWithInputs()
        let result = try aurender(["in.wav", "out.wav", "--chain", "gain gain=-3", "--eq", "Rock"], in: folder.path)
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix("Error: --chain states the whole processing; give --eq as a stage of it instead\n"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }

    @Test(arguments: [
        [], ["--eq", "Rock"], ["--eq", "Rock", "--preamp", "-3", "--eq-mode", "classic"], ["--eq", "Bass Booster", "--preamp", "auto"],
        ["--eq", "Flat"], ["--gain", "-6"], ["--highpass", "80", "--lowpass", "8k:1"], ["--bass", "+4", "--treble", "-2@8k"],
        ["--filter", "peak@1k:+3:1.4", "--filter", "bandstop@50:8"], ["--gate", "-40:5ms:50ms:200ms:-60"], ["--compress", "-24:4:5ms:200ms:6:3:rms"],
        ["--distort", "12:hard"], ["--distort", "0:crush6"], ["--distort", "3:decimate8"], ["--delay", "250ms:40:30:4k"],
        ["--reverb", "plate:30", "--tail", "2s"], ["--convolve", "ir.wav:30"], ["--convolve", "ir.wav", "--tail", "1s"],
        ["--tempo", "1.25"], ["--pitch", "-3", "--speed", "1.1"], ["--trim-silence", "-50", "--silence-margin", "50ms"],
        ["--denoise", "moderate", "--agc", "-6"], ["--binaural"], ["--speakers", "5.1"],
        ["--plugin", "ladspa:amp_stereo@gain=0.5", "--eq", "Rock", "--plugin-after-eq"],
        ["--rate", "48000"], ["--channels", "1"], ["--rate", "22050", "--channels", "1", "--eq", "Pop"], ["--bits", "24"], ["--bits", "float"],
        ["--type", "au", "--bits", "8"], ["--type", "flac"],
        ["--chain", "reverb preset=plate wet=20 | highpass frequency=120 q=0.5 | eq preset=Rock | eq preset=Pop"],
        ["--eq", "Rock", "--highpass", "100", "--gain", "-3", "--compress", "-18:3", "--reverb", "plate:20", "--tempo", "1.1", "--rate", "48000"],
        ["--dither", "none", "--gain", "-3"], ["--src-quality", "medium", "--rate", "32000"], ["--gain", "6", "--limit", "-1"],
        ["--chain", "limiter ceiling=-3 | gain gain=3", "--limit", "-2"],
        ["--start", "1"], ["--start", "0.5", "--duration", "2"], ["--start", "22050f", "--duration", "1s", "--rate", "48000"], ["--trim", "1,2.5"],
        ["--fade-in", "1"], ["--fade-in", "500ms", "--fade-out", "2s"], ["--fade-in", "2", "--fade-out", "2"],
        ["--fade-in", "1", "--fade-out", "1", "--reverb", "plate:30", "--tail", "1s"], ["--fade-out", "1", "--gain", "6", "--limit", "-1"],
        ["--start", "1", "--fade-in", "1", "--fade-out", "1", "--eq", "Rock"],
        ["--channel-map", "1,0"], ["--mix-matrix", "0.5,0.5"], ["--mix-matrix", "0.7,0.3;0.3,0.7", "--rate", "48000"],
        ["--normalize", "-20"], ["--normalize-peak", "-1"], ["--normalize-peak", "-2dBTP"], ["--normalize", "-10", "--over-ceiling", "lower"],
        ["--normalize", "-8", "--over-ceiling", "limit", "--true-peak", "-1.5"], ["--normalize", "-16", "--over-ceiling", "lower", "--fade-in", "1", "--limit", "-3"],
    ] as [[String]])
    func thePlanAsAGraphFileRendersTheSameBytes(flags: [String]) throws {
        let folder = try Self.folderWithInputs()
        try Self.render(["in.wav", "out.wav"] + flags, in: folder)
        let direct = try Self.bytes("out.wav", in: folder)
        try FileManager.default.removeItem(atPath: folder.file("out.wav"))
        let plan = try aurender(["in.wav", "out.wav", "--plan", "json"] + flags, in: folder.path)
        #expect(plan.status == 0, "\(plan.standardError)")
        try plan.standardOutput.write(to: URL(fileURLWithPath: folder.file("plan.json")))
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")), "a plan renders nothing")
        // Resampling, dither and clipping are the command's settings, not the graph's: given again.
        let settings = zip(flags, flags.dropFirst()).filter { ["--dither", "--src-quality"].contains($0.0) }.flatMap { [$0.0, $0.1] }
        try Self.render(["plan.json"] + settings, in: folder)
        #expect(try Self.bytes("out.wav", in: folder) == direct, "\(flags): \(plan.output)")
    }

    @Test(arguments: ["out.flac", "out.ogg", "out.mp3"])
    func aPlanOfATaggedInputCarriesItsTagsAsTheRenderDoes(output: String) throws {
        let folder = try Self.folderWithInputs()
        try Self.render(["in.wav", "tagged.flac", "--tag", "TITLE=Planned title", "--tag", "ARTIST=Someone"], in: folder)
        try Self.render(["tagged.flac", output, "--eq", "Rock"], in: folder)
        let direct = try Self.bytes(output, in: folder)
        #expect(direct.range(of: Data("Planned title".utf8)) != nil, "the render carries the input's title")
        try FileManager.default.removeItem(atPath: folder.file(output))
        let plan = try aurender(["tagged.flac", output, "--eq", "Rock", "--plan", "json"], in: folder.path)
        #expect(plan.status == 0, "\(plan.standardError)")
        try plan.standardOutput.write(to: URL(fileURLWithPath: folder.file("plan.json")))
        try Self.render(["plan.json"], in: folder)
        #expect(try Self.bytes(output, in: folder) == direct, "the plan's graph carries the same tags into the same bytes")
    }

    @Test(arguments: [
        ("in.wav", "out.m4a", ["--codec", "alac"]), ("in.wav", "out.m4a", ["--codec", "alac", "--bits", "24"]),
        ("in.wav", "out.m4a", ["--codec", "aac", "--bitrate", "128k"]), ("in.wav", "out.audio", ["--type", "m4a", "--codec", "alac"]),
        ("in.raw", "out.wav", ["--input-type", "raw", "--input-rate", "44100", "--input-channels", "2", "--input-bits", "16"]),
        ("in.raw", "out.flac", ["--input-type", "raw", "--input-rate", "44100", "--input-channels", "2", "--input-bits", "16",
                                "--start", "1", "--fade-out", "1", "--mix-matrix", "0.5,0.5"]),
    ] as [(String, String, [String])])
    func thePlanOfACodecOrARawInputRendersTheSameBytes(input: String, output: String, flags: [String]) throws {
        let folder = try Self.folderWithInputs()
        try Self.render(["in.wav", "in.raw"], in: folder)
        try Self.render([input, output] + flags, in: folder)
        let direct = try Self.bytes(output, in: folder)
        try FileManager.default.removeItem(atPath: folder.file(output))
        let plan = try aurender([input, output, "--plan", "json"] + flags, in: folder.path)
        #expect(plan.status == 0, "\(plan.standardError)")
        try plan.standardOutput.write(to: URL(fileURLWithPath: folder.file("plan.json")))
        try Self.render(["plan.json"], in: folder)
        #expect(try Self.bytes(output, in: folder) == direct, "\(flags): \(plan.output)")
    }

    @Test func aMixTakesAChainAfterItsMixer() throws {
        let folder = try Self.folderWithInputs()
        try Self.render(["mix", "in.wav", "ir.wav", "-o", "plain.wav"], in: folder)
        try Self.render(["mix", "in.wav", "ir.wav", "--chain", "eq preset=Rock | gain gain=-6", "-o", "chained.wav"], in: folder)
        #expect(try Self.bytes("plain.wav", in: folder) != Self.bytes("chained.wav", in: folder))
        let plan = try aurender(["mix", "in.wav", "ir.wav", "--chain", "eq preset=Rock | gain gain=-6", "-o", "x.wav", "--dry-run"], in: folder.path)
        #expect(plan.status == 0, "\(plan.standardError)")
        let mixer = try #require(plan.output.range(of: "mixer"), "\(plan.output)")
        let eq = try #require(plan.output.range(of: "eq (preset 'Rock', accurate)"), "\(plan.output)")
        let gain = try #require(plan.output.range(of: "gain (-6 dB)"), "\(plan.output)")
        #expect(mixer.upperBound < eq.lowerBound && eq.upperBound < gain.lowerBound, "\(plan.output)")
        let bad = try aurender(["mix", "in.wav", "ir.wav", "--chain", "eq preset=Rock | gain gain=200", "-o", "bad.wav"], in: folder.path)
        #expect(bad.status == 64)
        #expect(bad.standardError.hasPrefix("Error: --chain stage 2 (gain): field 'gain': must be from -96 to 96 dB, not 200\n"), "\(bad.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("bad.wav")))
    }
}
