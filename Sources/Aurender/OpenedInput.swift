import AudioFormats

/// A job's inputs, each opened on first use and reused after: from its start again when it can
/// rewind, as it stands when it cannot (a pipe, which a plan has not read). So a plan, the run
/// after it and format queries read one decoder per input, and standard input only once.
///
/// Inputs are kept by their place in the job, not by path: a mix may read one file on two buses,
/// and each bus needs its own decoder.
final class OpenedInputs {
    private var decoders: [Int: (path: String, decoder: any AudioDecoder)] = [:]

    /// The decoder for input number `index`, at `path`, opened through the registry the first time:
    /// by the registry's choice, or by the decoder called `forcing` (`RenderSettings.decoder`).
    func decoder(_ index: Int = 0, for path: String, raw: RawFormat? = nil, forcing: String? = nil) throws(RenderError) -> any AudioDecoder {
        if let opened = decoders[index], opened.path == path {
            if opened.decoder.isSeekable {
                do { try opened.decoder.rewind() } catch { throw .input(error) }
            }
            return opened.decoder
        }
        do {
            let decoder = if let forcing {
                try FormatRegistry.standard.openDecoder(path: path, raw: raw, decoder: forcing)
            } else {
                try FormatRegistry.standard.openDecoder(path: path, raw: raw)
            }
            decoders[index] = (path, decoder)
            return decoder
        } catch {
            throw .input(error)
        }
    }
}
