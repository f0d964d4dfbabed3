import CVoiceShim

/// One instance of WebRTC's audio processing module (libwebrtc-audio-processing, through the
/// C shim in `CVoiceShim`): a thin typed wrapper that holds every call into it.
///
/// It works on 10 ms frames (`frameLength`) at one of its own rates (`nativeRates`), with the
/// far end, when echo is cancelled, given frame by frame just before the near end's frame it
/// may echo in. Used from one thread at a time.
public final class WebRTCAudioProcessing {
    /// The rates WebRTC processes at.
    public static let nativeRates = [8000, 16000, 32000, 48000]

    /// Frames in one 10 ms frame.
    public let frameLength: Int
    /// The processing rate.
    public let sampleRate: Int
    /// Channels of the processed stream.
    public let channelCount: Int
    /// Whether echo against a far end is cancelled.
    public let cancelsEcho: Bool
    /// What the processing runs now.
    public private(set) var settings: VoiceSettings
    private let processor: OpaquePointer

    /// A processor at `sampleRate` (one of `nativeRates`) for `channelCount` channels, cancelling
    /// echo against a mono far end when `cancelsEcho`.
    public init(sampleRate: Int, channelCount: Int, settings: VoiceSettings, cancelsEcho: Bool) throws(VoiceProcessingError) {
        try settings.validate()
        var plain = Self.plain(settings, sampleRate: sampleRate, channelCount: channelCount, cancelsEcho: cancelsEcho)
        var error: Int32 = 0
        guard let processor = apm_create(&plain, &error) else { throw .library(operation: "start at \(sampleRate) Hz, \(channelCount) channels", code: error) }
        self.processor = processor
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.cancelsEcho = cancelsEcho
        self.settings = settings
        frameLength = Int(apm_frame_length(processor))
    }

    deinit { apm_destroy(processor) }

    /// The shim's plain settings for `settings`.
    private static func plain(_ settings: VoiceSettings, sampleRate: Int, channelCount: Int, cancelsEcho: Bool) -> apm_settings {
        apm_settings(
            sample_rate_hz: Int32(sampleRate), channel_count: Int32(channelCount), reverse_channel_count: cancelsEcho ? 1 : 0,
            noise_suppression_level: Int32(settings.noiseSuppression?.rawValue ?? -1),
            gain_control_target_dbfs: settings.gainTarget.map { Int32((-$0).rounded()) } ?? -1,
            gain_control_compression_gain_db: Int32(settings.gainCompression.rounded()), gain_control_limiter: 1,
            high_pass_filter: settings.highPass ? 1 : 0, echo_suppression_level: Int32(settings.echoSuppression.rawValue),
            stream_delay_ms: 0)
    }

    /// Changes what the processing runs from the next frame on: levels and targets change in
    /// place; a stage turned on starts afresh (WebRTC builds it then: the one time it allocates
    /// after being made); one turned off is dropped. Whether echo is cancelled stays as made.
    public func update(_ settings: VoiceSettings) throws(VoiceProcessingError) {
        guard settings != self.settings else { return }
        try settings.validate()
        var plain = Self.plain(settings, sampleRate: sampleRate, channelCount: channelCount, cancelsEcho: cancelsEcho)
        let code = apm_update(processor, &plain)
        guard code == 0 else { throw .library(operation: "change its settings", code: code) }
        self.settings = settings
    }

    /// Frames the output runs behind the input with the settings it runs now.
    public var latency: Int { Self.latency(sampleRate: sampleRate, settings: settings, cancelsEcho: cancelsEcho) }

    /// The most frames the output can run behind the input at this rate: with noise suppression on.
    public var maximumLatency: Int {
        Self.latency(sampleRate: sampleRate, settings: VoiceSettings(noiseSuppression: .low), cancelsEcho: cancelsEcho)
    }

    /// Frames the output runs behind the input at `sampleRate` with `settings`: the noise
    /// suppressor's overlap (6 ms of its band's samples, which is at most 16 kHz) and the
    /// band-splitting filters at 32 kHz (4 frames) and 48 kHz (46 frames), which run only when
    /// some stage changes the samples (with every stage off WebRTC hands its input back as it
    /// is). Measured on this library by cross-correlation (`VoiceNodeTests.theOutputLinesUpWithTheInput` holds it).
    public static func latency(sampleRate: Int, settings: VoiceSettings, cancelsEcho: Bool) -> Int {
        let processes = cancelsEcho || settings.highPass || settings.noiseSuppression != nil || settings.gainTarget != nil
        let splitting = !processes ? 0 : sampleRate == 48000 ? 46 : sampleRate == 32000 ? 4 : 0
        let bandRate = min(sampleRate, 16000)
        return splitting + (settings.noiseSuppression == nil ? 0 : bandRate * 6 / 1000 * (sampleRate / bandRate))
    }

    /// Gives the far end's next 10 ms, `frameLength` samples: what played through the speaker.
    public func analyzeFarEnd(_ samples: UnsafePointer<Float>) throws(VoiceProcessingError) {
        var channel: UnsafePointer<Float>? = samples
        let code = apm_analyze_reverse(processor, &channel)
        guard code == 0 else { throw .library(operation: "analyze the far end", code: code) }
    }

    /// Processes the near end's next 10 ms: `channelCount` pointers to `frameLength` samples
    /// in `input`, as many written to `output` (which may be the same memory).
    public func process(_ input: UnsafePointer<UnsafePointer<Float>?>, into output: UnsafePointer<UnsafeMutablePointer<Float>?>) throws(VoiceProcessingError) {
        let code = apm_process(processor, input, output)
        guard code == 0 else { throw .library(operation: "process a frame", code: code) }
    }
}
