#if canImport(Glibc)
import AudioFiles
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AudioFormats
import AudioGraph
import AudioMetadata
import AudioNodes

/// What a render carries into its output besides the samples: tags and pictures, Broadcast WAV
/// `bext`, iXML and markers, read before the render and written into the finished output before
/// it is put in place; the time reference and the markers moved to where the audio went.
///
/// The tag work is all before and after the render, never per frame: an input without tags
/// costs one read of its header, and an output gets its tags rewritten only when there are
/// some to carry.
public struct MetadataCarriage: Sendable {
    /// The tags, pictures and chunks to write into the output; empty writes none.
    public var metadata: FileMetadata
    /// Why the input's metadata could not be read (damaged tags), said as a warning; the audio renders whole.
    public var readError: MetadataError?
    /// Why some of the input's `bext`, iXML or markers could not be read (a damaged chunk), said
    /// as a warning; the rest is carried and the audio renders whole.
    public var chunkReadError: MetadataError?
    /// Where the input's frames land in the output, for the time reference and the markers; nil
    /// carries them unmoved.
    public var retiming: Retiming?
    /// The software a coding history line for the render names (`TagChoice.codingHistory`); nil adds none.
    public var codingHistory: String?

    /// The metadata to carry, and why it could not all be read.
    public init(metadata: FileMetadata, readError: MetadataError?, chunkReadError: MetadataError? = nil) {
        self.metadata = metadata
        self.readError = readError
        self.chunkReadError = chunkReadError
    }

    /// Carries nothing.
    public static let none = MetadataCarriage(metadata: FileMetadata(), readError: nil)

    /// What `input` carries: its tags and pictures, less those that describe its encoding
    /// (`TagMapping.encodingDescriptions`). From standard input or another pipe, only what its
    /// format places before the audio, taken into the head its decoder reads first
    /// (`reading(piped:)`); nothing from a `headerless` (raw) one. Damaged tags give what FFmpeg
    /// reads of them (`metadataKeepingWhatCanBeRead`), with the error.
    public static func reading(_ input: String, headerless: Bool = false) -> MetadataCarriage {
        if AudioInput.isPipe(input) {
            guard !headerless, let piped = try? AudioInput.shared(path: input, leadingMetadataLimit: LeadingMetadata.pipeLimit, decoding: false) else {
                return .none
            }
            return reading(piped: piped)
        }
        var carriage = MetadataCarriage(metadata: FileMetadata(), readError: nil)
        let (read, error) = metadataKeepingWhatCanBeRead(of: input)
        carriage.readError = error
        let tags = error == nil ? read : nil
        if let read {
            carriage.metadata = read
            carriage.metadata.tags = TagMapping.carried(read.tags)
        } else if error == nil {
            return carriage
        }
        if let chunks = chunks(of: input, tags: tags ?? FileMetadata()) { (carriage.metadata.chunks, carriage.chunkReadError) = chunks }
        return carriage
    }

    /// Every tag and picture of the file at `path`, as it holds them; nil for standard input, a
    /// pipe or a device, whose bytes are the decoder's, and for a missing file, which its decoder
    /// names in its own error.
    public static func metadata(of path: String) throws(MetadataError) -> FileMetadata? {
        var status = stat()
        guard path != "-", stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return try MetadataFile.read(path: path)
    }

    /// The tags and pictures of the file at `path`, as `metadata(of:)` gives them, or with why
    /// they could not be: tags TagLib finds damaged, or in a format it does not read (a DSF's
    /// ID3v2), give what FFmpeg reads of them (its demuxers skip a bad atom or frame and read
    /// on), without pictures, and an error that says so.
    public static func metadataKeepingWhatCanBeRead(of path: String) -> (metadata: FileMetadata?, error: MetadataError?) {
        do { return (try metadata(of: path), nil) } catch {
            guard [.damaged, .unsupported].contains(error.kind), let salvaged = ContainerTags.readByFFmpeg(path: path), !salvaged.isEmpty else { return (nil, error) }
            let tags = Tags(salvaged), kept = tags.keys.joined(separator: ", ")
            let reason = error.kind == .damaged ? "tags partly read: TagLib finds them damaged, so what FFmpeg reads is kept (\(kept)), and no pictures"
                : "tags read by FFmpeg (\(kept)), without pictures: " + error.reason.trimmingPrefix("tags not read: ")
            return (FileMetadata(tags: tags), MetadataError(path: path, kind: error.kind, reason: reason))
        }
    }

    /// The `bext`, iXML and markers of the file at `path`, with what of them was damaged; nil for
    /// standard input, a pipe, a device or a missing file, as `metadata(of:)`.
    /// A file without chunk markers gives its chapters as markers: its ID3v2 chapters
    /// (`FileMetadata.chapters`), else its container's (`ContainerMarkers`: a FLAC's cue sheet, an
    /// MPEG-4 file's chapters).
    public static func chunks(of path: String) -> (metadata: ChunkMetadata, damage: MetadataError?)? {
        chunks(of: path, tags: nil)
    }

