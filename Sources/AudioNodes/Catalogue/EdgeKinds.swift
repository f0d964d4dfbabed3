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
            SettingDescription("matrix", .text, "output channels as weighted sums of the file's, rows by ';': \"0.5,0.5\" mixes stereo to mono, \"1,0;0,1\" keeps a stereo pair (default: the standard mix to channels)"),
            SettingDescription("start", .time, "where reading starts, from the file's start (frames count at the file's own rate; default 0)"),
            SettingDescription("duration", .time, "how much of the file is read from start (default: to its end, which a duration may not pass)"),
            SettingDescription("end", .time, "where reading ends, from the file's start, instead of a duration"),
            SettingDescription("rawRate", .integer(1...768_000), "a headerless (raw) file's sample rate in Hz; with rawChannels and rawBits"),
            SettingDescription("rawChannels", .integer(1...StreamFormat.maximumChannelCount), "a headerless file's channel count"),
            SettingDescription("rawBits", .choice(["8", "16", "24", "32", "float", "double"]), "a headerless file's sample encoding"),
            SettingDescription("replaygain", .choice(["track", "album"]),
                               "play the file back by the loudness gain its tags hold (ReplayGain, R128 or Sound Check): the track's or the album's (default: as the render asks, else none)"),
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
            SettingDescription("fadeIn", .time, "a linear fade in from silence over this long, at the start of what reaches the output (seconds at the graph's rate)"),
            SettingDescription("fadeOut", .time, "a linear fade out to silence over this long, ending where the stream (and any tail) ends"),
            SettingDescription("normalize", .number(.decibels, -70...0),
                               "measure the rendered audio, then render again with the gain that brings its measure to this level (after the fades)"),
            SettingDescription("measure", .choice(["loudness", "samplePeak", "truePeak"]),
                               "what normalize is a level of: integrated loudness in LUFS (default), the sample peak in dBFS or the true peak in dBTP"),
            SettingDescription("truePeak", as: LimiterNode.descriptions[LimiterNode.Parameter.ceiling.rawValue],
                               "with normalize: the highest true peak allowed, in dBTP (default -1 for loudness, none for a sample peak)"),
            SettingDescription("overCeiling", .choice(["refuse", "lower", "limit"]),
                               "with normalize, when the gain would put the true peak over its ceiling: refuse (default), lower the gain, or limit"),
            SettingDescription("limit", as: LimiterNode.descriptions[LimiterNode.Parameter.ceiling.rawValue],
                               "end with a true-peak limiter at this ceiling in dBTP (5 ms lookahead, 50 ms release), after the fades and normalize's gain"),
        ],
        make: { name, _, _ in GenericOutput(name: name) })
}
