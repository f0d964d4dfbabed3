import AudioFormats
import AudioGraph

/// A decoder that changes how another one reads (an excerpt of it, what of it salvages) and
/// otherwise describes the input as that one does.
protocol DecoderWrapper: AudioDecoder {
    /// The decoder wrapped.
    var base: any AudioDecoder { get }
}

extension DecoderWrapper {
    var path: String { base.path }
    var decoderName: String { base.decoderName }
    var container: AudioContainer { base.container }
    var encoding: AudioEncoding { base.encoding }
    var format: StreamFormat { base.format }
    var length: AudioLength { base.length }
    var readsInt16Natively: Bool { base.readsInt16Natively }
    var isSeekable: Bool { base.isSeekable }
    func close() { base.close() }
}
