import Foundation

/// Files tagged by other tools (metaflac, vorbiscomment, lame, mid3v2, opusenc), for the tests
/// that hold aurender's carrying of tags and pictures to what those tools wrote, and the tools'
/// read-back of what aurender writes. Each tool is optional: `hasTool` guards its tests.
public enum TaggedFiles {
    /// A 1×1 PNG (69 bytes), the picture the tests attach.
    public static let png: [UInt8] = [
        137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0, 144, 119, 83, 222, 0,
        0, 0, 12, 73, 68, 65, 84, 120, 156, 99, 248, 207, 192, 0, 0, 3, 1, 1, 0, 201, 254, 146, 239, 0, 0, 0, 0, 73, 69, 78, 68,
        174, 66, 96, 130,
    ]

    /// Whether `/usr/bin/<tool>` is installed.
    public static func hasTool(_ tool: String) -> Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/" + tool) }

    /// A second of a 440 Hz tone, stereo 16-bit at `rate` Hz, as a WAV at `path`.
    public static func toneWAV(at path: String, rate: Int = 44_100) throws {
        let tone = Signal.sine(frequency: 440, sampleRate: Double(rate), frames: rate, amplitude: 0.4)
        let samples = tone.flatMap { [Int16($0 * 32_767), Int16($0 * 32_767)] }
        try WaveFile.write(WaveFile.bytes(channels: 2, sampleRate: UInt32(rate), data: WaveFile.pcm16(samples)), to: path)
    }

    /// Runs `/usr/bin/<tool>` with `arguments`; its standard output, or nil when it failed.
    @discardableResult
    public static func run(_ tool: String, _ arguments: [String]) throws -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/" + tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }

    /// A FLAC of a second of tone in `folder`, tagged by metaflac with `tags` (a key given twice
    /// keeps both) and, when `picture` is set, the PNG as a front cover described so; nil
    /// without flac and metaflac.
    public static func flac(named name: String = "tagged.flac", tags: [(String, String)], picture: String? = nil,
                            in folder: TemporaryFolder) throws -> String? {
        guard hasTool("flac"), hasTool("metaflac") else { return nil }
        let wav = folder.file(name + ".wav"), flac = folder.file(name)
        try toneWAV(at: wav)
        guard try run("flac", ["--silent", "-f", "-o", flac, wav]) != nil else { return nil }
        var arguments = tags.map { "--set-tag=\($0.0)=\($0.1)" }
        if let picture {
            let png = folder.file(name + ".png")
            try Data(self.png).write(to: URL(fileURLWithPath: png))
            arguments.append("--import-picture-from=3|image/png|\(picture)||\(png)")
        }
        guard try run("metaflac", arguments + [flac]) != nil else { return nil }
        return flac
    }

    /// metaflac's listing of a FLAC's Vorbis comments, as key–value pairs in order.
    public static func metaflacTags(_ path: String) throws -> [(String, String)]? {
        guard let listing = try run("metaflac", ["--export-tags-to=-", path]) else { return nil }
        return listing.split(separator: "\n").compactMap { (line: Substring) -> (String, String)? in
            guard let equals = line.firstIndex(of: "=") else { return nil }
            return (String(line[..<equals]).uppercased(), String(line[line.index(after: equals)...]))
        }
    }

    /// mid3v2's listing of an MP3's ID3v2 frames: `TIT2=Song` lines, as (frame, value) pairs.
    public static func mid3v2Frames(_ path: String) throws -> [(String, String)]? {
        guard let listing = try run("mid3v2", ["-l", path]) else { return nil }
        return listing.split(separator: "\n").compactMap { (line: Substring) -> (String, String)? in
            guard let equals = line.firstIndex(of: "="), !line.hasPrefix("IDv2") else { return nil }
            return (String(line[..<equals]), String(line[line.index(after: equals)...]))
        }
    }
}

/// What mutagen (python3-mutagen, a tag library other than TagLib) reads in a file: its tags by
/// the format's own names (ID3v2 frame IDs, `TXXX:` and `UFID:` with their descriptions, `COMM`
/// and `USLT` without theirs; MP4 atom names; Vorbis comment keys in lower case)
/// with their values as text, and its pictures.
public struct MutagenListing: Decodable, Sendable {
    /// One picture as mutagen reads it.
    public struct PictureListing: Decodable, Equatable, Sendable {
        public var type: Int
        public var mime: String
        public var description: String
        public var size: Int

        /// A picture of ID3v2 type `type`, `size` bytes long.
        public init(type: Int, mime: String, description: String, size: Int) {
            self.type = type
            self.mime = mime
            self.description = description
            self.size = size
        }
    }

    public var tags: [String: [String]]
    public var pictures: [PictureListing]

    /// The listing of `path`; nil without mutagen or when it cannot read the file.
    public static func of(_ path: String) throws -> MutagenListing? {
        guard TaggedFiles.hasTool("mid3v2"), let json = try TaggedFiles.run("python3", ["-c", script, path]) else { return nil }
        return try JSONDecoder().decode(MutagenListing.self, from: Data(json.utf8))
    }

    /// Lists tags and pictures in JSON, whatever the format.
    private static let script = #"""
import base64, json, sys, mutagen
from mutagen.flac import Picture
f = mutagen.File(sys.argv[1])
tags, pictures = {}, []
def text(v):
    if isinstance(v, tuple): return "/".join(str(n) for n in v)
    if isinstance(v, bytes): return v.decode("utf-8", "replace")
    return str(v)
def picture(kind, mime, desc, data): pictures.append({"type": kind, "mime": mime, "description": desc, "size": len(data)})
for key, value in (f.tags.items() if f is not None and f.tags is not None else []):
    if key.startswith("APIC"):
        picture(int(value.type), value.mime, value.desc, value.data)
    elif key == "covr":
        for cover in value: picture(3, {13: "image/jpeg", 14: "image/png"}.get(cover.imageformat, ""), "", bytes(cover))
    elif key.lower() == "metadata_block_picture":
        for encoded in value:
            p = Picture(base64.b64decode(encoded)); picture(p.type, p.mime, p.desc, p.data)
    elif key.startswith("UFID"):
        tags.setdefault(key, []).append(value.data.decode("utf-8", "replace"))
    elif hasattr(value, "text"):
        texts = value.text if isinstance(value.text, list) else [value.text]
        tags.setdefault(key.split(":")[0] if key.startswith(("COMM", "USLT")) else key, []).extend(str(t) for t in texts)
    elif isinstance(value, list):
        tags.setdefault(key, []).extend(text(v) for v in value)
    else:
        tags.setdefault(key, []).append(str(value))
for p in getattr(f, "pictures", []): picture(p.type, p.mime, p.desc, p.data)
print(json.dumps({"tags": tags, "pictures": pictures}))
"""#
}