    /// The chunks of `path`, as `chunks(of:)`, with the chapters of `tags`, its tags already read
    /// (nil reads them, an empty value reads none) when it holds no chunk markers.
    static func chunks(of path: String, tags: FileMetadata?) -> (metadata: ChunkMetadata, damage: MetadataError?)? {
        var status = stat()
        guard path != "-", stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        var (chunks, damage) = ChunkMetadata.read(path: path)
        guard chunks.markers.isEmpty else { return (chunks, damage) }
        let tagged = tags ?? (try? MetadataFile.read(path: path)) ?? FileMetadata()
        chunks.markers = tagged.chapters
        if chunks.markers.isEmpty, tagged.chapterDamage.isEmpty {
            chunks.markers = ContainerMarkers.read(path: path).map { Marker(frame: $0.frame, length: $0.length, label: $0.label, note: $0.note) }
        }
        if !tagged.chapterDamage.isEmpty {
            let reason = "chapters not all read: " + tagged.chapterDamage.joined(separator: "; ")
            damage = MetadataError(path: path, kind: .damaged, reason: damage.map { $0.reason + "; " + reason } ?? reason)
        }
        return (chunks, damage)
    }

    /// What `choice` carries into a render's output: `input`'s tags and pictures (nil for a mix,
    /// which carries none but another file's), or its source's, with its edits made. A source
    /// that cannot be read is the render's error: it was asked for by name. A `leveled` output
    /// (played back by its stored gains, `RenderSettings.replayGain`) carries none of those
    /// gains (`StoredGain.keys`), which a player would apply again; an edit may still set them.
    /// `headerless`: the input is raw, so a pipe of it holds no tags.
    public static func resolving(_ choice: TagChoice, input: String?, headerless: Bool = false,
                                 leveled: Bool = false) throws(RenderError) -> MetadataCarriage {
        guard choice.carries else { return .none }
        var carriage: MetadataCarriage
        if let source = choice.source {
            do throws(MetadataError) {
                guard var metadata = try metadata(of: source) else {
                    throw MetadataError(path: source, kind: .cannotOpen, reason: "tags not read: "
                                        + (FileIdentity(path: source) == nil ? "the file cannot be opened" : "only a regular file's tags are read"))
                }
                metadata.tags = TagMapping.carried(metadata.tags)
                carriage = MetadataCarriage(metadata: metadata, readError: nil)
                if let chunks = chunks(of: source, tags: metadata) { (carriage.metadata.chunks, carriage.chunkReadError) = chunks }
            } catch {
                throw .input(AudioFormatError(path: source, kind: error.kind == .cannotOpen ? .cannotOpen : .invalidFile, reason: error.reason))
            }
        } else {
            carriage = input.map { reading($0, headerless: headerless) } ?? .none
        }
        if leveled { for key in StoredGain.keys { carriage.metadata.tags[key] = [] } }
        carriage.metadata.tags = choice.edited(carriage.metadata.tags)
        if let software = choice.codingHistory {
            guard carriage.metadata.chunks.broadcastExtension != nil else {
                guard let file = choice.source ?? input else { throw .usage("a mix carries no bext chunk to add a coding history line to without a file to take it from") }
                throw .usage("\(file): holds no bext chunk to add a coding history line to")
            }
            carriage.codingHistory = software
        }
        return carriage
    }

    /// The tag format TagLib writes for `type` holding `encoding`; nil for a container that holds
    /// no tags aurender writes.
    static func tagFormat(for type: AudioContainer, encoding: AudioEncoding) -> TagFormat? {
        switch type {
        case .mp3: .mpeg
        case .m4a: .mp4
        case .flac: .flac
        case .ogg: encoding == .opus ? .oggOpus : encoding == .vorbis ? .oggVorbis : nil
        case .wav, .wavex: .wav
        case .aiff: .aiff
        default: nil
        }
    }

