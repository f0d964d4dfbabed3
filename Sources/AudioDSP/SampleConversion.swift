import AudioGraph
import CAudioKernels

/// Samples that could not be written as they were: counted, never hidden.
public struct ClipCount: Equatable, Sendable {
    /// Samples beyond full scale, clipped to it when written as integers.
    public var overs = 0
    /// NaN and ±Inf samples, written as 0.
    public var nonFinite = 0
    /// The largest magnitude of any finite sample (1.0 is full scale).
    public var peak: Float = 0

    public init(overs: Int = 0, nonFinite: Int = 0, peak: Float = 0) {
        self.overs = overs
        self.nonFinite = nonFinite
        self.peak = peak
    }

    public static func += (lhs: inout ClipCount, rhs: ClipCount) {
        lhs.overs += rhs.overs
        lhs.nonFinite += rhs.nonFinite
        lhs.peak = max(lhs.peak, rhs.peak)
    }

    init(_ stats: aurender_clip_stats) {
        self.init(overs: stats.overs, nonFinite: stats.non_finite, peak: Float(bitPattern: UInt32(bitPattern: stats.peak_bits)))
    }
}

/// Triangular-PDF dither: noise of ±1 LSB added before rounding to integers, which turns
/// the distortion of quantization into a steady noise floor.
///
/// Seeded, so a render is byte-identical every time; the noise runs through the samples in
/// interleaved order, so it does not depend on slice sizes.
public struct TPDFDither: Sendable {
    /// The seed it started from, as shown by `--verbose`.
    public let seed: UInt64
    /// The random generators' state (eight xorshift lanes), advanced by every sample.
    var state: aurender_dither_state

    /// Dither starting from `seed`.
    public init(seed: UInt64) {
        self.seed = seed
        state = aurender_dither_seeded(seed)
    }
}

/// Kernels that move samples between the graph's canonical buffers and the interleaved
/// forms files use. Interleaved floats are in [-1, 1); integers are left-justified.
///
/// The loops are in C (`CAudioKernels`), written so the compiler vectorizes them, with an AVX2
/// instance chosen at run time on x86-64 processors that have it; these are their typed Swift faces.
public enum SampleConversion {
    /// Runs `body` with the kernels held to the baseline instruction set (SSE2 on x86-64): every
    /// instruction set must give identical results, and this is how that is checked. Not for
    /// concurrent use with another such call.
    public static func withBaselineInstructions<T>(_ body: () throws -> T) rethrows -> T {
        aurender_kernels_use_baseline(1)
        defer { aurender_kernels_use_baseline(0) }
        return try body()
    }

    /// The sum of the squares of the first `frames` frames of every channel (non-finite
    /// samples count as 0): what an RMS level is made of.
    public static func sumOfSquares(_ buffers: AudioBufferList, frames: Int) -> Double {
        aurender_sum_of_squares(constChannels(buffers), Int32(buffers.channelCount), frames)
    }

    /// Splits `frames` interleaved frames into one buffer per channel, from `offset` on.
    public static func deinterleave(_ source: UnsafePointer<Float>, frames: Int, into buffers: AudioBufferList, at offset: Int = 0) {
        withOffsetChannels(buffers, offset) { aurender_deinterleave_float(source, Int32(buffers.channelCount), frames, $0) }
    }

    /// Splits `frames` interleaved frames of 16-bit integers into one buffer per channel,
    /// scaled so that full scale is 32768 (libsndfile's normalisation, exact in Float32).
    public static func deinterleave(_ source: UnsafePointer<Int16>, frames: Int, into buffers: AudioBufferList, at offset: Int = 0) {
        withOffsetChannels(buffers, offset) { aurender_deinterleave_s16(source, Int32(buffers.channelCount), frames, $0) }
    }

    /// Joins the channels into interleaved floats, keeping values beyond full scale (counted
    /// as overs) and writing NaN and ±Inf as 0 (counted as non-finite).
    public static func interleave(_ buffers: AudioBufferList, frames: Int, into destination: UnsafeMutablePointer<Float>) -> ClipCount {
        var stats = aurender_clip_stats()
        aurender_interleave_float(constChannels(buffers), Int32(buffers.channelCount), frames, destination, &stats)
        return ClipCount(stats)
    }

    /// Joins the channels into interleaved integers of `bits` bits (8 to 32), left-justified in
    /// 32 bits, rounding to nearest even. Values beyond full scale are clipped and counted; NaN
    /// and ±Inf become 0 and are counted. Full scale is 2^(bits-1), so reading with libsndfile's
    /// normalisation and writing back is bit-exact.
    /// With `dither`, TPDF noise of ±1 LSB is added before rounding to every sample but an
    /// exact zero, so digital silence is written as zeros whatever its source.
    public static func quantize(_ buffers: AudioBufferList, frames: Int, bits: Int,
                                into destination: UnsafeMutablePointer<Int32>, dither: inout TPDFDither?) -> ClipCount {
        precondition((8...32).contains(bits), "bit depth \(bits) is not 8 to 32")
        return quantizing(buffers, dither: &dither) { channels, stats, state in
            aurender_quantize_s32(channels, Int32(buffers.channelCount), frames, Int32(bits), destination, stats, state)
        }
    }

    /// Joins the channels into interleaved 16-bit integers (what `sf_writef_short` takes),
    /// quantized to `bits` bits (8 to 16), left-justified; otherwise as the Int32 form.
    public static func quantize(_ buffers: AudioBufferList, frames: Int, bits: Int,
                                into destination: UnsafeMutablePointer<Int16>, dither: inout TPDFDither?) -> ClipCount {
        precondition((8...16).contains(bits), "bit depth \(bits) is not 8 to 16")
        return quantizing(buffers, dither: &dither) { channels, stats, state in
            aurender_quantize_s16(channels, Int32(buffers.channelCount), frames, Int32(bits), destination, stats, state)
        }
    }

    /// Runs one quantizing kernel over `buffers` with the dither's state (none without dither),
    /// and returns what it counted.
    private static func quantizing(_ buffers: AudioBufferList, dither: inout TPDFDither?,
                                   _ kernel: (UnsafePointer<UnsafePointer<Float>?>, UnsafeMutablePointer<aurender_clip_stats>,
                                              UnsafeMutablePointer<aurender_dither_state>?) -> Void) -> ClipCount {
        var stats = aurender_clip_stats()
        if dither == nil {
            kernel(constChannels(buffers), &stats, nil)
        } else {
            kernel(constChannels(buffers), &stats, &dither!.state)
        }
        return ClipCount(stats)
    }

    private static func constChannels(_ buffers: AudioBufferList) -> UnsafePointer<UnsafePointer<Float>?> {
        UnsafeRawPointer(buffers.channels.baseAddress!).assumingMemoryBound(to: UnsafePointer<Float>?.self)
    }

    /// Calls `body` with channel pointers advanced by `offset` frames, kept on the stack.
    private static func withOffsetChannels(_ buffers: AudioBufferList, _ offset: Int,
                                           _ body: (UnsafePointer<UnsafeMutablePointer<Float>?>) -> Void) {
        let base = UnsafeRawPointer(buffers.channels.baseAddress!).assumingMemoryBound(to: UnsafeMutablePointer<Float>?.self)
        if offset == 0 { return body(base) }
        withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<Float>?.self, capacity: buffers.channelCount) { shifted in
            for channel in 0..<buffers.channelCount { shifted[channel] = buffers[channel] + offset }
            body(UnsafePointer(shifted.baseAddress!))
        }
    }
}
