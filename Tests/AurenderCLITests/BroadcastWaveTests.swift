import Foundation
import TestSupport
import Testing

/// Broadcast WAV `bext`, iXML and markers carried from input to output, the time reference and
/// the markers moved with the audio; the inputs written chunk by chunk by the test and the
/// outputs read back by the test's own chunk parser.
@Suite struct BroadcastWaveTests {
    typealias Files = BroadcastWaveFiles
    static let rate: UInt32 = 44_100
    /// One hour past midnight, at the input's rate.
    static let timeReference: UInt64 = 158_760_000
    static let ixml = Array("<?xml version=\"1.0\"?><BWFXML><SCENE>12A</SCENE><TAKE>3</TAKE><TRACK_LIST><TRACK><NAME>Boom</NAME></TRACK></TRACK_LIST></BWFXML>".utf8)
    static let markers: [Files.Marker] = [
        .init(frame: 22_050, label: "Early"),
        .init(frame: 66_150, label: "Slate", note: "take 2"),
        .init(frame: 88_200, label: "Verse", regionLength: 44_100),
        .init(frame: 132_300, label: "Tail", regionLength: 39_690),
    ]
    static let bext = Files.bext(description: "Scene 12A take 3", originator: "Recorder X", reference: "REF-0042", date: "2026-11-28",
                                 time: "10:30:00", timeReference: timeReference, umid: Array(1...32), loudness: [-2300, 700, -100, -1800, -2000],
                                 codingHistory: "A=PCM,F=44100,W=16,M=mono,T=Recorder X\r\n")

    /// Four seconds of a 440 Hz tone at 44.1 kHz with `bext`, iXML and the markers (or the chunks given).
    static func input(in folder: TemporaryFolder, chunks: [Files.Chunk]? = nil, samples: [Int16]? = nil) throws -> String {
        let tone = samples ?? Self.tone()
        let path = folder.file("in.wav")
        let before = chunks ?? ([Files.Chunk("bext", bext), Files.Chunk("iXML", ixml)] + Files.cue(markers))
        try WaveFile.write(Files.wave(samples: tone, sampleRate: rate, before: before), to: path)
        return path
    }

    /// Four seconds of 440 Hz at 44.1 kHz.
    static func tone() -> [Int16] {
        (0..<176_400).map { (frame: Int) -> Int16 in
            let phase = 2 * Double.pi * 440 * Double(frame) / 44_100
            return Int16(8000 * sin(phase))
        }
    }

    static func body(_ id: String, in chunks: [Files.Chunk]) -> [UInt8]? { chunks.first { $0.id == id }?.body }

    /// `bext` as expected after a move: the same bytes but for the time reference.
    static func bext(movedTo reference: UInt64) -> [UInt8] {
        var moved = bext
        moved.replaceSubrange(338..<346, with: Files.little(reference))
        return moved
    }

    @Test(arguments: ["wav", "rf64", "w64"])
    func aBWFRenderedFromOneSecondAt48kHzHasItsTimeReferenceMovedAndRescaled(_ type: String) throws {
        let folder = try TemporaryFolder()
        let input = try Self.input(in: folder)
        let before = bytes(input)
        let output = folder.file("out.\(type)")
        let result = try aurender(["--start", "1s", "--rate", "48000", input, output])
        #expect(result.status == 0)
        #expect(bytes(input) == before, "the input is never touched")
        let chunks = try Files.chunks(of: output)
        let bext = try #require(Self.body("bext", in: chunks))
        #expect(Files.timeReference(bext) == (Self.timeReference + 44_100) * 48_000 / 44_100)
        #expect(Files.timeReference(bext) == 172_848_000)
        #expect(bext == Self.bext(movedTo: 172_848_000), "every other byte of bext is carried verbatim")
        #expect(Self.body("iXML", in: chunks) == Self.ixml)
        if type == "w64" {
            #expect(result.standardError == "aurender: \(output): 3 markers not kept: aurender writes no markers into W64 files\n")
        } else {
            #expect(result.standardError == "")
            let markers = Files.markers(in: chunks)
            #expect(markers.map(\.label) == ["Slate", "Verse", "Tail"], "the marker before the excerpt is dropped")
            #expect(markers.map(\.frame) == [24_000, 48_000, 96_000])
            #expect(markers.map(\.regionLength) == [0, 48_000, 43_200])
            #expect(markers[0].note == "take 2")
        }
        let rendered = try samples(of: output)
        #expect(rendered.samples.count == 144_000, "the audio is whole")
    }