    /// Writes the metadata into `destination`'s finished, unlinked file of `frames` frames, as
    /// `type` holds it: the tags first, then the chunks, moved by `retiming`. Gives what was
    /// carried, what was not kept of each, and what could not be read. A write that fails is the
    /// output's error.
    /// `chaptersByEncoder`: whether the encoder was handed the markers as chapters (`encoderChapters`).
    /// `tagsByEncoder`: the tags the encoder wrote before the audio (`leadingTags`), and what
    /// they could not hold; nil leaves the tags to TagLib (or names them as lost on a pipe).
    func write(into destination: OutputFile, format: StreamFormat, type: AudioContainer, encoding: AudioEncoding,
               frames: Int64, chaptersByEncoder: Bool = false, tagsByEncoder: LeadingTagOutcome? = nil) throws(RenderError) -> MetadataOutcome {
        let chunks = retimedChunks(outputFrames: frames)
        let tagLoss = tagsByEncoder == nil ? try writeTags(into: destination, type: type, encoding: encoding) : tagsByEncoder?.loss
        let chunkLoss = try writeChunks(chunks, into: destination, format: format, type: type, encoding: encoding, frames: frames,
                                        chaptersByEncoder: chaptersByEncoder)
        return MetadataOutcome(readError: readError, loss: tagLoss, chunkReadError: chunkReadError, chunkLoss: chunkLoss,
                               carried: CarriedMetadata(tags: metadata, chunks: chunks, tagLoss: tagLoss, chunkLoss: chunkLoss))
    }

    /// Tags for an encoder to write before its audio, and what of the metadata they cannot hold.
    struct LeadingTagOutcome {
        var tags: LeadingTags
        var loss: MetadataLoss?
    }

    /// The tags the encoder of a `type` output at `path` writes before its audio, in the form the
    /// format holds them (`StreamedTags`: FLAC's blocks, Vorbis and Opus comment headers, an
    /// MP3's ID3v2 tag), so that no tag library rewrites the finished file and a pipe gets them
    /// too; nil for a format whose tags go elsewhere, and for an MP3 without TagLib.
    func leadingTags(for type: AudioContainer, encoding: AudioEncoding, path: String) throws(RenderError) -> LeadingTagOutcome? {
        guard let format = Self.tagFormat(for: type, encoding: encoding) else { return nil }
        if format == .mpeg, MetadataFile.unavailability != nil { return nil }
        do throws(MetadataError) {
            guard let streamed = try StreamedTags.rendering(metadata, as: format, path: path) else { return nil }
            return LeadingTagOutcome(tags: LeadingTags(comments: streamed.comments, pictures: streamed.pictureBlocks, id3v2: streamed.id3v2),
                                     loss: streamed.loss)
        } catch {
            throw .output(AudioFormatError(path: path, kind: .writeFailed, reason: error.reason))
        }
    }

    /// Why an output of `type`, which holds no tag format aurender writes, gets no tags: `AU holds no tags`.
    private static func holdsNoTags(_ type: AudioContainer) -> String {
        let name = type.name.split(separator: " (").first.map(String.init) ?? type.identifier
        return [.au, .raw].contains(type) ? "\(name) holds no tags" : "aurender writes no tags into \(name) files"
    }

    /// The markers as chapters for the encoder of a `type` that writes them (an MPEG-4 file's
    /// chapters, a FLAC's cue sheet), moved by `retiming` but not yet cut at the output's end,
    /// which the encoder knows when it finishes; [] for another container.
    func encoderChapters(for type: AudioContainer) -> [EncoderChapter] {
        guard type == .m4a || type == .flac, !metadata.chunks.markers.isEmpty else { return [] }
        return retimedChunks(outputFrames: .max).markers.map { EncoderChapter(start: $0.frame, end: $0.frame + $0.length, title: $0.label) }
    }

    /// The coding history line (EBU R 98) of an output of `format` and `encoding` written by `software`:
    /// `A=PCM,F=48000,W=24,M=stereo,T=aurender 1.2` and CR LF.
    static func codingHistoryLine(format: StreamFormat, encoding: AudioEncoding, software: String) -> String {
        let bits = encoding.integerBits ?? (encoding == .float ? 32 : encoding == .double ? 64 : nil)
        let algorithm = bits == nil ? encoding.identifier.uppercased() : "PCM"
        let mode = format.channelCount == 1 ? "mono" : format.channelCount == 2 ? "stereo" : "multitrack"
        return "A=\(algorithm),F=\(Int(format.sampleRate))" + (bits.map { ",W=\($0)" } ?? "") + ",M=\(mode),T=\(software)\r\n"
    }

    /// The chunks as the output gets them: the time reference and the markers moved by `retiming`.
    func retimedChunks(outputFrames: Int64) -> ChunkMetadata {
        var chunks = metadata.chunks
        guard let retiming else { return chunks }
        if let reference = chunks.broadcastExtension?.timeReference {
            chunks.broadcastExtension?.timeReference = retiming.timeReference(reference)
        }
        chunks.markers = retiming.markers(chunks.markers, outputFrames: outputFrames)
        return chunks
    }

