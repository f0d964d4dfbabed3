import AudioDSP
import AudioGraph
import AudioNodes
import Resampling
import SoundFile

/// Renders one input file through a graph into one output file: what `aurender IN OUT` does.
///
/// The graph is file reader (render callback) → [format converter] → processing nodes →
/// generic output; the loop pulls slices from the output and hands them to the file writer.
/// A converter is inserted when the output rate or channels differ from the input's, as Core
/// Audio's I/O unit converts between formats. Reading and writing run on their own threads,
/// so the disk and the conversions overlap the DSP. The output appears only when everything
/// succeeded.
public struct RenderJob {
    /// How the input is read, converted and stored.
    public struct Options {
        /// The output container; nil takes it from the output's extension.
        public var outputType: SoundFileType?
        /// The output encoding; nil keeps the input's where the container can hold it.
        public var outputEncoding: SoundFileEncoding?
        /// The format of a headerless input.
        public var rawInput: SoundFileReader.RawFormat?
        /// The output sample rate; nil keeps the input's.
        public var sampleRate: Double?
        /// The output channel count; nil keeps the input's (or the matrix's).
        public var channelCount: Int?
        /// How input channels become output channels; nil uses the standard matrix.
        public var channelMatrix: ChannelMatrix?
        /// The libsamplerate converter for rate changes.
        public var converterQuality = ConverterQuality.best
        /// Whether to dither when quantizing to integers.
        public var dither = DitherChoice.automatic
        /// The dither's seed: the same seed gives the same bytes.
        public var ditherSeed: UInt64 = 1
        /// Frames per pulled slice.
        public var framesPerSlice = Graph.defaultMaximumFramesPerSlice
        /// What to do when samples had to be clipped to fit an integer output.
        public var clipPolicy = ClipPolicy.warn

        public init() {}
    }

    /// When to add TPDF dither on the way to integer samples.
    public enum DitherChoice: String, CaseIterable, Sendable {
        /// TPDF when the output has 16 bits or fewer and the audio has more resolution than
        /// that (it was processed, converted, or came from a deeper or float file); none for a
        /// plain copy, which stays bit-exact.
        case automatic
        /// TPDF whenever the output is integer.
        case tpdf
        /// Never.
        case none
    }

    /// What to do when an integer output would clip.
    public enum ClipPolicy: String, CaseIterable, Sendable {
        /// Write the clipped output and report the count.
        case warn
        /// Write no output; fail with `RenderError.clipped`.
        case fail
    }

    /// What a finished render did.
    public struct Summary {
        public var inputFormat: StreamFormat
        public var outputType: SoundFileType
        public var outputEncoding: SoundFileEncoding
        public var frames: Int64
        public var clipCount: ClipCount
        public var dither: TPDFDither?
    }

    public var input: String
    public var output: String
    public var options: Options
    /// Builds the nodes after the converter, given the format they receive.
    public var makeProcessing: (StreamFormat) throws -> [AudioNode]

    public init(input: String, output: String, options: Options = Options(),
                makeProcessing: @escaping (StreamFormat) throws -> [AudioNode] = { _ in [] }) {
        self.input = input
        self.output = output
        self.options = options
        self.makeProcessing = makeProcessing
    }

    /// The graph ready to render, with everything the output needs to know.
    private struct Prepared {
        let file: SoundFileReader
        let reader: FileSource
        let graph: Graph
        let outputNode: GenericOutput
        let chain: [AudioNode]
        let format: StreamFormat
        let type: SoundFileType
        let encoding: SoundFileEncoding
        let dither: TPDFDither?
    }

    /// Builds and initializes the graph without reading audio, and describes it.
    public func plan() throws -> RenderPlan {
        let prepared = try prepare(readingAhead: false)
        return RenderPlan(input: input, inputFile: prepared.file, chain: prepared.chain, output: output,
                          outputType: prepared.type, outputEncoding: prepared.encoding, dither: prepared.dither)
    }

    /// Renders, leaving either a complete output or none (and an existing one untouched).
    public func run() throws -> Summary {
        let prepared = try prepare(readingAhead: true)
        let destination = try OutputFile(path: output)
        let writer: ThreadedFileWriter
        do {
            writer = ThreadedFileWriter(
                file: try SoundFileWriter(fileDescriptor: destination.fileDescriptor, path: output, type: prepared.type,
                                          encoding: prepared.encoding, sampleRate: Int(prepared.format.sampleRate),
                                          channelCount: prepared.format.channelCount),
                dither: prepared.dither)
        } catch {
            destination.discard()
            if output == "-", error.kind == .unsupportedFormat {
                throw RenderError.output(SoundFileError(path: output, kind: .unsupportedFormat,
                                                        reason: "\(error.reason); for standard output use --type au or raw"))
            }
            throw RenderError.output(error)
        }
        let outputNode = prepared.outputNode
        do {
            while case .rendered(let frames) = try outputNode.renderSlice(frameCount: options.framesPerSlice) {
                try writer.write(outputNode.buffers, frames: frames)
            }
            try writer.finish()
            if options.clipPolicy == .fail, prepared.encoding.integerBits != nil, writer.clipCount.overs > 0 {
                throw RenderError.clipped(path: output, count: writer.clipCount)
            }
            try destination.commit()
        } catch {
            destination.discard()
            switch error {
            case let error as SoundFileError where error.path == output: throw RenderError.output(error)
            case let error as SoundFileError: throw RenderError.input(error)
            default: throw error
            }
        }
        return Summary(inputFormat: prepared.file.format, outputType: prepared.type, outputEncoding: prepared.encoding,
                       frames: writer.framesWritten, clipCount: writer.clipCount, dither: prepared.dither)
    }