    @Test func markersLandOnTheSameInstantAfterATrimATempoAndARate() throws {
        let folder = try TemporaryFolder()
        let input = try Self.input(in: folder)
        let output = folder.file("out.wav")
        let result = try aurender(["--trim", "1s,3.5s", "--tempo", "1.25", "--rate", "48000", input, output])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        let chunks = try Files.chunks(of: output)
        let markers = Files.markers(in: chunks)
        let frames = try samples(of: output).samples.count
        #expect(abs(frames - 96_000) <= 1)
        #expect(markers.map(\.label) == ["Slate", "Verse", "Tail"])
        // (1.5 s − 1 s) ÷ 1.25 = 0.4 s; (2 s − 1 s) ÷ 1.25 = 0.8 s for 0.8 s; the tail's region from 1.6 s is clipped at the end.
        for (marker, expected) in zip(markers, [(19_200, 0), (38_400, 38_400), (76_800, UInt32(frames) - 76_800)] as [(UInt32, UInt32)]) {
            #expect(abs(Int(marker.frame) - Int(expected.0)) <= 1, "\(marker.label) at \(marker.frame), not \(expected.0)")
            #expect(abs(Int(marker.regionLength) - Int(expected.1)) <= 1, "\(marker.label) lasts \(marker.regionLength), not \(expected.1)")
        }
        let bext = try #require(Self.body("bext", in: chunks))
        #expect(Files.timeReference(bext) == 172_848_000, "a tempo change leaves the time reference of the first frame")
    }

