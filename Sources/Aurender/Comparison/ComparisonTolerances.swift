/// The differences a comparison of two renders allows (`aurender diff`'s tolerances), each
/// judged only when given; with none of the four levels given, the samples must be identical.
///
/// Why several: a byte or sample comparison is too strict where a decoder or a resampler moved by
/// a least significant bit, so CI pipelines judge by the figure that matters to them.
public struct ComparisonTolerances: Sendable, Equatable {
    /// The largest sample difference allowed, in dBFS.
    public var maxDifferenceDBFS: Double?
    /// The largest RMS of the difference allowed, in dBFS.
    public var rmsDifferenceDBFS: Double?
    /// The largest difference of integrated loudness allowed, in LU.
    public var loudnessLU: Double?
    /// The largest difference of a third-octave band's level allowed, in dB.
    public var spectrumDB: Double?
    /// The frames by which the lengths may differ (the frames both hold are compared).
    public var lengthFrames: Int64

    public init(maxDifferenceDBFS: Double? = nil, rmsDifferenceDBFS: Double? = nil, loudnessLU: Double? = nil,
                spectrumDB: Double? = nil, lengthFrames: Int64 = 0) {
        self.maxDifferenceDBFS = maxDifferenceDBFS
        self.rmsDifferenceDBFS = rmsDifferenceDBFS
        self.loudnessLU = loudnessLU
        self.spectrumDB = spectrumDB
        self.lengthFrames = lengthFrames
    }

    /// The loudness tolerances that make sense, in LU.
    public static let loudnessRange = 0.0...100.0
    /// The third-octave tolerances that make sense, in dB.
    public static let spectrumRange = 0.0...200.0

    /// Whether no level is given, so that only identical samples pass.
    public var requiresIdentity: Bool {
        maxDifferenceDBFS == nil && rmsDifferenceDBFS == nil && loudnessLU == nil && spectrumDB == nil
    }
}
