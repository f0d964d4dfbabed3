import AudioDSP
import AudioFiles
import AudioGraph
import AudioNodes
import Resampling
import AudioFormats
import AudioMetadata
import SignalAnalysis

/// What every render shares: choosing the output's container and encoding, deciding on
/// dither, the converter and fades between the sources and the output, and the loop that
/// pulls the generic output into a file written through an unfinished file put into place.
enum OutputRendering {
    /// Refuses an output that is the same file as any input (device and inode, through links).
    static func refuseSameFile(inputs: [String], output: OutputDestination) throws(RenderError) {
        guard !output.isStandardOutput, let target = FileIdentity(path: output.path) else { return }
        for input in inputs where input != "-" && FileIdentity(path: input) == target {
            throw .sameFile(input: input, output: output.path)
        }
    }

    /// One input's source, with the sketcher watching what it reads when a report draws it.
    struct InputReader {
        /// The input, as named.
        let input: String
        let source: FileSource
        let sketcher: SignalSketcher?
    }

    /// The source for `file`: reading ahead on its own thread for a render (watched by a
    /// sketcher when the settings ask for sketches), the plain reader for a plan, which reads no audio.
    static func makeReader(_ file: any AudioDecoder, input: String, readingAhead: Bool, settings: RenderSettings) -> InputReader {
        guard readingAhead else { return InputReader(input: input, source: AudioFileReader(file: file), sketcher: nil) }
        let sketcher = settings.sketchesSignals
            ? SignalSketcher(sampleRate: file.format.sampleRate, channelCount: file.format.channelCount, expectedFrames: file.length.frames,
                              reconstructsPeaks: true) : nil
        return InputReader(input: input, source: ThreadedFileReader(file: file, notify: sketcher), sketcher: sketcher)
    }

    /// The sample rates Opus codes; its decoders give 48 kHz whichever the encoder was given.
    static let opusSampleRates: [Double] = [8_000, 12_000, 16_000, 24_000, 48_000]

    /// The rate `output` is written at when `choice` names none: 48 kHz for an Opus output from
    /// a rate Opus does not code, as `opusenc` and FFmpeg resample by themselves, and why; nil
    /// keeps the input's `rate`. A rate that was chosen is kept, and refused by the encoder
    /// where Opus cannot hold it.
    static func impliedSampleRate(output: OutputDestination, choice: OutputFormatChoice,
                                  inputRate rate: Double) -> (rate: Double, purpose: String)? {
        guard choice.sampleRate == nil, isOpus(output: output, choice: choice), !opusSampleRates.contains(rate) else { return nil }
        let rates = opusSampleRates.map { String(Int($0) / 1_000) }
        return (48_000, "to 48000 Hz, as Opus codes only \(rates.dropLast().joined(separator: ", ")) and \(rates.last!) kHz")
    }

    /// Whether `output` will hold Opus, as `chooseOutputFormat` decides.
    private static func isOpus(output: OutputDestination, choice: OutputFormatChoice) -> Bool {
        if let encoding = choice.encoding { return encoding == .opus }
        let implied = output.isStandardOutput ? nil : AudioContainer.forPath(output.path)
        return implied?.encoding == .opus && (choice.container ?? implied?.container) == implied?.container
    }

