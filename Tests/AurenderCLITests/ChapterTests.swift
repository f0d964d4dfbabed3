import Foundation
import TestSupport
import Testing

/// Chapters carried as markers: an MP3's ID3v2 `CHAP`/`CTOC` frames and an M4A's chapters
/// (written by FFmpeg), a FLAC's `CUESHEET` (by metaflac), all in `fixtures/chapters/`, read back
/// from aurender's outputs by the test's own chunk and ID3v2 parsers and, when it is installed,
/// by ffprobe; moved with the audio as markers are.
@Suite struct ChapterTests {
    typealias Files = BroadcastWaveFiles
    static let mp3 = fixture("chapters/chapters.mp3")
    static let m4a = fixture("chapters/chapters.m4a")
    static let flac = fixture("chapters/cuesheet.flac")

    /// A region as the test expects it: its start and end in frames, and its label.
    struct Region: CustomStringConvertible {
        var start: Int
        var end: Int
        var label: String
        var description: String { "\(label) \(start)–\(end)" }
    }

    /// Whether `markers` are `expected`, each start and end within one frame, the ends clipped to `frames`.
    static func matches(_ markers: [Files.Marker], _ expected: [Region], frames: Int) -> Bool {
        markers.count == expected.count && zip(markers, expected).allSatisfy { marker, region in
            marker.label == region.label && abs(Int(marker.frame) - region.start) <= 1
                && abs(Int(marker.frame + marker.regionLength) - min(region.end, frames)) <= 1
        }
    }

    // The fixture: Intro 0–0.75 s, Verse 0.75–2 s, Outro 2–3 s, at 8 kHz.
    @Test(arguments: [
        (["--start", "1s"], [Region(start: 0, end: 8_000, label: "Verse"), Region(start: 8_000, end: 16_000, label: "Outro")]),
        (["--rate", "48000"], [Region(start: 0, end: 36_000, label: "Intro"), Region(start: 36_000, end: 96_000, label: "Verse"),
                               Region(start: 96_000, end: 144_000, label: "Outro")]),
        (["--tempo", "1.25"], [Region(start: 0, end: 4_800, label: "Intro"), Region(start: 4_800, end: 12_800, label: "Verse"),
                               Region(start: 12_800, end: 19_200, label: "Outro")]),
    ])
    func chaptersOfAnMP3AndAnM4ABecomeWAVRegionsWhereTheAudioWent(_ options: [String], _ expected: [Region]) throws {
        let folder = try TemporaryFolder()
        for input in [Self.mp3, Self.m4a] {
            let output = folder.file("out.wav")
            let result = try aurender(options + [input, output])
            #expect(result.status == 0)
            #expect(result.standardError == "")
            let frames = try samples(of: output).samples.count
            let markers = Files.markers(in: try Files.chunks(of: output))
            #expect(Self.matches(markers, expected, frames: frames), "\(input): \(markers) is not \(expected) (\(frames) frames)")
        }
    }

