import AudioFormats

/// A job's input, opened on first use and reused after: from its start again when it can
/// rewind, as it stands when it cannot (a pipe, which a plan has not read).
final class OpenedInput {
    private var decoder: (any AudioDecoder)?
    private var path: String?

    /// The decoder for `path`, opened through the registry the first time.
    func decoder(for path: String, raw: RawFormat?) throws(RenderError) -> any AudioDecoder {
        if let decoder, self.path == path {
            if decoder.isSeekable {
                do { try decoder.rewind() } catch { throw .input(error) }
            }
            return decoder
        }
        do {
            let opened = try FormatRegistry.standard.openDecoder(path: path, raw: raw)
            decoder = opened
            self.path = path
            return opened
        } catch {
            throw .input(error)
        }
    }
}