    @Test func markersGoIntoAIFFAndBackIntoWAV() throws {
        let folder = try TemporaryFolder()
        let input = try Self.input(in: folder)
        let aiff = folder.file("out.aiff")
        let result = try aurender([input, aiff])
        #expect(result.status == 0)
        #expect(result.standardError == "aurender: \(aiff): bext and iXML not kept: AIFF holds no Broadcast WAV chunk; "
                + "2 regions kept as points: AIFF markers have no length\n")
        let marked = Files.markers(in: try Files.chunks(of: aiff))
        #expect(marked == Self.markers.map { Files.Marker(frame: $0.frame, label: $0.label) })
        let back = folder.file("back.wav")
        let again = try aurender([aiff, back])
        #expect(again.status == 0)
        #expect(again.standardError == "")
        #expect(Files.markers(in: try Files.chunks(of: back)) == marked)
    }

    @Test func anOutputThatHoldsNoBroadcastChunkNamesWhatItLostAndNoTagsDropsItSilently() throws {
        let folder = try TemporaryFolder()
        let input = try Self.input(in: folder)
        let flac = folder.file("out.flac")
        let result = try aurender([input, flac])
        #expect(result.status == 0)
        #expect(result.standardError == "aurender: \(flac): bext and iXML not kept: FLAC holds no Broadcast WAV chunk; "
                + "1 region end not kept: FLAC cue sheet tracks run on to the next one; 4 marker labels not kept: a FLAC cue sheet holds no text; "
                + "1 marker note not kept: a FLAC cue sheet holds no text\n")
        let plain = folder.file("plain.wav")
        let silent = try aurender(["--no-tags", input, plain])
        #expect(silent.status == 0)
        #expect(silent.standardError == "")
        #expect(try Files.chunks(of: plain).map(\.id) == ["fmt ", "data"])
    }

    @Test func aCodingHistoryLineIsAddedOnlyWhenAsked() throws {
        let folder = try TemporaryFolder()
        let input = try Self.input(in: folder)
        let output = folder.file("out.wav")
        let result = try aurender(["--bext-history", "--rate", "48000", "--bits", "24", input, output])
        #expect(result.status == 0)
        let bext = try #require(Self.body("bext", in: try Files.chunks(of: output)))
        let history = String(decoding: bext[602...], as: UTF8.self)
        let version = try aurender(["--version"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(history == "A=PCM,F=44100,W=16,M=mono,T=Recorder X\r\nA=PCM,F=48000,W=24,M=mono,T=aurender \(version)\r\n")
        let plain = folder.file("plain.wav")
        #expect(try aurender([input, plain]).status == 0)
        let plainChunks = try Files.chunks(of: plain)
        #expect(Self.body("bext", in: plainChunks) == Self.bext, "nothing is added unasked")
        let bareFolder = try TemporaryFolder()
        let bare = try Self.input(in: bareFolder, chunks: [])
        let refused = try aurender(["--bext-history", bare, folder.file("bare.wav")])
        #expect(refused.status == 64)
        #expect(refused.standardError == "aurender: \(bare): holds no bext chunk to add a coding history line to\n")
        #expect(!FileManager.default.fileExists(atPath: folder.file("bare.wav")))
        let planned = try aurender(["--bext-history", input, folder.file("planned.wav"), "--plan", "json"])
        #expect(planned.status == 64)
        #expect(planned.standardError == "aurender: \(folder.file("planned.wav")): a graph file cannot state a bext coding history line for the render yet\n")
    }

    @Test func aPlansGraphMovesTheMarkersAsTheRenderDoes() throws {
        let folder = try TemporaryFolder()
        let input = try Self.input(in: folder)
        let direct = folder.file("direct.wav"), planned = folder.file("planned.wav")
        let flags = ["--tempo", "1.25", "--rate", "48000"]
        #expect(try aurender(flags + [input, direct]).status == 0)
        let plan = try aurender(flags + [input, planned, "--plan", "json"])
        #expect(plan.status == 0, "\(plan.standardError)")
        try plan.standardOutput.write(to: URL(fileURLWithPath: folder.file("plan.json")))
        #expect(try aurender([folder.file("plan.json")]).status == 0)
        #expect(bytes(planned) == bytes(direct), "the plan's graph carries bext, iXML and the moved markers into the same bytes")
        let markers = Files.markers(in: try Files.chunks(of: planned))
        #expect(markers.map(\.frame) == [19_200, 57_600, 76_800, 115_200], "0.5, 1.5, 2 and 3 s of the input, at 48 kHz, ÷ 1.25")
    }

    @Test func markersFollowASpeedChangeAndTagsGoBesideTheChunks() throws {
        let folder = try TemporaryFolder()
        let input = try Self.input(in: folder)
        let output = folder.file("out.wav")
        let result = try aurender(["--speed", "2", "--tag", "TITLE=Fast", input, output])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        let chunks = try Files.chunks(of: output)
        #expect(chunks.contains { $0.id == "id3 " || $0.id == "LIST" && $0.body.starts(with: Array("INFO".utf8)) }, "TagLib wrote the tags")
        #expect(Self.body("iXML", in: chunks) == Self.ixml)
        let markers = Files.markers(in: chunks)
        #expect(markers.map(\.frame) == [11_025, 33_075, 44_100, 66_150], "twice as fast: every marker at half its time")
        #expect(markers.map(\.regionLength) == [0, 0, 22_050, 19_845])
        let info = try aurender(["info", output])
        #expect(info.output.contains("TITLE = Fast"))
        #expect(info.output.contains("time reference: 158760000 frames"))
    }

    @Test func anOutputToAPipeNamesWhatItCannotCarry() throws {
        let folder = try TemporaryFolder()
        let input = try Self.input(in: folder)
        let result = try aurender([input, "-", "--type", "au"])
        #expect(result.status == 0)
        #expect(result.standardError == "aurender: -: bext, iXML and markers not kept: an output to a pipe or device carries none\n")
        #expect(result.standardOutput.count > 176_400 * 2)
    }

    @Test func damagedBextAndCueChunksWarnAndTheAudioAndIXMLComeWhole() throws {
        let folder = try TemporaryFolder()
        // A bext too short for its fields, and a cue chunk stating more points than it holds
        // (more than libsndfile reads, so it skips the chunk as this test's reader must).
        let damagedCue = Files.little(UInt32(3000)) + [UInt8](repeating: 0, count: 24)
        let input = try Self.input(in: folder, chunks: [Files.Chunk("bext", Array(Self.bext.prefix(100))), Files.Chunk("iXML", Self.ixml),
                                                       Files.Chunk("cue ", damagedCue)])
        let output = folder.file("out.wav")
        let result = try aurender([input, output])
        #expect(result.status == 0)
        #expect(result.standardError == "aurender: \(input): markers and Broadcast WAV chunks not all read: the bext chunk holds 100 bytes, "
                + "fewer than the 602 of its fields; the cue chunk states 3000 points but holds room for 1\n")
        let chunks = try Files.chunks(of: output)
        #expect(Self.body("iXML", in: chunks) == Self.ixml)
        #expect(Self.body("bext", in: chunks) == nil)
        #expect(try samples(of: output).samples == (try samples(of: input)).samples)
    }

    @Test func trimmingSilenceMovesTheTimeReferenceByTheFramesCut() throws {
        let folder = try TemporaryFolder()
        let samples = [Int16](repeating: 0, count: 44_100) + (0..<88_200).map { $0 % 100 < 50 ? Int16(8000) : Int16(-8000) }
        let input = try Self.input(in: folder, chunks: [Files.Chunk("bext", Self.bext)], samples: samples)
        let output = folder.file("out.wav")
        let result = try aurender(["--trim-silence", "-60", input, output])
        #expect(result.status == 0)
        let bext = try #require(Self.body("bext", in: try Files.chunks(of: output)))
        // The audio starts at 1 s; the trim keeps its 0.1 s margin before it.
        #expect(Files.timeReference(bext) == Self.timeReference + 44_100 - 4_410)
    }

    @Test func infoShowsTheBextFieldsIXMLAndMarkers() throws {
        let folder = try TemporaryFolder()
        let input = try Self.input(in: folder)
        let text = try aurender(["info", input])
        #expect(text.status == 0)
        for line in ["Bext        : description: Scene 12A take 3", "originator: Recorder X", "reference: REF-0042",
                     "origination: 2026-11-28 10:30:00", "time reference: 158760000 frames (01:00:00.000)",
                     "loudness: -23.0 LUFS integrated, 7.0 LU range, -1.0 dBTP maximum true peak",
                     "coding history: A=PCM,F=44100,W=16,M=mono,T=Recorder X",
                     "iXML        : \(Self.ixml.count) bytes", "Markers     : 0.5 s (frame 22050) \"Early\"",
                     "1.5 s (frame 66150) \"Slate\", note \"take 2\"", "region from 2.0 s (frame 88200), 1.0 s (44100 frames) \"Verse\""] {
            #expect(text.output.contains(line), "\(line) in \(text.output)")
        }
        let json = try aurender(["info", "--json", input])
        #expect(json.status == 0)
        let files = try #require(try JSONSerialization.jsonObject(with: json.standardOutput) as? [[String: Any]])
        let bext = try #require(files.first?["broadcastExtension"] as? [String: Any])
        #expect(bext["timeReference"] as? Int == 158_760_000)
        #expect(bext["originatorReference"] as? String == "REF-0042")
        #expect(bext["version"] as? Int == 2)
        #expect((bext["umid"] as? String)?.hasPrefix("0102030405") == true)
        #expect(files.first?["ixml"] as? String == String(decoding: Self.ixml, as: UTF8.self))
        let markers = try #require(files.first?["markers"] as? [[String: Any]])
        #expect(markers.map { $0["frame"] as? Int } == [22_050, 66_150, 88_200, 132_300])
        #expect(markers.map { $0["lengthFrames"] as? Int } == [0, 0, 44_100, 39_690])
        #expect(markers.map { $0["label"] as? String } == ["Early", "Slate", "Verse", "Tail"])
    }

    @Test func aBextFFmpegWroteMovesWithTheAudio() throws {
        guard TaggedFiles.hasTool("ffmpeg") else { return }
        let folder = try TemporaryFolder()
        let input = folder.file("ffmpeg.wav")
        let made = try TaggedFiles.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=3",
                                                  "-c:a", "pcm_s16le", "-write_bext", "1", "-metadata", "time_reference=\(Self.timeReference)",
                                                  "-metadata", "description=From FFmpeg", "-metadata", "originator=Tester", input])
        #expect(made != nil)
        let output = folder.file("out.wav")
        let result = try aurender(["--start", "1s", "--rate", "48000", input, output])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        let bext = try #require(Self.body("bext", in: try Files.chunks(of: output)))
        #expect(Files.timeReference(bext) == 172_848_000)
        #expect(String(decoding: bext[0..<256].prefix { $0 != 0 }, as: UTF8.self) == "From FFmpeg")
        #expect(String(decoding: bext[256..<288].prefix { $0 != 0 }, as: UTF8.self) == "Tester")
    }

    @Test func theReportSaysWhichChunksAndMarkersTheOutputHolds() throws {
        let folder = try TemporaryFolder()
        let input = try Self.input(in: folder)
        func carried(_ arguments: [String]) throws -> [String: Any] {
            let result = try aurender(["-q", "--json"] + arguments)
            #expect(result.status == 0)
            let report = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
            return try #require((report["metadata"] as? [String: Any])?["carried"] as? [String: Any])
        }
        let wave = try carried([input, folder.file("out.wav")])
        #expect(wave["broadcastExtension"] as? Bool == true)
        #expect(wave["ixml"] as? Bool == true)
        #expect(wave["markers"] as? Int == 4)
        // A start at 1 s drops the marker at 0.5 s and keeps the three after it.
        #expect(try carried(["--start", "1s", input, folder.file("trimmed.wav")])["markers"] as? Int == 3)
        let flac = try carried([input, folder.file("out.flac")])
        #expect(flac["broadcastExtension"] as? Bool == false)
        #expect(flac["ixml"] as? Bool == false)
        #expect(flac["markers"] as? Int == 4, "as the tracks of a cue sheet")
        let wave64 = try carried([input, folder.file("out.w64")])
        #expect(wave64["broadcastExtension"] as? Bool == true)
        #expect(wave64["markers"] as? Int == 0)
    }
}