    @Test func aFLACsCueSheetBecomesRegionsForItsTracksAndPointsForItsOtherIndices() throws {
        let folder = try TemporaryFolder()
        let whole = folder.file("whole.wav")
        #expect(try aurender([Self.flac, whole]).standardError == "")
        #expect(Files.markers(in: try Files.chunks(of: whole)) == [
            Files.Marker(frame: 0, label: "Track 01", regionLength: 5_600), Files.Marker(frame: 5_600, label: "Track 02 index 0"),
            Files.Marker(frame: 6_000, label: "Track 02", regionLength: 10_000), Files.Marker(frame: 16_000, label: "Track 03", regionLength: 8_000),
        ])
        let output = folder.file("out.wav")
        let result = try aurender(["--start", "1s", "--rate", "48000", "--tempo", "1.25", Self.flac, output])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        let frames = try samples(of: output).samples.count
        let markers = Files.markers(in: try Files.chunks(of: output))
        // Track 02 from 0.75 s (cut to 1 s) to 2 s, Track 03 to 3 s: (t − 1) ÷ 1.25 at 48 kHz.
        #expect(Self.matches(markers, [Region(start: 0, end: 38_400, label: "Track 02"), Region(start: 38_400, end: 76_800, label: "Track 03")],
                             frames: frames), "\(markers) (\(frames) frames)")
    }

    @Test func markersOfAWAVBecomeM4AChaptersAndComeBackAsRegions() throws {
        let folder = try TemporaryFolder()
        let input = try BroadcastWaveTests.input(in: folder)
        let m4a = folder.file("out.m4a")
        let result = try aurender(["--start", "1s", "--rate", "48000", input, m4a])
        #expect(result.status == 0)
        #expect(result.standardError == "aurender: \(m4a): bext and iXML not kept: MP4 holds no Broadcast WAV chunk; "
                + "1 region end not kept: MP4 chapters run on to the next one; 1 marker note not kept: MP4 chapters hold a title only\n")
        // Less the first second: Slate at 0.5 s (a point, ending where Verse starts), Verse 1–2 s, Tail from 2 s (to 2.9 s, but
        // an MPEG-4 chapter runs on to the next, or the end); an untitled chapter before Slate keeps it at its time.
        if TaggedFiles.hasTool("ffprobe") {
            #expect(try Self.probedChapters(m4a) == ["0-500 ", "500-1000 Slate", "1000-2000 Verse", "2000-3000 Tail"])
        }
        let back = folder.file("back.wav")
        let again = try aurender([m4a, back])
        #expect(again.status == 0)
        #expect(again.standardError == "")
        // The untitled chapter before Slate only kept Slate at its time: it is no marker.
        #expect(Files.markers(in: try Files.chunks(of: back)) == [Files.Marker(frame: 24_000, label: "Slate", regionLength: 24_000),
                                                                  Files.Marker(frame: 48_000, label: "Verse", regionLength: 48_000),
                                                                  Files.Marker(frame: 96_000, label: "Tail", regionLength: 48_000)])
    }

    @Test func markersOfAWAVBecomeMP3ChaptersAndComeBackAsRegions() throws {
        let folder = try TemporaryFolder()
        // Early at 0.5 s and Slate at 1.5 s (points), Verse 2–3 s and Tail 3–3.9 s (regions), at 44.1 kHz.
        let input = try BroadcastWaveTests.input(in: folder)
        let mp3 = folder.file("out.mp3")
        let result = try aurender(["--rate", "48000", input, mp3])
        #expect(result.status == 0)
        #expect(result.standardError == "aurender: \(mp3): bext and iXML not kept: MP3 holds no Broadcast WAV chunk\n")
        let expected: [ID3Chapters.Chapter] = [
            .init(id: "chp0", start: 500, end: 1_500, title: "Early"), .init(id: "chp1", start: 1_500, end: 2_000, title: "Slate", note: "take 2"),
            .init(id: "chp2", start: 2_000, end: 3_000, title: "Verse"), .init(id: "chp3", start: 3_000, end: 3_900, title: "Tail"),
        ]
        #expect(try ID3Chapters.chapters(of: mp3) == expected, "a point ends where the next marker starts")
        if TaggedFiles.hasTool("ffprobe") {
            #expect(try Self.probedChapters(mp3) == expected.map { "\($0.start)-\($0.end) \($0.title)" })
        }
        let back = folder.file("back.wav")
        let again = try aurender([mp3, back])
        #expect(again.status == 0)
        #expect(again.standardError == "")
        let markers = Files.markers(in: try Files.chunks(of: back))
        #expect(markers == [Files.Marker(frame: 24_000, label: "Early", regionLength: 48_000),
                            Files.Marker(frame: 72_000, label: "Slate", note: "take 2", regionLength: 24_000),
                            Files.Marker(frame: 96_000, label: "Verse", regionLength: 48_000),
                            Files.Marker(frame: 144_000, label: "Tail", regionLength: 43_200)])
    }

    @Test func anMP3sChaptersAreMovedIntoAnotherMP3() throws {
        let folder = try TemporaryFolder()
        let output = folder.file("out.mp3")
        let result = try aurender(["--start", "1s", "--tempo", "1.25", Self.mp3, output])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        // Verse from 0.75 s (cut to 1 s) to 2 s, Outro to 3 s: (t − 1) ÷ 1.25.
        let chapters = try ID3Chapters.chapters(of: output)
        #expect(chapters.map(\.title) == ["Verse", "Outro"])
        #expect(chapters.map(\.start) == [0, 800])
        #expect(abs(Int(chapters[0].end) - 800) <= 1 && abs(Int(chapters[1].end) - 1_600) <= 1, "\(chapters)")
        if TaggedFiles.hasTool("ffprobe") {
            #expect(try Self.probedChapters(output) == chapters.map { "\($0.start)-\($0.end) \($0.title)" })
        }
    }

    @Test func anOutputThatHoldsNoChaptersNamesThemInItsWarning() throws {
        let folder = try TemporaryFolder()
        let ogg = folder.file("out.ogg")
        let result = try aurender([Self.mp3, ogg])
        #expect(result.status == 0)
        #expect(result.standardError == "aurender: \(ogg): 3 markers not kept: Ogg Vorbis holds no markers aurender writes\n")
        let aiff = folder.file("out.aiff")
        let points = try aurender([Self.mp3, aiff])
        #expect(points.standardError == "aurender: \(aiff): 3 regions kept as points: AIFF markers have no length\n")
        #expect(Files.markers(in: try Files.chunks(of: aiff)).map(\.frame) == [0, 6_000, 16_000])
    }

    @Test func damagedChaptersWarnAndTheAudioRendersWhole() throws {
        let folder = try TemporaryFolder()
        let audio = ID3Chapters.strippingTag([UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.mp3))))
        let tag = ID3Chapters.tag([.init(id: "c1", start: 0, end: 1_000, title: "One"), .init(id: "c2", start: 2_000, end: 1_500, title: "Two"),
                                   .init(id: "c3", start: 2_000, end: 3_000, title: "Three")],
                                  listed: ["c1", "c2", "c9"])
        let input = folder.file("damaged.mp3")
        try Data(tag + audio).write(to: URL(fileURLWithPath: input))
        let output = folder.file("out.wav")
        let result = try aurender([input, output])
        #expect(result.status == 0)
        #expect(result.standardError == "aurender: \(input): chapters not all read: chapter \"c2\" ends at 1500 ms, before its start at 2000 ms: left out; "
                + "chapter \"c3\" is in no table of contents: kept; the table of contents lists \"c9\", which no chapter frame holds\n")
        #expect(try samples(of: output).samples.count == 24_000, "the audio is whole")
        #expect(Files.markers(in: try Files.chunks(of: output)) == [Files.Marker(frame: 0, label: "One", regionLength: 8_000),
                                                                    Files.Marker(frame: 16_000, label: "Three", regionLength: 8_000)])
    }

    @Test func infoListsAnMP3sChaptersAsMarkers() throws {
        let text = try aurender(["info", Self.mp3])
        #expect(text.status == 0)
        #expect(text.output.contains("Markers     : region from 0.0 s (frame 0), 0.8 s (6000 frames) \"Intro\"\n"
                                     + "              region from 0.8 s (frame 6000), 1.3 s (10000 frames) \"Verse\"\n"))
        let json = try aurender(["info", "--json", Self.mp3])
        #expect(json.status == 0)
        let files = try #require(try JSONSerialization.jsonObject(with: json.standardOutput) as? [[String: Any]])
        let markers = try #require(files.first?["markers"] as? [[String: Any]])
        #expect(markers.compactMap { $0["frame"] as? Int } == [0, 6_000, 16_000])
        #expect(markers.compactMap { $0["lengthFrames"] as? Int } == [6_000, 10_000, 8_000])
        #expect(markers.compactMap { $0["label"] as? String } == ["Intro", "Verse", "Outro"])
    }

    @Test func markersBecomeAFLACsCueSheet() throws {
        let folder = try TemporaryFolder()
        let output = folder.file("out.flac")
        let result = try aurender(["--start", "1s", "--rate", "48000", "--tempo", "1.25", "--tag", "TITLE=Book", Self.mp3, output])
        #expect(result.status == 0)
        #expect(result.standardError == "aurender: \(output): 2 marker labels not kept: a FLAC cue sheet holds no text\n")
        let frames = try samples(of: output).samples.count
        // Verse from 0.75 s (cut to 1 s), Outro from 2 s: (t − 1) ÷ 1.25 at 48 kHz; tracks run to the next, the last to the end.
        let expected = [Region(start: 0, end: 38_400, label: "Track 01"), Region(start: 38_400, end: frames, label: "Track 02")]
        let back = folder.file("back.wav")
        #expect(try aurender([output, back]).standardError == "")
        let markers = Files.markers(in: try Files.chunks(of: back))
        #expect(Self.matches(markers, expected, frames: frames), "\(markers) (\(frames) frames)")
        if TaggedFiles.hasTool("metaflac") {
            let sheet = try #require(try TaggedFiles.run("metaflac", ["--export-cuesheet-to=-", output]))
            #expect(sheet.contains("TRACK 01 AUDIO\n    INDEX 01 0\n  TRACK 02 AUDIO\n    INDEX 01 38400\n"), "\(sheet)")
            #expect(sheet.contains("REM FLAC__lead-out 255 \(frames)\n"))
            #expect(try TaggedFiles.run("metaflac", ["--show-tag=TITLE", output]) == "TITLE=Book\n", "the tags are written beside the cue sheet")
        }
    }

    @Test func chaptersInAWAVsID3ChunkBecomeCueRegions() throws {
        let folder = try TemporaryFolder()
        let tag = ID3Chapters.tag([.init(id: "a", start: 500, end: 1_500, title: "Take", note: "good"), .init(id: "b", start: 2_000, end: 2_000, title: "Clap")])
        let input = folder.file("in.wav")
        try WaveFile.write(Files.wave(samples: BroadcastWaveTests.tone(), sampleRate: 44_100, after: [Files.Chunk("id3 ", tag)]), to: input)
        let output = folder.file("out.wav")
        let result = try aurender([input, output])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        #expect(Files.markers(in: try Files.chunks(of: output)) == [Files.Marker(frame: 22_050, label: "Take", note: "good", regionLength: 44_100),
                                                                    Files.Marker(frame: 88_200, label: "Clap")])
    }

    @Test func chaptersOfAnM4AAndACueSheetBecomeMP3Chapters() throws {
        let folder = try TemporaryFolder()
        let fromM4A = folder.file("book.mp3"), fromFLAC = folder.file("tracks.mp3")
        #expect(try aurender(["--rate", "48000", Self.m4a, fromM4A]).standardError == "")
        #expect(try ID3Chapters.chapters(of: fromM4A) == [.init(id: "chp0", start: 0, end: 750, title: "Intro"),
                                                          .init(id: "chp1", start: 750, end: 2_000, title: "Verse"),
                                                          .init(id: "chp2", start: 2_000, end: 3_000, title: "Outro")])
        #expect(try aurender([Self.flac, fromFLAC]).standardError == "")
        #expect(try ID3Chapters.chapters(of: fromFLAC) == [.init(id: "chp0", start: 0, end: 700, title: "Track 01"),
                                                           .init(id: "chp1", start: 700, end: 750, title: "Track 02 index 0"),
                                                           .init(id: "chp2", start: 750, end: 2_000, title: "Track 02"),
                                                           .init(id: "chp3", start: 2_000, end: 3_000, title: "Track 03")])
    }

    @Test func anM4BThatFFmpegChaptersIsCarriedAndTheReportCountsItsChapters() throws {
        guard TaggedFiles.hasTool("ffmpeg") else { return }
        let folder = try TemporaryFolder()
        let metadata = folder.file("chapters.ffmetadata"), book = folder.file("book.m4b")
        try ";FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=1250\ntitle=One\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=1250\nEND=3000\ntitle=Two\n"
            .write(toFile: metadata, atomically: true, encoding: .utf8)
        try #require(try TaggedFiles.run("ffmpeg", ["-v", "error", "-i", fixture("chapters/chapters.mp3"), "-i", metadata, "-map", "0:a", "-map_metadata", "1",
                                                    "-map_chapters", "1", "-c:a", "aac", "-f", "ipod", book]) != nil)
        let output = folder.file("out.mp3")
        let result = try aurender(["-q", "--json", "--rate", "16000", book, output])
        #expect(result.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        #expect((report["metadata"] as? [String: Any])?["carried"].flatMap { ($0 as? [String: Any])?["markers"] as? Int } == 2)
        #expect(try ID3Chapters.chapters(of: output) == [.init(id: "chp0", start: 0, end: 1_250, title: "One"),
                                                         .init(id: "chp1", start: 1_250, end: 3_000, title: "Two")])
    }

    /// The chapters ffprobe reads, as `start-end title` in milliseconds.
    static func probedChapters(_ path: String) throws -> [String] {
        let json = try #require(try TaggedFiles.run("ffprobe", ["-v", "error", "-show_chapters", "-of", "json", path]))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let chapters = try #require(object["chapters"] as? [[String: Any]])
        return chapters.map { chapter in
            let milliseconds = { (key: String) in Int(((Double(chapter[key] as? String ?? "") ?? -1) * 1000).rounded()) }
            return "\(milliseconds("start_time"))-\(milliseconds("end_time")) \((chapter["tags"] as? [String: Any])?["title"] as? String ?? "")"
        }
    }
}