    /// Appends the `bext`, iXML and markers (`chunks`, retimed) to `destination`'s finished file of
    /// `frames` frames, after its tags; an MP3 gets the markers as ID3v2 chapters.
    /// An MPEG-4 or FLAC output's encoder wrote the markers as chapters or a cue sheet when `chaptersByEncoder`.
    private func writeChunks(_ chunks: ChunkMetadata, into destination: OutputFile, format: StreamFormat, type: AudioContainer,
                             encoding: AudioEncoding, frames: Int64, chaptersByEncoder: Bool) throws(RenderError) -> ChunkLoss? {
        guard !metadata.chunks.isEmpty else { return nil }
        var chunks = chunks
        if let codingHistory {
            chunks.broadcastExtension?.addCodingHistory(Self.codingHistoryLine(format: format, encoding: encoding, software: codingHistory))
        }
        guard let descriptor = destination.unfinishedFileDescriptor else {
            return ChunkLoss(path: destination.path, dropping: chunks, because: "an output to a pipe or device carries none")
        }
        let tagFormat = Self.tagFormat(for: type, encoding: encoding)
        let name = tagFormat?.name ?? type.name.split(separator: " (").first.map(String.init) ?? type.identifier
        do {
            if type == .m4a, chaptersByEncoder {
                return chunks.lossAsChapters(frames: frames, path: destination.path, formatName: name)
            }
            if type == .flac, chaptersByEncoder {
                return chunks.lossAsCueSheet(frames: frames, trackLimit: ContainerMarkers.flacCueSheetTrackLimit, path: destination.path)
            }
            if tagFormat == .mpeg {
                return try chunks.writeChapters(toDescriptor: descriptor, format: .mpeg, rate: format.sampleRate, frames: frames, path: destination.path)
            }
            return try chunks.write(toDescriptor: descriptor, path: destination.path, formatName: name)
        } catch {
            throw .output(AudioFormatError(path: destination.path, kind: .writeFailed, reason: error.reason))
        }
    }

    /// Writes the tags and pictures into `destination`'s finished, unlinked file (where its
    /// encoder did not, `leadingTags`), as `type` holds them, in place of any tag its encoder wrote (`TagFormat.isStampedByItsEncoder`), and gives
    /// what was not kept (nil when nothing was lost). A write that fails is the
    /// output's error: TagLib may have rewritten part of the file, so it must not be put in place.
    private func writeTags(into destination: OutputFile, type: AudioContainer, encoding: AudioEncoding) throws(RenderError) -> MetadataLoss? {
        let format = Self.tagFormat(for: type, encoding: encoding)
        guard !metadata.isEmpty || !metadata.unmapped.isEmpty || format?.isStampedByItsEncoder == true else { return nil }
        let path = destination.path
        guard let format else { return MetadataLoss(path: path, dropping: metadata, because: Self.holdsNoTags(type)) }
        if let reason = MetadataFile.unavailability {
            return metadata.isEmpty && metadata.unmapped.isEmpty ? nil : MetadataLoss(path: path, dropping: metadata, because: reason)
        }
        guard let descriptor = destination.unfinishedFileDescriptor else {
            return metadata.isEmpty && metadata.unmapped.isEmpty ? nil
                : MetadataLoss(path: path, dropping: metadata, because: "an output to a pipe or device carries tags only where its encoder "
                               + "writes them before the audio (FLAC, Ogg Vorbis, Opus, MP3)")
        }
        do {
            let loss = try MetadataFile.write(metadata, toDescriptor: descriptor, as: format, path: path)
            return loss.isEmpty ? nil : loss
        } catch {
            throw .output(AudioFormatError(path: path, kind: .writeFailed, reason: error.reason))
        }
    }
}

/// What a render did with its input's metadata, for its warnings.
public struct MetadataOutcome: Sendable {
    /// Why the input's metadata could not be read, if it could not.
    public var readError: MetadataError?
    /// What the output did not keep, if anything.
    public var loss: MetadataLoss?
    /// Why some of the input's `bext`, iXML or markers could not be read, if they could not.
    public var chunkReadError: MetadataError?
    /// What of the `bext`, iXML and markers the output did not keep, if anything.
    public var chunkLoss: ChunkLoss?

    /// What the output holds of it, for reports.
    public var carried: CarriedMetadata

    /// The outcome of a render that read and lost nothing unless told.
    public init(readError: MetadataError? = nil, loss: MetadataLoss? = nil, chunkReadError: MetadataError? = nil, chunkLoss: ChunkLoss? = nil,
                carried: CarriedMetadata = CarriedMetadata()) {
        self.readError = readError
        self.loss = loss
        self.chunkReadError = chunkReadError
        self.chunkLoss = chunkLoss
        self.carried = carried
    }

    /// One line for each: `in.flac: tags not read: …`, `out.au: tags not kept: AU holds no tags`,
    /// `out.flac: bext not kept: FLAC holds no Broadcast WAV chunk`.
    public var warnings: [String] {
        [readError?.description, loss?.description, chunkReadError?.description, chunkLoss?.description].compactMap { $0 }
    }
}