    /// A converter when the requested rate, channels or matrix differ from `input` (nil keeps the
    /// input's rate and channels, or the matrix's channels, or converts to the rate the output
    /// needs when none was chosen, `implied`: `impliedSampleRate`, whose purpose the converter
    /// states where it changes the rate to that one).
    static func makeConverter(from input: StreamFormat, sampleRate: Double?, channelCount: Int?, matrix: ChannelMatrix? = nil,
                              settings: RenderSettings, name: String = "converter",
                              implied: (rate: Double, purpose: String)? = nil) throws -> FormatConverterNode? {
        let channels = channelCount ?? matrix?.outputCount ?? input.channelCount
        let output = StreamFormat.canonical(sampleRate: sampleRate ?? implied?.rate ?? input.sampleRate, channelCount: channels)
        let purpose = implied.flatMap { $0.rate == output.sampleRate && $0.rate != input.sampleRate ? $0.purpose : nil }
        if let matrix, matrix.inputCount != input.channelCount || matrix.outputCount != channels {
            throw RenderError.usage("the channel matrix maps \(matrix.inputCount) channels to \(matrix.outputCount), but \(input) "
                                    + "has \(input.channelCount) and the output \(channels)")
        }
        do { try output.validate() } catch { throw RenderError.usage("\(output.description): \(error)") }
        guard output != input || matrix.map({ !$0.isIdentity }) == true else { return nil }
        return try FormatConverterNode(name: name, output: output, resampler: try resamplerEngine(named: settings.resampler),
                                       quality: settings.resamplerQuality, matrix: matrix, purpose: purpose)
    }

    /// The registered resampler engine called `name`; an unknown name is a usage error listing the known ones.
    static func resamplerEngine(named name: String) throws -> ResamplerEngineKind {
        do throws(ResamplerError) { return try ResamplerRegistry.engine(named: name) } catch { throw RenderError.usage(error.description) }
    }

    /// The frames a stream of `frames` at `from` Hz has after conversion to `to` Hz.
    static func convertedLength(_ frames: Int64, from: Double, to: Double) -> Int64 {
        from == to ? frames : Int64((Double(frames) * to / from).rounded())
    }

    /// The frames `chain` gives for `frames` frames of input, each node changing the length as
    /// it says (`AudioNode.outputFrames(forInputFrames:)`); nil when any node cannot tell.
    static func length(after chain: [AudioNode], given frames: Int64?) -> Int64? {
        chain.reduce(frames) { frames, node in frames.flatMap(node.outputFrames(forInputFrames:)) }
    }

    /// The fade nodes for the fades asked for, none when there are none. A fade-out needs the
    /// length; `input` names the input in the refusal when it is unknown, unless `findingTheEnd`
    /// (a graph file's output, whose length is not worked out ahead): the fade-out then ends where
    /// the stream does, found as it comes (`EndFadeNode`, fading in too, with `FadeNode`'s gains for
    /// a known length). After a chain that rings on past its input (`tails`: a reverb's, a delay's,
    /// a convolution's or a plugin's tail), the fade-out ends where the tail does, found the same way.
    static func makeFades(_ options: FinishingOptions, sampleRate: Double, totalFrames: Int64?, tails: Bool = false,
                          input: String, findingTheEnd: Bool = false) throws -> [AudioNode] {
        guard options.fadeIn > 0 || options.fadeOut > 0 else { return [] }
        let fadeIn = Int64((options.fadeIn * sampleRate).rounded()), fadeOut = Int64((options.fadeOut * sampleRate).rounded())
        if totalFrames == nil, !findingTheEnd, options.fadeOut > 0 {
            throw RenderError.usage("\(input): a fade-out needs the input's length, and this stream does not state it")
        }
        if tails, fadeOut > 0 {
            return (fadeIn > 0 ? [FadeNode(fadeInFrames: fadeIn, fadeOutFrames: 0, totalFrames: .max)] : []) + [EndFadeNode(fadeOutFrames: fadeOut)]
        }
        if let totalFrames, !findingTheEnd { return [FadeNode(fadeInFrames: fadeIn, fadeOutFrames: fadeOut, totalFrames: totalFrames)] }
        if fadeOut > 0 { return [EndFadeNode(name: "fade", fadeInFrames: fadeIn, fadeOutFrames: fadeOut)] }
        return [FadeNode(fadeInFrames: fadeIn, fadeOutFrames: 0, totalFrames: .max)]
    }

