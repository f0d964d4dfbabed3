import AudioGraph
import AudioNodes
import SoundFile

/// Renders one input file through a graph into one output file: what `aurender IN OUT` does.
///
/// The graph is file reader (render callback) → processing nodes → generic output; the loop
/// pulls slices from the output and hands them to the file writer. Reading and writing run on
/// their own threads, so the disk and the conversions overlap the DSP. The output appears
/// only when everything succeeded.
public struct RenderJob {
    /// How the output file is stored and how the input is read.
    public struct Options {
        /// The output container; nil takes it from the output's extension.
        public var outputType: SoundFileType?
        /// The output encoding; nil keeps the input's where the container can hold it.
        public var outputEncoding: SoundFileEncoding?
        /// The format of a headerless input.
        public var rawInput: SoundFileReader.RawFormat?
        /// Frames per pulled slice.
        public var framesPerSlice = Graph.defaultMaximumFramesPerSlice
        /// What to do when samples had to be clipped to fit an integer output.
        public var clipPolicy = ClipPolicy.warn

        public init() {}
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
    }

    public var input: String
    public var output: String
    public var options: Options
    /// Builds the nodes between the reader and the output, given the input's canonical format.
    public var makeProcessing: (StreamFormat) throws -> [AudioNode]

    public init(input: String, output: String, options: Options = Options(),
                makeProcessing: @escaping (StreamFormat) throws -> [AudioNode] = { _ in [] }) {
        self.input = input
        self.output = output
        self.options = options
        self.makeProcessing = makeProcessing
    }

    /// Renders, leaving either a complete output or none (and an existing one untouched).
    public func run() throws -> Summary {
        try refuseSameFile()
        let file: SoundFileReader
        do { file = try SoundFileReader(path: input, raw: options.rawInput) } catch { throw RenderError.input(error) }
        let (type, encoding) = try chooseOutputFormat(for: file)
        let reader = ThreadedFileReader(file: file)

        let graph = Graph()
        let outputNode = GenericOutput()
        do {
            try graph.setMaximumFramesPerSlice(options.framesPerSlice)
            var chain = try makeProcessing(reader.format)
            chain.append(outputNode)
            for node in chain { try graph.addNode(node) }
            try reader.attach(to: chain[0], in: graph)
            for (source, destination) in zip(chain, chain.dropFirst()) { try graph.connect(source, to: destination) }
            try graph.initialize()
        } catch let error as GraphError {
            throw RenderError.graph(error)
        } catch let error as EqualizerError {
            throw RenderError.usage(error.description)
        }
        let format = outputNode.streamFormat(scope: .output, bus: 0) ?? reader.format

        let destination = try OutputFile(path: output)
        let writer: ThreadedFileWriter
        do {
            writer = ThreadedFileWriter(
                file: try SoundFileWriter(fileDescriptor: destination.fileDescriptor, path: output, type: type,
                                          encoding: encoding, sampleRate: Int(format.sampleRate),
                                          channelCount: format.channelCount))
        } catch {
            destination.discard()
            if output == "-", error.kind == .unsupportedFormat {
                throw RenderError.output(SoundFileError(path: output, kind: .unsupportedFormat,
                                                        reason: "\(error.reason); for standard output use --type au or raw"))
            }
            throw RenderError.output(error)
        }
        do {
            while case .rendered(let frames) = try outputNode.renderSlice(frameCount: options.framesPerSlice) {
                try writer.write(outputNode.buffers, frames: frames)
            }
            try writer.finish()
            if options.clipPolicy == .fail, encoding.integerBits != nil, writer.clipCount.overs > 0 {
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
        return Summary(inputFormat: file.format, outputType: type, outputEncoding: encoding,
                       frames: writer.framesWritten, clipCount: writer.clipCount)
    }

    private func refuseSameFile() throws(RenderError) {
        guard input != "-", output != "-", let source = FileIdentity(path: input) else { return }
        if FileIdentity(path: output) == source { throw .sameFile(input: input, output: output) }
    }

    /// The container from `--type` or the extension; the encoding from `--bits`, the
    /// container's lossy codec, the input's PCM or float encoding where the container holds it,
    /// else 16-bit PCM.
    private func chooseOutputFormat(for file: SoundFileReader) throws(RenderError) -> (SoundFileType, SoundFileEncoding) {
        let implied = output == "-" ? nil : SoundFileType.forPath(output)
        guard let type = options.outputType ?? implied?.type else {
            let known = SoundFileType.knownNames.joined(separator: ", ")
            throw .usage("\(output): cannot tell the output container from the name; use --type (\(known))")
        }
        let rate = Int(file.format.sampleRate), channels = file.format.channelCount
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
