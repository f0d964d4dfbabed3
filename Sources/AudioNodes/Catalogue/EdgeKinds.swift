import AudioGraph

/// The file a graph reads: a source the job opens through the decoders and feeds into the
/// graph, converted to the graph's rate where it differs.
public enum FileSourceKind {
    /// Its description.
    public static let kind = NodeKind(
        name: "file", summary: "reads an audio file (any format a decoder of this build reads)", role: .source,
        settings: [
            SettingDescription("path", .text, "the file to read, relative to the graph file", required: true),
            .sampleRate("the rate the file is converted to as it is read (default: the graph's); the first file's is the graph's"),
            .channelCount("the channel count it is converted to as it is read (default: its own)"),
        ],
        make: nil)
}

/// The file a graph writes: its one generic output, which the job pulls into the file.
public enum GenericOutputKind {
    /// Its description.
    public static let kind = NodeKind(
        name: "output", summary: "the generic output: the rendered audio goes to this file", role: .output,
        settings: [
            SettingDescription("path", .text, "the file to write, relative to the graph file", required: true),
            SettingDescription("bits", .choice(["8", "16", "24", "32", "float", "double"]),
                               "the sample encoding (default: the first input's where the container holds it, else 16)"),
            SettingDescription("container", .text, "the container (default: from the path's extension)"),
            SettingDescription("codec", .choice(["aac", "alac"]),
                               "an .m4a's codec: aac (default) or alac (lossless; 24-bit from sources of more than 16 bits unless bits says 16 or 24)"),
            SettingDescription("bitrate", .text, "a lossy output's bit rate (AAC, MP3, Opus), as text: \"256k\", or bits per second (\"256000\")"),
            SettingDescription("quality", .number(.linear, 0...1), "a lossy output's variable-bit-rate quality, 0 (smallest) to 1 (best), instead of a bit rate"),
        ],
        make: { name, _, _ in GenericOutput(name: name) })
}