    /// Opens the input and builds the graph; `readingAhead` starts the reader's thread
    /// (a plan reads no audio, so it uses the plain reader).
    private func prepare(readingAhead: Bool) throws -> Prepared {
        try refuseSameFile()
        let file: SoundFileReader
        do { file = try SoundFileReader(path: input, raw: options.rawInput) } catch { throw RenderError.input(error) }
        let reader: FileSource = readingAhead ? ThreadedFileReader(file: file) : AudioFileReader(file: file)
        let graph = Graph()
        let outputNode = GenericOutput()
        var chain: [AudioNode] = []
        do {
            try graph.setMaximumFramesPerSlice(options.framesPerSlice)
            var format = reader.format
            if let converter = try makeConverter(from: reader.format) {
                chain.append(converter)
                format = converter.streamFormat(scope: .output) ?? format
            }
            chain += try makeProcessing(format)
            chain.append(outputNode)
            for node in chain { try graph.addNode(node) }
            try reader.attach(to: chain[0], in: graph)
            for (source, destination) in zip(chain, chain.dropFirst()) { try graph.connect(source, to: destination) }
            try graph.initialize()
        } catch let error as GraphError {
            if case .unsupportedFormat(_, _, _, _, let reason) = error { throw RenderError.usage("\(input): \(reason)") }
            throw RenderError.graph(error)
        } catch let error as EqualizerError {
            throw RenderError.usage(error.description)
        }
        let format = outputNode.streamFormat(scope: .output) ?? reader.format
        let (type, encoding) = try chooseOutputFormat(for: file, format: format)
        let processed = chain.contains { node in
            !(node is GenericOutput) && (node as? FormatConverterNode)?.isExact != true
        }
        return Prepared(file: file, reader: reader, graph: graph, outputNode: outputNode, chain: chain, format: format,
                        type: type, encoding: encoding,
                        dither: wantsDither(encoding: encoding, input: file.format, processed: processed)
                            ? TPDFDither(seed: options.ditherSeed) : nil)
    }

    /// A converter when the requested rate, channels or matrix differ from the input's.
    private func makeConverter(from input: StreamFormat) throws -> FormatConverterNode? {
        let channels = options.channelCount ?? options.channelMatrix?.outputCount ?? input.channelCount
        let output = StreamFormat.canonical(sampleRate: options.sampleRate ?? input.sampleRate, channelCount: channels)
        if let matrix = options.channelMatrix, matrix.inputCount != input.channelCount || matrix.outputCount != channels {
            throw RenderError.usage("the channel matrix maps \(matrix.inputCount) channels to \(matrix.outputCount), but \(input) "
                                    + "has \(input.channelCount) and the output \(channels)")
        }
        do { try output.validate() } catch { throw RenderError.usage("\(output.description): \(error)") }
        guard output != input || options.channelMatrix.map({ !$0.isIdentity }) == true else { return nil }
        return try FormatConverterNode(output: output, quality: options.converterQuality, matrix: options.channelMatrix)
    }

    private func wantsDither(encoding: SoundFileEncoding, input: StreamFormat, processed: Bool) -> Bool {
        guard let bits = encoding.integerBits else { return false }
        switch options.dither {
        case .none: return false
        case .tpdf: return true
        case .automatic:
            let inputIsCoarser = input.sampleType.isInteger && input.sampleType.bitDepth <= bits
            return bits <= 16 && (processed || !inputIsCoarser)
        }
    }

    private func refuseSameFile() throws(RenderError) {
        guard input != "-", output != "-", let source = FileIdentity(path: input) else { return }
        if FileIdentity(path: output) == source { throw .sameFile(input: input, output: output) }
    }

    /// The container from `--type` or the extension; the encoding from `--bits`, the
    /// container's lossy codec, the input's PCM or float encoding where the container holds it,
    /// else 16-bit PCM.
    private func chooseOutputFormat(for file: SoundFileReader, format: StreamFormat) throws(RenderError) -> (SoundFileType, SoundFileEncoding) {
        let implied = output == "-" ? nil : SoundFileType.forPath(output)
        guard let type = options.outputType ?? implied?.type else {
            let known = SoundFileType.knownNames.joined(separator: ", ")
            throw .usage("\(output): cannot tell the output container from the name; use --type (\(known))")
        }
        let rate = Int(format.sampleRate), channels = format.channelCount
        let encoding: SoundFileEncoding
        if let chosen = options.outputEncoding {
            encoding = chosen
        } else if let lossy = implied?.encoding, implied?.type == type {
            encoding = lossy
        } else if type == .ogg {
            encoding = .vorbis
        } else if type == .mpeg {
            encoding = .mpegLayer3
        } else if file.encoding.sampleType != nil,
                  SoundFileWriter.canWrite(type: type, encoding: file.encoding, sampleRate: rate, channelCount: channels) {
            encoding = file.encoding
        } else {
            encoding = .pcm16
        }
        guard SoundFileWriter.canWrite(type: type, encoding: encoding, sampleRate: rate, channelCount: channels) else {
            throw .usage("\(output): \(type.name) cannot hold \(encoding.name) at \(rate) Hz with \(channels) channels")
        }
        return (type, encoding)
    }
}
