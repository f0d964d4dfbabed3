/// A bounded picture of a whole stream, for reports: its waveform's outline, its average
/// spectrum, its integrated loudness and its true and sample peaks.
///
/// Its size does not depend on the stream's length: the outline has at most a fixed number of
/// columns and the spectrum a fixed number of bins.
public struct SignalSketch: Sendable, Equatable {
    /// The stream's rate and channel count.
    public var sampleRate: Double
    public var channelCount: Int
    /// Frames seen.
    public var frames: Int64
    /// Frames each column of the outline covers (the last column may cover fewer).
    public var framesPerColumn: Int64
    /// The smallest and largest sample of each column, over every channel.
    public var minima: [Float]
    public var maxima: [Float]
    /// The RMS level of each column, over every channel (1 is full scale).
    public var rms: [Float]
    /// The Hz between the spectrum's bins; bin k lies at k × binWidth.
    public var binWidth: Double
    /// The average power spectrum of the channels' mean, in dB relative to a full-scale sine
    /// (which reads 0 dB at its bin), bins 0 through the Nyquist frequency, never below −200 dB
    /// (what a silent bin reads); empty when the stream was shorter than one analysis window.
    public var spectrumDecibels: [Float]
    /// The integrated loudness (ITU-R BS.1770-4 gating), LUFS; nil when no block passed the
    /// absolute gate (silence, or shorter than one 400 ms block).
    public var integratedLoudness: Double?
    /// The largest magnitude among the samples and among the 4× (2× at 96 kHz and over)
    /// interpolated points, as BS.1770-4 Annex 2 defines the true peak; linear, 1 is full scale.
    public var samplePeak: Float
    public var truePeak: Float
    /// The largest point of the 8× reconstruction (`ReconstructedPeakMeter`, flat to 0.45 of the
    /// rate), which longer meters read and BS.1770-4's 4× can under-read; linear. Nil unless the
    /// sketcher was asked for it.
    public var reconstructedPeak: Float?

    public init(sampleRate: Double, channelCount: Int, frames: Int64, framesPerColumn: Int64, minima: [Float], maxima: [Float],
                rms: [Float], binWidth: Double, spectrumDecibels: [Float], integratedLoudness: Double?, samplePeak: Float, truePeak: Float,
                reconstructedPeak: Float? = nil) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.frames = frames
        self.framesPerColumn = framesPerColumn
        self.minima = minima
        self.maxima = maxima
        self.rms = rms
        self.binWidth = binWidth
        self.spectrumDecibels = spectrumDecibels
        self.integratedLoudness = integratedLoudness
        self.samplePeak = samplePeak
        self.truePeak = truePeak
        self.reconstructedPeak = reconstructedPeak
    }
}
