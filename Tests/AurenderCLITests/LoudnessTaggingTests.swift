import Aurender
import Foundation
import TestSupport
import Testing

/// `aurender loudness --write` and `--remove` on FLAC, MP3, M4A and Opus, run through the built
/// binary, the tags read back by other tools than TagLib (metaflac, mid3v2, ffprobe or mutagen)
/// and checked against gains computed here with libebur128 (`LoudnessMeter`); the audio is
/// compared before and after.
@Suite struct LoudnessTaggingTests {
    /// A stereo 44.1 kHz WAV of 6 s: a tone and noise at `level` (linear), its loudness stepping up halfway.
    func writeTake(level: Float, seed: UInt64, to path: String) throws {
        var generator = SplitMix(seed: seed)
        var samples: [Float] = []
        for frame in 0..<(6 * 44100) {
            let tone = sin(Float(frame) * 2 * .pi * 440 / 44100) * 0.5
            let noise = Float(Double(generator.next() % 20001) / 10000 - 1) * 0.3
            let step: Float = frame < 3 * 44100 ? 0.5 : 1
            samples += [(tone + noise) * level * step, (tone - noise) * level * step]
        }
        try writeFloats(samples, channels: 2, rate: 44100, to: path)
    }

    /// A deterministic generator of noise.
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Every sample of `path` as aurender's decoders give them.
    func decoded(_ path: String) throws -> (samples: [Float], channels: Int, rate: Int) {
        let decoder = try FormatRegistry.standard.openDecoder(path: path)
        defer { decoder.close() }
        let channels = decoder.format.channelCount
        var all: [Float] = [], block = [Float](repeating: 0, count: 4096 * channels)
        while true {
            let frames = try block.withUnsafeMutableBufferPointer { try decoder.read(into: $0.baseAddress!, frames: 4096) }
            all += block.prefix(frames * channels)
            if frames < 4096 { break }
        }
        return (all, channels, Int(decoder.format.sampleRate))
    }

