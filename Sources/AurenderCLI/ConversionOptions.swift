import ArgumentParser
import Aurender

/// The options that change the output's rate, channels and quantization, and the decoder that
/// reads the inputs.
struct ConversionOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Decode every input with this decoder whatever it holds (\(ConversionOptions.decoderNames)).",
                               valueName: "decoder"), completion: CompletionValues.decoders)
    var decoder: String?

    @Flag(help: "Render an input that ends before its stated length (truncated, or a header that lies) as far as it decodes, reporting the shortfall, instead of failing.")
    var salvage = false

    @Option(help: ArgumentHelp("Output sample rate in Hz, converted by the --resampler engine (default: the input's, or 48000 for an Opus output from a rate Opus does not code).", valueName: "hz"))
    var rate: Int?

    @Option(help: ArgumentHelp("Output channel count: mono becomes copies, stereo to mono is (L+R)/2, 5.1 to stereo follows ITU-R BS.775.",
                               valueName: "n"))
    var channels: Int?

    @Option(help: ArgumentHelp("Sample-rate converter engine: \(ResamplerRegistry.engines.map(\.name).joined(separator: " or ")).",
                               valueName: "engine"), completion: CompletionValues.resamplers)
    var resampler: String = ResamplerRegistry.defaultEngine.name

    @Option(help: ArgumentHelp("""
        Sample-rate converter quality: \(ResamplerQuality.namesListed); each engine uses its nearest level \
        (soxr: very high, high, medium, quick; libsamplerate: best, medium, fastest sinc), zoh and linear are libsamplerate's.
        """, valueName: "quality"))
    var srcQuality: ResamplerQualityArgument = ResamplerQualityArgument(quality: .best)

    @Option(help: ArgumentHelp("Output channel i takes input channel map[i], 0-based: 1,0 swaps a stereo pair.", valueName: "map"))
    var channelMap: String?

    @Option(help: ArgumentHelp("Output channels as weighted sums of the inputs, rows by ';': 0.5,0.5 is a mono mix of stereo.",
                               valueName: "matrix"))
    var mixMatrix: String?

    @Option(help: ArgumentHelp("TPDF dither when quantizing: auto (when reducing to 16 bits or fewer), tpdf or none.",
                               valueName: "mode"))
    var dither: RenderJob.DitherChoice = .automatic

    @Option(help: ArgumentHelp("The dither's seed: the same seed gives byte-identical outputs.", valueName: "n"))
    var ditherSeed: UInt64 = 1

    @Option(help: ArgumentHelp("The codec of an .m4a output: aac (the default) or alac (lossless: 24-bit from sources of more than 16 bits, else 16-bit; --bits 16 or 24 chooses).", valueName: "codec"))
    var codec: CodecArgument?

    @Option(help: ArgumentHelp("""
        The bit rate of an AAC, MP3 or Opus output, for all channels together (256k, 96000, or 192 for 192k as LAME \
        takes it: a number under 1000 is in kb/s); AAC's default is 64k per channel, MP3 and Opus keep libsndfile's.
        """,
                               valueName: "rate"))
    var bitrate: BitRateArgument?

    @Option(help: ArgumentHelp("""
        Quality of an AAC, MP3, Vorbis or Opus output, \(EffectsOptions.text(Self.qualityRange.lowerBound)) (smallest) to \
        \(EffectsOptions.text(Self.qualityRange.upperBound)) (best), instead of --bitrate: \
        variable bit rate for AAC (FFmpeg's -q:a 0.1 to 2) and MP3 (LAME's VBR quality 10 to 0), Vorbis's quality, \
        Opus's 6 to 256 kb/s per channel.
        """, valueName: "q"))
    var quality: Double?

    /// The qualities a lossy output takes, as the graph's output kind declares them.
    static let qualityRange = KindRanges.range(GenericOutputKind.kind, "quality")

    @Option(help: ArgumentHelp("Fade in from silence over this time (2s, 500ms, 1:30).", valueName: "time"))
    var fadeIn: TimeArgument?

    @Option(help: ArgumentHelp("Fade out to silence over this time before the end.", valueName: "time"))
    var fadeOut: TimeArgument?

    func validate() throws {
        if let rate, !(1...Int(StreamFormat.maximumSampleRate)).contains(rate) {
            throw ValidationError("--rate must be from 1 to \(Int(StreamFormat.maximumSampleRate)) Hz, not \(rate)")
        }
        if let channels, !(1...StreamFormat.maximumChannelCount).contains(channels) {
            throw ValidationError("--channels must be from 1 to \(StreamFormat.maximumChannelCount), not \(channels)")
        }
        let engine: ResamplerEngineKind
        do throws(ResamplerError) { engine = try ResamplerRegistry.engine(named: resampler) } catch {
            throw ValidationError("--resampler: \(error)")
        }
        if engine.level(for: srcQuality.quality) == nil {
            let refusal = ResamplerError.unsupportedQuality(engine: engine.name, quality: srcQuality.quality, offered: engine.qualities)
            throw ValidationError("--src-quality \(srcQuality.quality.name) with --resampler \(engine.name): \(refusal)")
        }
        if let decoder, FormatRegistry.standard.kind(named: decoder) == nil {
            throw ValidationError("--decoder: no decoder called \(decoder) in this build; give one of \(Self.decoderNames)")
        }
        if channelMap != nil, mixMatrix != nil { throw ValidationError("give --channel-map or --mix-matrix, not both") }
        if bitrate != nil, quality != nil { throw ValidationError("give --bitrate or --quality, not both") }
        if let quality, !Self.qualityRange.contains(quality) {
            throw ValidationError("--quality must be from \(KindRanges.text(Self.qualityRange)), not \(quality)")
        }
        for (name, time) in [("--fade-in", fadeIn), ("--fade-out", fadeOut)] {
            if case .frames? = time?.time { throw ValidationError("\(name) takes seconds (2s) or milliseconds (500ms), not frames") }
        }
    }

    /// The resampler's engine and quality and the dither, as every job's settings.
    func apply(to settings: inout RenderSettings) {
        settings.resampler = resampler
        settings.resamplerQuality = srcQuality.quality
        settings.dither = dither
        settings.ditherSeed = ditherSeed
        settings.decoder = decoder
        settings.salvage = salvage
    }

    /// The decoders this build has, as `--decoder` takes them (`vorbisfile`, `opus`, `sndfile`, `mpg123`, `ffmpeg`);
    /// named once, as the preset names are (`CompletionValues.presetNames`).
    static let decoderNames: String = {
        FormatRegistry.standard.kinds.filter(\.decodes).map { kind in
            let lower = kind.name.lowercased()
            return lower.hasPrefix("lib") ? String(lower.dropFirst(3)) : lower
        }.joined(separator: ", ")
    }()

    /// The output rate and channels, codec, bit rate and quality asked for, in `choice`; a codec
    /// takes the depth of `--bits` that `choice` already holds (checked by `validateCodec(bits:)`).
    func apply(to choice: inout OutputFormatChoice) throws {
        choice.sampleRate = rate.map(Double.init)
        choice.channelCount = channels
        if let codec { try choice.setCodec(codec.encoding, bits: choice.encoding) }
        choice.encoder = EncoderSettings(bitRate: bitrate?.bitsPerSecond, quality: quality)
    }

    /// Refuses `--bits` beside a codec that cannot take it: ALAC holds 16 or 24 bits, and AAC
    /// has no bit depth to set.
    func validateCodec(bits: BitsArgument?) throws {
        guard let codec else { return }
        var choice = OutputFormatChoice()
        do throws(CodecChoiceError) { try choice.setCodec(codec.encoding, bits: bits?.encoding) } catch {
            switch error {
            case .noBitDepth: throw ValidationError("--bits does not apply to --codec \(codec.encoding.identifier): \(error)")
            case .unsupportedBitDepth: throw ValidationError("--codec \(error): give --bits 16 or --bits 24")
            }
        }
    }

    /// The fades asked for, in `finishing` (frames count at the output rate, else 44.1 kHz).
    func apply(to finishing: inout FinishingOptions) {
        let rate = rate.map(Double.init) ?? 44100
        finishing.fadeIn = fadeIn?.time.seconds(at: rate) ?? 0
        finishing.fadeOut = fadeOut?.time.seconds(at: rate) ?? 0
    }

    /// The channel matrix of `--mix-matrix` or `--channel-map`, if given; a map needs the
    /// input's channel count, which `inputChannels` reads.
    func channelMatrix(inputChannels: () throws -> Int) throws -> ChannelMatrix? {
        do {
            if let mixMatrix { return try ChannelMatrix.parse(mixMatrix) }
            guard let channelMap else { return nil }
            let map = try channelMap.split(separator: ",").map { field -> Int in
                guard let index = Int(field.filter { $0 != " " }) else { throw ChannelMatrixError.notANumber(String(field)) }
                return index
            }
            return try ChannelMatrix.selecting(map, inputCount: try inputChannels())
        } catch let error as ChannelMatrixError {
            throw RenderError.usage("--\(mixMatrix != nil ? "mix-matrix" : "channel-map"): \(error)")
        }
    }

    /// The flags given that a graph file cannot take (its nodes set rates, channels and fades).
    var flagsAGraphStates: [String] {
        [(rate != nil, "--rate"), (channels != nil, "--channels"), (channelMap != nil, "--channel-map"),
         (mixMatrix != nil, "--mix-matrix"), (fadeIn != nil, "--fade-in"), (fadeOut != nil, "--fade-out"),
         (codec != nil, "--codec"), (bitrate != nil, "--bitrate"), (quality != nil, "--quality")]
            .filter(\.0).map(\.1)
    }
}

/// A resampler quality named on the command line.
struct ResamplerQualityArgument: ExpressibleByArgument {
    let quality: ResamplerQuality

    init(quality: ResamplerQuality) { self.quality = quality }

    init?(argument: String) {
        guard let quality = ResamplerQuality(name: argument) else { return nil }
        self.quality = quality
    }

    var defaultValueDescription: String { quality.name }
    static var allValueStrings: [String] { ResamplerQuality.allCases.map(\.name) }
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

extension RenderJob.DitherChoice: ExpressibleByArgument {}
