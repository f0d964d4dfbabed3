import AudioFiles
import AudioFormats

/// A job's inputs, each opened on first use and reused after: from its start again when it can
/// rewind, as it stands when it cannot (a pipe, which a plan has not read). So a plan, the run
/// after it and format queries read one decoder per input, and standard input only once.
///
/// Inputs are kept by their place in the job, not by path: a mix may read one file on two buses,
/// and each bus needs its own decoder.
final class OpenedInputs {
    private var decoders: [Int: (path: String, decoder: any AudioDecoder)] = [:]
    private var replayGains: [Int: AppliedReplayGain] = [:]

    /// The gains `--replaygain` applied, in input order.
    var appliedReplayGains: [AppliedReplayGain] { replayGains.keys.sorted().map { replayGains[$0]! } }

    /// The gain `playback` applies to input number `index`, at `path`: read from its tags the
    /// first time, so every pass of a render applies the same.
    func replayGain(_ index: Int = 0, for path: String, _ playback: ReplayGainPlayback) throws(RenderError) -> AppliedReplayGain {
        if let applied = replayGains[index], applied.path == path { return applied }
        let applied = try playback.gain(for: path)
        replayGains[index] = applied
        return applied
    }

    /// The inputs that ended before their stated length and were salvaged, in input order.
    var shortfalls: [InputShortfall] {
        decoders.keys.sorted().compactMap { index in
            let opened = decoders[index]!
            return (opened.decoder as? SalvagingDecoder)?.shortfall.map { InputShortfall(path: opened.path, shortfall: $0) }
        }
    }

    /// The decoder for input number `index`, at `path`, opened through the registry the first time:
    /// by the registry's choice, or by the decoder called `forcing` (`RenderSettings.decoder`);
    /// `salvaging` reads a short input to its last frame that decodes (`SalvagingDecoder`);
    /// `readingTags` keeps a pipe's metadata before its audio for the tag reader (`MetadataCarriage`).
    func decoder(_ index: Int = 0, for path: String, raw: RawFormat? = nil, forcing: String? = nil,
                 salvaging: Bool = false, readingTags: Bool = false) throws(RenderError) -> any AudioDecoder {
        if let opened = decoders[index], opened.path == path {
            if opened.decoder.isSeekable {
                do { try opened.decoder.rewind() } catch { throw .input(error) }
            }
            return opened.decoder
        }
        do {
            let limit = readingTags && raw == nil ? LeadingMetadata.pipeLimit : nil
            let decoder = if let forcing {
                try FormatRegistry.standard.openDecoder(path: path, raw: raw, decoder: forcing, leadingMetadataLimit: limit)
            } else {
                try FormatRegistry.standard.openDecoder(path: path, raw: raw, leadingMetadataLimit: limit)
            }
            let opened: any AudioDecoder = salvaging ? SalvagingDecoder(decoder) : decoder
            decoders[index] = (path, opened)
            return opened
        } catch {
            throw .input(error)
        }
    }
}

/// An input that held fewer frames than its container states, rendered as far as it decoded.
public struct InputShortfall: Equatable, Sendable, CustomStringConvertible {
    /// The input, as the user named it.
    public let path: String
    /// The frames stated and found.
    public let shortfall: Shortfall

    /// `path: the file states 88200 frames but holds only 52915`, the line a salvaged render prints.
    public var description: String { "\(path): the file \(shortfall.description)" }
}
