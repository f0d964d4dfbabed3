import AudioFormats
import AudioGraph

/// Reads another decoder to the last frame that decodes: an input that ends before its stated
/// length ends there instead of failing, and the shortfall is kept for the render to report
/// (`--salvage`). An input of which nothing decodes still fails: a render never passes an
/// empty output off as what a file that claims audio holds.
final class SalvagingDecoder: DecoderWrapper {
    let base: any AudioDecoder
    /// Frames given since the start.
    private var given: Int64 = 0
    /// Whether the input has ended early; reads then give nothing.
    private var ended = false
    /// How the input fell short, once it has.
    private(set) var shortfall: Shortfall?

    /// Salvages what `base` decodes.
    init(_ base: any AudioDecoder) {
        self.base = base
    }

    func read(into buffer: UnsafeMutablePointer<Float>, frames: Int) throws(AudioFormatError) -> Int {
        try salvaging { () throws(AudioFormatError) in try base.read(into: buffer, frames: frames) }
    }

    func read(into buffer: UnsafeMutablePointer<Int16>, frames: Int) throws(AudioFormatError) -> Int {
        try salvaging { () throws(AudioFormatError) in try base.read(into: buffer, frames: frames) }
    }

    func rewind() throws(AudioFormatError) {
        try base.rewind()
        given = 0
        ended = false
    }

    /// The frames `read` gives, counted; once the input has ended early, none.
    private func salvaging(_ read: () throws(AudioFormatError) -> Int) throws(AudioFormatError) -> Int {
        guard !ended else { return 0 }
        do {
            let frames = try read()
            given += Int64(frames)
            return frames
        } catch {
            return try salvaged(error)
        }
    }

    /// The frames the failing read put in the buffer before the input ended; rethrows any
    /// other error, and a shortfall with nothing decoded at all.
    private func salvaged(_ error: AudioFormatError) throws(AudioFormatError) -> Int {
        guard let found = error.shortfall, found.found > 0 else { throw error }
        shortfall = found
        ended = true
        let frames = Int(found.found - given)
        given = found.found
        return frames
    }
}
