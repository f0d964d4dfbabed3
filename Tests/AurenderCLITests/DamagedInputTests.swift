import Foundation
import SoundFile
import TestSupport
import Testing

/// Inputs that hold fewer frames than their containers state — cut short, or with a header that
/// lies — fail by default (exit 65, one line naming the file and both counts, nothing written),
/// and `--salvage` renders what decodes and still reports the shortfall.
@Suite struct DamagedInputTests {
    /// A 44,100-frame stereo source written by aurender in `container`.
    static func source(_ container: String, in folder: TemporaryFolder) throws -> Data {
        let wav = folder.file("source.wav"), encoded = folder.file("source.\(container)")
        let tone = Signal.sine(frequency: 440, sampleRate: 44_100, frames: 44_100)
        try writeFloats(zip(tone, tone.reversed()).flatMap { [$0, $1] }, channels: 2, rate: 44_100, to: wav)
        if container != "wav" { #expect(try aurender([wav, encoded]).status == 0) }
        return try Data(contentsOf: URL(fileURLWithPath: container == "wav" ? wav : encoded))
    }

    /// The frames found that the one error line names (`… holds only 26460 …`, `… after 26460 frames …`).
    static func framesFound(_ message: String) -> Int? {
        if message.contains("holds none") || message.contains("before any frame") { return 0 }
        for marker in ["holds only ", "after "] {
            if let range = message.range(of: marker) {
                return Int(message[range.upperBound...].prefix { $0.isNumber })
            }
        }
        return nil
    }

    @Test(arguments: ["wav", "aiff", "flac", "ogg", "mp3", "au", "w64", "rf64"])
    func aCutFileFailsAndSalvageRendersWhatDecodes(container: String) throws {
        let folder = try TemporaryFolder()
        let whole = try Self.source(container, in: folder)
        for fraction in [0.3, 0.6, 0.9] {
            let cut = folder.file("cut\(Int(fraction * 10)).\(container)"), output = folder.file("out.wav")
            try whole.prefix(Int(Double(whole.count) * fraction)).write(to: URL(fileURLWithPath: cut))
            let failed = try aurender([cut, output])
            #expect(failed.status == 65, "\(container) cut at \(fraction): \(failed.standardError)")
            let lines = failed.standardError.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("aurender: \(cut): "), "\(failed.standardError)")
            #expect(!FileManager.default.fileExists(atPath: output), "nothing written")
            guard lines.first?.contains("(truncated or damaged)") == true else {
                // libsndfile refuses some cut Ogg files when it opens them: nothing to salvage.
                #expect(container == "ogg" && fraction < 0.5, "\(failed.standardError)")
                continue
            }
            if container != "ogg" {
                #expect(lines[0].contains("states 44100 frames but holds only "), "\(failed.standardError)")
            }
            let found = try #require(Self.framesFound(String(lines[0])), "\(failed.standardError)")
            #expect(found < 44_100)

            let report = folder.file("report.json")
            let salvaged = try aurender([cut, output, "--salvage", "--report", report])
            if found == 0 {
                #expect(salvaged.status == 65, "nothing decodes, so nothing is written: \(salvaged.standardError)")
                #expect(!FileManager.default.fileExists(atPath: output))
                continue
            }
            #expect(salvaged.status == 0, "\(salvaged.standardError)")
            #expect(salvaged.standardError == String(lines[0]) + "; rendered the \(found) frames that decode\n")
            #expect(try samples(of: output).samples.count == 2 * found, "the output holds what decoded")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
            let shortfalls = try #require(json["shortfalls"] as? [[String: Any]])
            #expect(shortfalls.count == 1 && shortfalls[0]["input"] as? String == cut)
            #expect(shortfalls.first?["foundFrames"] as? Int == found)
            #expect(shortfalls.first?["statedFrames"] as? Int == (container == "ogg" ? nil : 44_100))
            try FileManager.default.removeItem(atPath: output)
        }
    }