    /// Whether any node of `chain` rings on after its input, so the stream's length is known only at its end.
    static func hasTail(_ chain: [AudioNode]) -> Bool {
        chain.contains { ($0 as? BlockEffectNode)?.tailLimit != nil }
    }

    /// Whether the chain changes samples (anything but an exact channel copy, a silence trim,
    /// which only drops frames, and the output).
    static func isProcessing(_ chain: [AudioNode]) -> Bool {
        chain.contains { node in !(node is GenericOutput) && !(node is SilenceTrimNode) && (node as? FormatConverterNode)?.isExact != true }
    }

    /// The dither for an output: TPDF when asked, or automatically when quantizing to 16 bits
    /// or fewer audio with more resolution than that (processed, or from a deeper, float or
    /// lossy file). Unprocessed samples that `bits` holds exactly (8-bit, 16-bit, µ-law, A-law,
    /// ADPCM to 16 bits) are written as they are.
    static func dither(for encoding: AudioEncoding, inputs: [AudioEncoding], processed: Bool,
                       settings options: RenderSettings) -> TPDFDither? {
        guard let bits = encoding.integerBits else { return nil }
        let wanted: Bool
        switch options.dither {
        case .none: wanted = false
        case .tpdf: wanted = true
        case .automatic:
            let allCoarser = inputs.allSatisfy { $0.exactBits.map { $0 <= bits } ?? false }
            wanted = bits <= 16 && (processed || !allCoarser)
        }
        return wanted ? TPDFDither(seed: options.ditherSeed) : nil
    }

    /// The container from the options or the extension; the encoding from the options (ALAC at
    /// the input's resolution unless its depth is pinned), the container's lossy codec, the
    /// input's encoding or the PCM or float encoding of its samples (24-bit ALAC in, 24-bit PCM
    /// out) where the container holds it, else 16-bit PCM.
    static func chooseOutputFormat(output: OutputDestination, choice options: OutputFormatChoice, input file: any AudioDecoder,
                                   format: StreamFormat) throws(RenderError) -> (AudioContainer, AudioEncoding) {
        let implied = output.isStandardOutput ? nil : AudioContainer.forPath(output.path)
        guard let type = options.container ?? implied?.container else {
            throw .unknownContainer(path: output.path, known: AudioContainer.knownNames)
        }
        let rate = Int(format.sampleRate), channels = format.channelCount
        var encoding: AudioEncoding
        if let chosen = options.encoding {
            let finer = file.encoding.sampleType.map { $0.bitDepth > 16 } ?? false
            encoding = chosen == .alac && !options.pinsBitDepth && finer ? .alac24 : chosen
        } else if let lossy = implied?.encoding, implied?.container == type {
            encoding = lossy
        } else if type == .ogg {
            encoding = .vorbis
        } else if type == .mp3 {
            encoding = .mp3
        } else if let exact = [file.encoding, file.encoding.sampleType.flatMap(AudioEncoding.pcm(of:))].compactMap({ $0 }).first(where: {
            $0.sampleType != nil && FormatRegistry.standard.canWrite(container: type, encoding: $0, sampleRate: rate, channelCount: channels)
        }) {
            encoding = exact
        } else {
            encoding = .pcm16
        }
        // 8 bits are signed in some containers (AIFF) and unsigned in others (WAV stores them so).
        if encoding == .pcmS8, !FormatRegistry.standard.canWrite(container: type, encoding: .pcmS8, sampleRate: rate, channelCount: channels) {
            encoding = .pcmU8
        }
        guard FormatRegistry.standard.canWrite(container: type, encoding: encoding, sampleRate: rate, channelCount: channels) else {
            throw .usage("\(output): \(type.name) cannot hold \(encoding.name) at \(rate) Hz with \(channels) channels")
        }
        if !options.encoder.isDefault, !encoding.takesBitRate {
            throw .usage("\(output): \(encoding.name) has no bit rate or quality to set (only AAC, MP3, Vorbis and Opus have)")
        }
        return (type, encoding)
    }

