#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AudioFormats
import AudioMetadata

extension MetadataCarriage {
    /// What the piped `input` carries: the tags, pictures and chunks its format places before
    /// the audio, which its head holds (`AudioInput.leadingMetadata`). Those bytes alone are
    /// copied into a temporary file, named for their format, and read there by the readers of
    /// regular files (TagLib chooses by the name, and a copy cut before the audio is no damaged
    /// file to it), then removed. What the input holds after its audio (ID3v1, APEv2, a WAV's
    /// chunks after `data`, an MP4's `moov` at its end) cannot be read from a pipe.
    public static func reading(piped input: AudioInput) -> MetadataCarriage {
        fromLeadingCopy(of: input) { reading($0) }
    }

    /// Every tag, picture and chunk the pipe or device at `path` (`-` is standard input) holds
    /// before its audio, as they are (none dropped as describing its encoding), with what could
    /// not be read, for a listing of the file; nil when `path` is no pipe. Its decoder, opened
    /// first, must have kept them (`FormatRegistry.openDecoder(path:raw:leadingMetadataLimit:)`).
    public static func everything(piped path: String) -> MetadataCarriage? {
        guard AudioInput.isPipe(path), let input = try? AudioInput.shared(path: path, decoding: false) else { return nil }
        return fromLeadingCopy(of: input) { copy in
            var carriage = MetadataCarriage.none
            do throws(MetadataError) { carriage.metadata = try metadata(of: copy) ?? FileMetadata() } catch { carriage.readError = error }
            if let chunks = chunks(of: copy, tags: carriage.metadata) { (carriage.metadata.chunks, carriage.chunkReadError) = chunks }
            return carriage
        }
    }

    /// What `read` finds in a copy of the leading metadata of the piped `input`, its errors naming the input.
    private static func fromLeadingCopy(of input: AudioInput, _ read: (String) -> MetadataCarriage) -> MetadataCarriage {
        switch input.leadingMetadata ?? wholeInHead(input.head) {
        case .none:
            return .none
        case .tooLarge(let limit):
            let size = limit >= 1 << 20 ? "\(limit >> 20) MiB" : "\(limit) bytes"
            return failed(input.path, .unsupported, "tags not read: the metadata before its audio is larger than the \(size) read from a pipe")
        case .damaged(let reason):
            return failed(input.path, .damaged, "tags not read: " + reason)
        case .whole(let length, let field):
            var bytes = Array(input.head[0..<length])
            if let field { for index in field.offset..<(field.offset + field.width) { bytes[index] = 0 } }
            let copy: String
            do { copy = try temporaryCopy(of: bytes, named: fileExtension(of: input.head)) } catch {
                return failed(input.path, .cannotOpen, "tags not read: no temporary file for them: " + error.reason)
            }
            defer { unlink(copy) }
            var carriage = read(copy)
            carriage.readError = carriage.readError.map { MetadataError(path: input.path, kind: $0.kind, reason: $0.reason) }
            carriage.chunkReadError = carriage.chunkReadError.map { MetadataError(path: input.path, kind: $0.kind, reason: $0.reason) }
            return carriage
        }
    }

    /// What a head read without asking for the leading metadata holds of it (a decoder opened the
    /// pipe first): all of it when it ends inside the head.
    private static func wholeInHead(_ head: [UInt8]) -> AudioInput.LeadingMetadataRead {
        switch LeadingMetadata.extent(head) {
        case .complete(let length, let field) where length <= head.count: .whole(length: length, audioSizeField: field)
        case .none: .none
        case .damaged(let reason): .damaged(reason: reason)
        default: .tooLarge(limit: head.count)
        }
    }

    private static func failed(_ path: String, _ kind: MetadataError.Kind, _ reason: String) -> MetadataCarriage {
        MetadataCarriage(metadata: FileMetadata(), readError: MetadataError(path: path, kind: kind, reason: reason))
    }

    /// The name TagLib knows the format of the input `head` starts by: `flac`, `mp3`, `opus`, …
    private static func fileExtension(of head: [UInt8]) -> String {
        guard case .container(let container, let encoding) = FormatSniffer.sniff(head) else { return "bin" }
        switch container {
        case .flac: return "flac"
        case .mp3: return "mp3"
        case .wav, .wavex: return "wav"
        case .aiff: return "aiff"
        case .ogg: return encoding == .opus ? "opus" : "ogg"
        default:
            let ogg = head.starts(with: Array("OggS".utf8)) && head.count > 32 && head[28] == 0x7F && head[29..<33].elementsEqual("FLAC".utf8)
            return ogg ? "oga" : container.identifier
        }
    }

    /// A new file in `TMPDIR` (or `/tmp`) holding `bytes`, its name ending in `.extension`.
    private static func temporaryCopy(of bytes: [UInt8], named fileExtension: String) throws(MetadataError) -> String {
        let folder = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let suffix = "." + fileExtension
        var template = Array((folder + "/aurender-tags-XXXXXX" + suffix).utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, Int32(suffix.utf8.count)) }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard descriptor >= 0 else { throw MetadataError(path: path, kind: .cannotOpen, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let wrote = bytes.withUnsafeBytes { writeDescriptor(descriptor, $0.baseAddress! + written, bytes.count - written) }
            if wrote < 0, errno == EINTR { continue }
            guard wrote > 0 else {
                let reason = String(cString: strerror(errno))
                unlink(path)
                throw MetadataError(path: path, kind: .cannotOpen, reason: reason)
            }
            written += wrote
        }
        return path
    }
}

/// The C library's `write`, out of reach of the name `MetadataCarriage.write`.
private func writeDescriptor(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