    /// libebur128's integrated loudness (LUFS) and true peak (linear) of `path`'s samples, and of several files as one album.
    func reference(_ paths: [String]) throws -> (loudness: Double, truePeak: Double) {
        let first = try decoded(paths[0])
        let meter = try LoudnessMeter(channelCount: first.channels, sampleRate: first.rate)
        for path in paths {
            let file = try decoded(path)
            try file.samples.withUnsafeBufferPointer { try meter.add($0.baseAddress!, frames: file.samples.count / file.channels) }
        }
        let measurement = meter.measurement()
        return (try #require(measurement.integrated), pow(10, try #require(measurement.truePeak) / 20))
    }

    /// `-7.02 dB` as a number.
    func decibels(_ text: String?) throws -> Double {
        let text = try #require(text)
        #expect(text.hasSuffix(" dB"), "\(text)")
        return try #require(Double(text.dropLast(3)))
    }

    /// A tool's standard output; nil when it is not installed.
    func output(_ tool: String, _ arguments: [String]) throws -> String? {
        try TaggedFiles.run(tool, arguments)
    }

    /// The tags of an MP4 or Opus file as ffprobe reads them (format's and stream's), keys in lower case;
    /// or as mutagen reads them when ffprobe is missing; nil when neither is installed.
    func probedTags(_ path: String) throws -> [String: String]? {
        if TaggedFiles.hasTool("ffprobe"), let json = try output("ffprobe", ["-v", "error", "-show_entries", "format_tags:stream_tags", "-of", "json", path]) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            var tags: [String: String] = [:]
            let format = (object["format"] as? [String: Any])?["tags"] as? [String: String] ?? [:]
            let streams = (object["streams"] as? [[String: Any]] ?? []).compactMap { $0["tags"] as? [String: String] }
            for (key, value) in ([format] + streams).flatMap({ $0 }) { tags[key.lowercased()] = value }
            return tags
        }
        let script = """
            import json, sys, mutagen
            f = mutagen.File(sys.argv[1])
            out = {}
            for k, v in f.tags.items():
                v = v[0] if isinstance(v, list) else v
                out[k.split(":")[-1].lower()] = bytes(v).decode() if not isinstance(v, str) else v
            print(json.dumps(out))
            """
        guard let json = try output("python3", ["-c", script, path]) else { return nil }
        return try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String]
    }

    /// An MP3's bytes after its ID3v2 tag: the audio frames (and any tag after them).
    func mp3Payload(_ path: String) throws -> Data {
        let data = try #require(bytes(path))
        guard data.starts(with: Array("ID3".utf8)) else { return data }
        let size = data[6...9].reduce(0) { $0 << 7 | Int($1 & 0x7F) } + 10 + (data[5] & 0x10 != 0 ? 10 : 0)
        return data.dropFirst(size)
    }

    /// The 19 bytes of an Ogg Opus file's identification header (`OpusHead`, with the output gain).
    func opusHead(_ path: String) throws -> Data {
        let data = try #require(bytes(path))
        let start = try #require(data.firstRange(of: Data("OpusHead".utf8))?.lowerBound)
        return data[start..<(start + 19)]
    }

    @Test func flacGetsReplayGainTagsAndKeepsItsAudio() throws {
        let folder = try TemporaryFolder()
        guard TaggedFiles.hasTool("flac"), TaggedFiles.hasTool("metaflac") else { return }
        try FileManager.default.createDirectory(atPath: folder.file("album"), withIntermediateDirectories: true)
        for (index, level) in [Float(0.2), 0.6].enumerated() {
            try writeTake(level: level, seed: UInt64(index + 1), to: folder.file("take\(index).wav"))
            // flac takes integer WAVs only: a 16-bit copy first.
            #expect(try aurender(["--bits", "16", folder.file("take\(index).wav"), folder.file("take\(index)-16.wav")]).status == 0)
            _ = try output("flac", ["-s", "-f", "-o", folder.file("album/\(index).flac"), folder.file("take\(index)-16.wav")])
        }
        let tracks = [folder.file("album/0.flac"), folder.file("album/1.flac")]
        let md5Before = try output("metaflac", ["--show-md5sum", tracks[0]])
        let samplesBefore = try decoded(tracks[0]).samples
        let framesBefore = try #require(bytes(tracks[0])).suffix(100_000)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: tracks[0])

        let result = try aurender(["loudness", "--write", "-j", "2", folder.file("album")])
        #expect(result.status == 0, "\(result.standardError)")

        let album = try reference(tracks)
        for track in tracks {
            let ours = try reference([track])
            let tag = { (name: String) throws -> String? in try self.output("metaflac", ["--show-tag=" + name, track])?
                .split(separator: "\n").first.map { String($0.split(separator: "=", maxSplits: 1)[1]) } }
            #expect(abs(try decibels(try tag("REPLAYGAIN_TRACK_GAIN")) - (-18 - ours.loudness)) <= 0.03)
            // The reference meter fed the tracks one after the other also gates the 400 ms blocks
            // straddling the join, which an album of separate tracks has not (loudgain's
            // ebur128_loudness_global_multiple has not either): a looser tolerance.
            #expect(abs(try decibels(try tag("REPLAYGAIN_ALBUM_GAIN")) - (-18 - album.loudness)) <= 0.1)
            #expect(abs((try tag("REPLAYGAIN_TRACK_PEAK")).flatMap(Double.init).map { $0 - ours.truePeak } ?? 1) <= 0.0005)
            #expect(abs((try tag("REPLAYGAIN_ALBUM_PEAK")).flatMap(Double.init).map { $0 - album.truePeak } ?? 1) <= 0.0005)
            #expect(try tag("REPLAYGAIN_REFERENCE_LOUDNESS") == "-18.00 LUFS")
        }
        #expect(try output("metaflac", ["--show-md5sum", tracks[0]]) == md5Before)
        #expect(try decoded(tracks[0]).samples == samplesBefore)
        #expect(try #require(bytes(tracks[0])).suffix(100_000) == framesBefore, "the frames are copied, not re-encoded")
        let mode = try FileManager.default.attributesOfItem(atPath: tracks[0])[.posixPermissions] as? Int
        #expect(mode == 0o640, "the file's mode is kept")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("album")).sorted() == ["0.flac", "1.flac"], "no temporary is left")

        let removed = try aurender(["loudness", "--remove", folder.file("album")])
        #expect(removed.status == 0, "\(removed.standardError)")
        let listing = try #require(try output("metaflac", ["--list", "--block-type=VORBIS_COMMENT", tracks[0]]))
        #expect(!listing.contains("REPLAYGAIN"), "\(listing)")
        #expect(try decoded(tracks[0]).samples == samplesBefore)
    }

    @Test func mp3GetsTXXXFramesAndASoundCheckComment() throws {
        let folder = try TemporaryFolder()
        guard TaggedFiles.hasTool("lame"), TaggedFiles.hasTool("mid3v2") else { return }
        try writeTake(level: 0.5, seed: 3, to: folder.file("take.wav"))
        _ = try output("lame", ["--quiet", "-b", "192", folder.file("take.wav"), folder.file("song.mp3")])
        let song = folder.file("song.mp3")
        let payload = try mp3Payload(song), samplesBefore = try decoded(song).samples

        let result = try aurender(["loudness", "--write", "--json", song])
        #expect(result.status == 0, "\(result.standardError)")
        let ours = try reference([song])
        let frames = try #require(try TaggedFiles.mid3v2Frames(song))
        func frame(_ prefix: String) -> String? { frames.first { $0.0 == "TXXX" && $0.1.hasPrefix(prefix + "=") }.map { String($0.1.dropFirst(prefix.count + 1)) } }
        let gain = try decibels(frame("REPLAYGAIN_TRACK_GAIN"))
        #expect(abs(gain - (-18 - ours.loudness)) <= 0.03)
        #expect(abs(try decibels(frame("REPLAYGAIN_ALBUM_GAIN")) - gain) <= 0.005, "one file, one album")
        #expect(abs(frame("REPLAYGAIN_TRACK_PEAK").flatMap(Double.init).map { $0 - ours.truePeak } ?? 1) <= 0.0005)
        #expect(frame("REPLAYGAIN_REFERENCE_LOUDNESS") == "-18.00 LUFS")
        // mid3v2 prints COMM as `COMM=description=language=text`.
        let comment = try #require(frames.first { $0.0 == "COMM" && $0.1.hasPrefix("iTunNORM=eng=") }?.1)
        let fields = comment.dropFirst("iTunNORM=eng=".count).split(separator: " ").map { Int($0, radix: 16) }
        #expect(fields.count == 10 && fields.allSatisfy { $0 != nil }, "\(comment)")
        let values = fields.compactMap { $0 }
        // Sound Check's reference is -16 LUFS: 2 dB over ReplayGain 2.0's.
        let soundCheckGain = gain + 2
        #expect(abs(-10 * log10(Double(values[0]) / 1000) - soundCheckGain) <= 0.01, "\(values)")
        #expect(abs(-10 * log10(Double(values[2]) / 2500) - soundCheckGain) <= 0.01, "\(values)")
        #expect(values[0] == values[1] && values[2] == values[3])
        #expect(try mp3Payload(song) == payload, "the audio frames are untouched")
        #expect(try decoded(song).samples == samplesBefore)

        let json = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        let track = try #require((json["tracks"] as? [[String: Any]])?.first)
        #expect(abs((track["trackGainDB"] as? Double ?? 0) - gain) <= 0.005)
        #expect((track["tags"] as? [String: Any])?["ITUNNORM"] as? String == String(comment.dropFirst("iTunNORM=eng=".count)))

        #expect(try aurender(["loudness", "--remove", song]).status == 0)
        let cleared = try #require(try TaggedFiles.mid3v2Frames(song))
        #expect(!cleared.contains { $0.0 == "TXXX" || $0.0 == "COMM" }, "\(cleared)")
        #expect(try mp3Payload(song) == payload)
    }

    @Test func m4aGetsFreeformAtoms() throws {
        let folder = try TemporaryFolder()
        guard TaggedFiles.hasTool("ffmpeg") else { return }
        try writeTake(level: 0.4, seed: 5, to: folder.file("take.wav"))
        let song = folder.file("song.m4a")
        _ = try output("ffmpeg", ["-v", "error", "-i", folder.file("take.wav"), "-c:a", "aac", "-b:a", "128k", song])
        let samplesBefore = try decoded(song).samples
        let result = try aurender(["loudness", "--write", song])
        #expect(result.status == 0, "\(result.standardError)")
        let ours = try reference([song])
        let tags = try #require(try probedTags(song))
        let gain = try decibels(tags["replaygain_track_gain"])
        #expect(abs(gain - (-18 - ours.loudness)) <= 0.03)
        #expect(tags["replaygain_reference_loudness"] == "-18.00 LUFS")
        let values = try #require(tags["itunnorm"]).split(separator: " ").compactMap { Int($0, radix: 16) }
        #expect(values.count == 10)
        #expect(abs(-10 * log10(Double(values.first ?? 1) / 1000) - (gain + 2)) <= 0.01)
        #expect(try decoded(song).samples == samplesBefore)
    }

    @Test func opusGetsR128GainsAndKeepsItsHeaderGain() throws {
        let folder = try TemporaryFolder()
        guard TaggedFiles.hasTool("opusenc") else { return }
        try writeTake(level: 0.7, seed: 7, to: folder.file("take.wav"))
        let song = folder.file("song.opus")
        _ = try output("opusenc", ["--quiet", folder.file("take.wav"), song])
        let header = try opusHead(song)
        let samplesBefore = try decoded(song).samples
        let result = try aurender(["loudness", "--write", song])
        #expect(result.status == 0, "\(result.standardError)")
        let ours = try reference([song])
        guard let tags = try probedTags(song) else { return }
        let value = try #require(tags["r128_track_gain"].flatMap { Int($0) })
        #expect(abs(Double(value) / 256 - (-23 - ours.loudness)) <= 0.03, "Q7.8 against -23 LUFS")
        #expect(tags["r128_album_gain"] == String(value))
        #expect(tags["replaygain_track_gain"] == nil, "Opus gets no ReplayGain tags")
        #expect(try opusHead(song) == header, "the identification header (its output gain) is untouched")
        #expect(try decoded(song).samples == samplesBefore)
    }

    @Test func aReadOnlyOrDamagedFileFailsNamedAndUntouched() throws {
        let folder = try TemporaryFolder()
        try writeTake(level: 0.5, seed: 9, to: folder.file("locked.wav"))
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: folder.file("locked.wav"))
        try Data(repeating: 0x5A, count: 4000).write(to: URL(fileURLWithPath: folder.file("broken.flac")))
        let lockedBefore = bytes(folder.file("locked.wav")), brokenBefore = bytes(folder.file("broken.flac"))
        let result = try aurender(["loudness", "--write", folder.file("locked.wav"), folder.file("broken.flac")])
        #expect(result.status != 0)
        #expect(result.standardError.contains("\(folder.file("locked.wav")): tags not written: the file is read-only"), "\(result.standardError)")
        #expect(result.standardError.contains(folder.file("broken.flac") + ":"), "\(result.standardError)")
        #expect(bytes(folder.file("locked.wav")) == lockedBefore)
        #expect(bytes(folder.file("broken.flac")) == brokenBefore)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 2, "no temporary is left")
    }

    @Test func anUntaggableContainerIsNamedWithTheReason() throws {
        let folder = try TemporaryFolder()
        try writeTake(level: 0.5, seed: 11, to: folder.file("take.wav"))
        #expect(try aurender([folder.file("take.wav"), folder.file("take.au")]).status == 0)
        let before = bytes(folder.file("take.au"))
        let report = try aurender(["loudness", folder.file("take.au")])
        #expect(report.status == 0, "measuring needs no tags")
        let result = try aurender(["loudness", "--write", folder.file("take.au")])
        #expect(result.status == 65)
        #expect(result.standardError.contains("\(folder.file("take.au")): AU"), "\(result.standardError)")
        #expect(result.standardError.contains("holds no loudness tags aurender writes"), "\(result.standardError)")
        #expect(bytes(folder.file("take.au")) == before)
    }

    @Test func optionsThatDoNotApplyAreRefused() throws {
        #expect(try aurender(["loudness", "--write", "--remove", "x.flac"]).status == 64)
        #expect(try aurender(["loudness", "--remove", "--max-true-peak", "-1", "x.flac"]).status == 64)
        #expect(try aurender(["loudness", "--remove", "--albums-by", "tag", "x.flac"]).status == 64)
    }

    @Test func maxTruePeakLowersTheGainsAsLoudgainsKDoes() throws {
        let folder = try TemporaryFolder()
        try writeTake(level: 0.02, seed: 13, to: folder.file("quiet.wav"))
        let plain = try aurender(["loudness", "--json", folder.file("quiet.wav")])
        let limited = try aurender(["loudness", "--json", "--max-true-peak", "-15", folder.file("quiet.wav")])
        func track(_ result: CommandResult) throws -> [String: Any] {
            let json = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
            return try #require((json["tracks"] as? [[String: Any]])?.first)
        }
        let free = try track(plain), held = try track(limited)
        let peak = try #require(free["truePeakDBTP"] as? Double), gain = try #require(free["trackGainDB"] as? Double)
        #expect(peak + gain > -15, "the measured gain would take the peak over -15 dBTP")
        #expect(abs((held["trackGainDB"] as? Double ?? 0) - (-15 - peak)) <= 0.011)
        #expect(abs((held["albumGainDB"] as? Double ?? 0) - (-15 - peak)) <= 0.011)
    }
}