    /// Pulls `outputNode` to its end into `output`, through an unfinished file put into place
    /// only on success, with `metadata`'s tags and pictures written before the audio by the
    /// encoder where it can (`MetadataCarriage.leadingTags`), else into the finished file (flushed to storage as `settings.durability` asks); returns the frames written, what clipped and, when the settings ask for
    /// the level, the sum of the squares of every sample, when they ask for sketches, the
    /// output's, and what of the metadata the output kept and did not keep. The graph's scheduled
    /// parameter changes land on their exact frames (the generic output splits slices there).
    static func write(_ outputNode: GenericOutput, format: StreamFormat, to output: OutputDestination, type: AudioContainer,
                      encoding: AudioEncoding, encoderSettings: EncoderSettings, dither: TPDFDither?, expectedFrames: Int64?,
                      settings options: RenderSettings, metadata: MetadataCarriage = .none)
        throws -> (frames: Int64, clipCount: ClipCount, sumOfSquares: Double?, sketch: SignalSketch?, metadata: MetadataOutcome) {
        let destination: OutputFile
        if options.durability == .synchronized, !output.isFile {
            throw RenderError.usage("\(output.path): only a regular file can be synchronized to storage, not "
                                    + (output.isStandardOutput ? "standard output" : "a device or pipe"))
        }
        do { destination = try OutputFile(destination: output, durability: options.durability) } catch { throw RenderError.output(error) }
        let writer: ThreadedFileWriter
        var outcome = MetadataOutcome()
        let sketcher = options.sketchesSignals
            ? SignalSketcher(sampleRate: format.sampleRate, channelCount: format.channelCount, expectedFrames: expectedFrames,
                              reconstructsPeaks: true) : nil
        var settings = encoderSettings
        if destination.unfinishedFileDescriptor != nil { settings.chapters = metadata.encoderChapters(for: type) }
        var leading: MetadataCarriage.LeadingTagOutcome?
        do { leading = try metadata.leadingTags(for: type, encoding: encoding, path: output.path) } catch {
            destination.discard()
            throw error
        }
        settings.leadingTags = leading?.tags
        do {
            let encoder = try FormatRegistry.standard.makeEncoder(fileDescriptor: destination.fileDescriptor, path: output.path,
                                                                  container: type, encoding: encoding, sampleRate: Int(format.sampleRate),
                                                                  channelCount: format.channelCount, settings: settings)
            if !encoder.wroteLeadingTags { leading = nil }
            writer = ThreadedFileWriter(file: encoder, dither: dither, measuringLevel: options.measuresLevel,
                                        startOffset: destination.position, notify: sketcher)
        } catch {
            destination.discard()
            throw RenderError.output(error)
        }
        do {
            while true {
                let frames = try writer.render(upTo: options.framesPerSlice) { block in
                    guard case .rendered(let frames) = try outputNode.renderSlice(frameCount: block.capacity, into: block) else { return 0 }
                    return frames
                }
                if frames == 0 { break }
                options.progress?.add(frames)
            }
            try writer.finish()
            if options.clipPolicy == .fail, encoding.integerBits != nil, writer.clipCount.overs > 0 {
                throw RenderError.clipped(path: output.path, count: writer.clipCount)
            }
            outcome = try metadata.write(into: destination, format: format, type: type, encoding: encoding, frames: writer.framesWritten,
                                         chaptersByEncoder: !settings.chapters.isEmpty, tagsByEncoder: leading)
            do { try destination.commit() } catch { throw RenderError.output(error) }
        } catch {
            destination.discard()
            switch error {
            case let error as AudioFormatError where error.path == output.path: throw RenderError.output(error)
            case let error as AudioFormatError: throw RenderError.input(error)
            default: throw error
            }
        }
        return (writer.framesWritten, writer.clipCount, writer.sumOfSquares, sketcher?.sketch(), outcome)
    }
}