    /// Headers that state more frames than the file holds, each patched in place.
    @Test(arguments: ["wav", "aiff", "flac", "mp3"])
    func aHeaderThatLiesIsAnError(container: String) throws {
        let folder = try TemporaryFolder()
        var bytes = [UInt8](try Self.source(container, in: folder))
        func put(_ value: UInt64, at offset: Int, bytes count: Int, bigEndian: Bool) {
            for index in 0..<count {
                let shift = 8 * (bigEndian ? count - 1 - index : index)
                bytes[offset + index] = UInt8(truncatingIfNeeded: value >> UInt64(shift))
            }
        }
        func find(_ text: String) throws -> Int {
            let pattern = Array(text.utf8)
            return try #require((0...(bytes.count - pattern.count)).first { Array(bytes[$0..<($0 + pattern.count)]) == pattern })
        }
        let stated: Int
        switch container {
        case "wav":
            put(88_200 * 8, at: try find("data") + 4, bytes: 4, bigEndian: false)
            stated = 88_200
        case "aiff":
            put(88_200, at: try find("COMM") + 10, bytes: 4, bigEndian: true)
            stated = 88_200
        case "flac":
            // STREAMINFO's 36-bit total sample count, and the audio frames cut off: it holds none.
            let total: UInt64 = 6_000_000
            bytes[8 + 13] = (bytes[8 + 13] & 0xF0) | UInt8(total >> 32)
            put(total & 0xFFFF_FFFF, at: 8 + 14, bytes: 4, bigEndian: true)
            bytes = Array(bytes.prefix(8 + 34))
            stated = 6_000_000
        default:
            // The Xing header's frame count doubled: as many frames again of 1152 samples.
            let count = try find("Xing") + 8
            let frames = bytes[count..<(count + 4)].reduce(0) { $0 << 8 | Int($1) }
            put(UInt64(2 * frames), at: count, bytes: 4, bigEndian: true)
            stated = 44_100 + frames * 1152
        }
        let lying = folder.file("lying.\(container)"), output = folder.file("out.wav")
        try Data(bytes).write(to: URL(fileURLWithPath: lying))
        let info = try aurender(["info", lying])
        #expect(info.status == 0)
        #expect(info.output.contains("Frames      : \(stated)\n"), "\(info.output)")
        let failed = try aurender([lying, output])
        #expect(failed.status == 65)
        let line = try #require(failed.standardError.split(separator: "\n").first.map(String.init))
        #expect(failed.standardError == line + "\n", "one line")
        #expect(line.hasPrefix("aurender: \(lying): the file states "), "\(line)")
        #expect(line.hasPrefix("aurender: \(lying): the file states \(stated) frames but holds "), "\(line)")
        #expect(!FileManager.default.fileExists(atPath: output))
        let found = try #require(Self.framesFound(line))
        // An MP3 decoder trims the encoder's padding only at the stated end, so it gives a little more.
        #expect(container == "mp3" ? (44_100..<(44_100 + 2304)).contains(found) : found == (container == "flac" ? 0 : 44_100), "\(line)")
        if container == "flac" {
            #expect(line.hasSuffix("holds none that decode (truncated or damaged)"))
            let salvaged = try aurender([lying, output, "--salvage"])
            #expect(salvaged.status == 65, "no render exits 0 with an empty output from an input that claims audio")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }

    @Test func infoMarksEstimatesAndExactCounts() throws {
        let estimated = try aurender(["info", fixture("music.mp3")])
        #expect(estimated.output.contains("Frames      : ~133996 (estimated)\nDuration    : ~3.0 s (estimated)\n"), "\(estimated.output)")
        let counted = try aurender(["info", "--exact", "--json", fixture("music.mp3")])
        let parsed = try #require(try JSONSerialization.jsonObject(with: counted.standardOutput) as? [[String: Any]])
        #expect(parsed.first?["frames"] as? Int == 133_632, "mpg123 decodes 133632 frames")
        #expect(parsed.first?["length"] as? String == "exact")
        let json = try aurender(["info", "--json", fixture("music.mp3")])
        let header = try #require(try JSONSerialization.jsonObject(with: json.standardOutput) as? [[String: Any]])
        #expect(header.first?["length"] as? String == "estimated")
        let refused = try aurender(["info", "--exact", "--loudness", "-"], input: Data())
        #expect(refused.status == 64)
    }
}
