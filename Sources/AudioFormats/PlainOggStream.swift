#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether an Ogg file is laid out plainly enough that every decoder gives it the same length,
/// its granule positions': a regular file holding one logical stream that ends whole
/// (`OggStreamEnd`), whose Vorbis audio, if it is Vorbis, starts on a page of its own
/// (`VorbisHeaderPages`).
///
/// A decoder other than the codec's reference may take such a file (FFmpeg's native Vorbis and
/// Opus decoders, faster than libvorbis and libopus); a cut file, a pipe, a chained stream or
/// LMMS's layout stays with the reference decoder and its rules for lengths and cuts.
public enum PlainOggStream {
    /// Whether `input`, which the sniffer found to be Ogg holding `encoding`, is plain.
    public static func holds(_ input: AudioInput, encoding: AudioEncoding) -> Bool {
        guard !input.headIsConsumed, let size = size(of: input), size > 27 else { return false }
        let count = Int(min(size, Int64(OggStreamEnd.tailLength)))
        guard input.head.count >= 27, let tail = input.bytes(at: size - Int64(count), count: count),
              let last = OggStreamEnd.lastPage(tail: tail[...]), last.endsStream,
              last.serial == OggStreamEnd.serial(input.head[14..<18]) else { return false }
        guard encoding == .vorbis else { return true }
        let head = input.bytes(at: 0, count: VorbisHeaderPages.headLength) ?? []
        return VorbisHeaderPages.audioStartsOnAFreshPage(head) == true
    }

    /// The bytes of a regular file from the input's first byte to its end; nil for anything else.
    private static func size(of input: AudioInput) -> Int64? {
        var status = stat()
        if let descriptor = input.fileDescriptor {
            let position = lseek(descriptor, 0, SEEK_CUR)
            guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, position >= 0 else { return nil }
            return Int64(status.st_size) - Int64(position)
        }
        guard stat(input.path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(status.st_size)
    }
}
