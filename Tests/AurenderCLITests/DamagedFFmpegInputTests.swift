import Foundation
import TestSupport
import Testing

/// Inputs FFmpeg decodes are held to their lengths as libsndfile's are: a file cut short, or
/// whose header states more than it holds, fails (exit 65, one line, nothing written), and
/// `--salvage` renders what decoded before the cut. Matroska states its duration only to the
/// millisecond, so it is held to it "about"; an ASF file that states a larger size than it has
/// was cut short; an MPEG-4 file cut before its index cannot be decoded at all.
@Suite struct DamagedFFmpegInputTests {
    /// Every FFmpeg fixture renders whole, so no statement is taken too strictly.
    @Test func wholeFixturesRender() throws {
        let folder = try TemporaryFolder()
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture("ffmpeg")).filter { !$0.hasSuffix(".sh") }
        #expect(names.count >= 15)
        for name in names {
            let result = try aurender([fixture("ffmpeg/" + name), folder.file(name + ".wav")])
            #expect(result.status == 0, "\(name): \(result.standardError)")
        }
    }

    /// A fixture cut to `fraction` of its bytes fails with `clause` in its one line and is
    /// salvaged to the frames that line names (or, when none decode, still fails).
    @Test(arguments: [
        ("aac.m4a", 0.3, "states 44100 frames but holds only "), ("aac.m4a", 0.6, "states 44100 frames but holds only "),
        ("aac.m4a", 0.9, "states 44100 frames but holds only "), ("alac.m4a", 0.3, "states 11025 frames but holds none that decode"),
        ("alac.m4a", 0.9, "states 11025 frames but holds only "), ("true-audio.tta", 0.6, "states 11025 frames but holds none that decode"),
        ("wavpack.wv", 0.6, "states 11025 frames but holds none that decode"), ("windows-media.wma", 0.3, "ends early, without the end of its stream, after "),
        ("windows-media.wma", 0.9, "ends early, without the end of its stream, after "), ("raw.aac", 0.6, "ends early, without the end of its stream, after "),
        ("vorbis.mkv", 0.9, "states about 11157 frames but holds only "), ("opus.webm", 0.6, "states about 11376 frames but holds only "),
    ])
    func aCutFileFailsAndSalvageRendersWhatDecoded(name: String, fraction: Double, clause: String) throws {
        let folder = try TemporaryFolder()
        let whole = try Data(contentsOf: URL(fileURLWithPath: fixture("ffmpeg/" + name)))
        let cut = folder.file("cut-" + name), output = folder.file("out.wav"), report = folder.file("report.json")
        try whole.prefix(Int(Double(whole.count) * fraction)).write(to: URL(fileURLWithPath: cut))
        try expectShortfall(cut, clause: clause, channels: 1, output: output, report: report,
                            stated: clause.hasPrefix("ends early") ? nil : Int(clause.split(separator: " ").first { Int($0) != nil } ?? ""))
    }

    /// A header patched to state twice its frames — WavPack's block header, MP4's edit list —
    /// is a codec's count, no evidence of a cut: the file's bytes are whole and FFmpeg decodes it
    /// without an error, so aurender renders what decodes, exit 0, as FFmpeg's command line does.
    @Test(arguments: [("wavpack.wv", 11_025), ("aac.m4a", 45_056)])
    func aCodecCountThatOvercountsIsNoEvidenceOfACut(name: String, decoded: Int) throws {
        let folder = try TemporaryFolder()
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixture("ffmpeg/" + name))))
        if name.hasSuffix(".wv") {
            bytes.replaceSubrange(12..<16, with: [0x22, 0x56, 0, 0])
        } else {
            let elst = try #require((0..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual("elst".utf8) })
            let duration = bytes[(elst + 12)..<(elst + 16)].reduce(0) { $0 << 8 | Int($1) } * 2
            bytes.replaceSubrange((elst + 12)..<(elst + 16), with: [24, 16, 8, 0].map { UInt8((duration >> $0) & 0xFF) })
        }
        let overcounting = folder.file("overcounting-" + name)
        try Data(bytes).write(to: URL(fileURLWithPath: overcounting))
        let result = try aurender([overcounting, folder.file("out.wav"), "--bits", "float"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try samples(of: folder.file("out.wav")).samples.count == decoded)
    }

    /// A DSF file cut short is held to its fmt chunk's sample count.
    @Test func aCutDSFIsHeldToItsSampleCount() throws {
        let folder = try TemporaryFolder()
        let whole = ByteBuiltFiles.dsf([UInt8](repeating: 0x69, count: 88_200))
        let cut = folder.file("cut.dsf")
        try whole.prefix(whole.count * 6 / 10).write(to: URL(fileURLWithPath: cut))
        try expectShortfall(cut, clause: "states 88200 frames but holds only ", channels: 1, output: folder.file("out.wav"),
                            report: folder.file("report.json"), stated: 88_200)
    }

    /// An `.m4a` as aurender writes it, index last, cut anywhere in its audio: nothing can be
    /// decoded, and the line says why.
    @Test func anMPEG4FileCutBeforeItsIndexSaysSo() throws {
        let folder = try TemporaryFolder()
        let tone = Signal.sine(frequency: 440, sampleRate: 44_100, frames: 88_200)
        try writeFloats(tone, rate: 44_100, to: folder.file("source.wav"))
        #expect(try aurender([folder.file("source.wav"), folder.file("whole.m4a")]).status == 0)
        let whole = try Data(contentsOf: URL(fileURLWithPath: folder.file("whole.m4a")))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: folder.file("cut.m4a")))
        for arguments in [[folder.file("cut.m4a"), folder.file("out.wav")], [folder.file("cut.m4a"), folder.file("out.wav"), "--salvage"]] {
            let result = try aurender(arguments)
            #expect(result.status == 65)
            #expect(result.standardError == "aurender: \(folder.file("cut.m4a")): the file ends inside its audio data, before the index "
                    + "(moov atom) that locates it: it was cut short while written or copied, so none of it can be decoded\n")
            #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
        }
    }

    /// Runs `input` plainly and with `--salvage`, expecting the one line with `clause`, nothing
    /// written, then the frames it names salvaged (stated as `stated` in the report).
    func expectShortfall(_ input: String, clause: String, channels: Int, output: String, report: String, stated: Int?) throws {
        let failed = try aurender([input, output])
        #expect(failed.status == 65, "\(failed.standardError)")
        let lines = failed.standardError.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("aurender: \(input): the file \(clause)"), "\(failed.standardError)")
        #expect(lines.first?.hasSuffix("(truncated or damaged)") == true, "\(failed.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output), "nothing written")
        let found = try #require(DamagedInputTests.framesFound(String(lines[0])), "\(failed.standardError)")
        let salvaged = try aurender([input, output, "--salvage", "--report", report])
        guard found > 0 else {
            #expect(salvaged.status == 65, "nothing decodes, so nothing is written: \(salvaged.standardError)")
            #expect(!FileManager.default.fileExists(atPath: output))
            return
        }
        #expect(salvaged.status == 0, "\(salvaged.standardError)")
        #expect(salvaged.standardError == String(lines[0]) + "; rendered the \(found) frames that decode\n")
        #expect(try samples(of: output).samples.count == channels * found, "the output holds what decoded")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let shortfalls = try #require(json["shortfalls"] as? [[String: Any]])
        #expect(shortfalls.count == 1 && shortfalls.first?["foundFrames"] as? Int == found)
        #expect(shortfalls.first?["statedFrames"] as? Int == stated)
    }
}
