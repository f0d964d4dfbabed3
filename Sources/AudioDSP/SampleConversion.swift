import AudioGraph

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
}

/// Kernels that move samples between the graph's canonical buffers and the interleaved
/// forms files use. Interleaved floats are in [-1, 1); integers are left-justified in 32 bits,
/// as libsndfile's `sf_writef_int` takes them.
public enum SampleConversion {
    /// Splits `frames` interleaved frames into one buffer per channel.
    public static func deinterleave(_ source: UnsafePointer<Float>, frames: Int, into buffers: AudioBufferList, at offset: Int = 0) {
        let channels = buffers.channelCount
        if channels == 1 {
            (buffers[0] + offset).update(from: source, count: frames)
            return
        }
        if channels == 2 {
            let left = buffers[0] + offset, right = buffers[1] + offset
            for frame in 0..<frames {
                left[frame] = source[2 * frame]
                right[frame] = source[2 * frame + 1]
            }
            return
        }
        for channel in 0..<channels {
            let destination = buffers[channel] + offset
            for frame in 0..<frames { destination[frame] = source[frame * channels + channel] }
        }
    }

    /// Splits `frames` interleaved frames of 16-bit integers into one buffer per channel,
    /// scaled so that full scale is 32768 (libsndfile's normalisation, exact in Float32).
    public static func deinterleave(_ source: UnsafePointer<Int16>, frames: Int, into buffers: AudioBufferList, at offset: Int = 0) {
        let channels = buffers.channelCount
        let scale: Float = 1.0 / 32768
        if channels == 2 {
            let left = buffers[0] + offset, right = buffers[1] + offset
            for frame in 0..<frames {
                left[frame] = Float(source[2 * frame]) * scale
                right[frame] = Float(source[2 * frame + 1]) * scale
            }
            return
        }
        for channel in 0..<channels {
            let destination = buffers[channel] + offset
            for frame in 0..<frames { destination[frame] = Float(source[frame * channels + channel]) * scale }
        }
    }

    /// Joins the channels into interleaved floats, keeping values beyond full scale (counted
    /// as overs) and writing NaN and ±Inf as 0 (counted as non-finite).
    public static func interleave(_ buffers: AudioBufferList, frames: Int, into destination: UnsafeMutablePointer<Float>) -> ClipCount {
        let channels = buffers.channelCount
        var count = ClipCount()
        for channel in 0..<channels {
            let source = buffers[channel]
            for frame in 0..<frames {
                let value = source[frame]
                let finite = value.isFinite
                count.nonFinite &+= finite ? 0 : 1
                count.overs &+= finite && abs(value) > 1 ? 1 : 0
                count.peak = max(count.peak, finite ? abs(value) : 0)
                destination[frame * channels + channel] = finite ? value : 0
            }
        }
        return count
    }

    /// Joins the channels into interleaved integers of `bits` bits (8 to 32), left-justified in
    /// 32 bits, rounding to nearest even. Values beyond full scale are clipped and counted; NaN
    /// and ±Inf become 0 and are counted. Full scale is 2^(bits-1), so reading with libsndfile's
    /// normalisation and writing back is bit-exact.
    public static func quantize(_ buffers: AudioBufferList, frames: Int, bits: Int,
                                into destination: UnsafeMutablePointer<Int32>) -> ClipCount {
        quantizeInterleaved(buffers, frames: frames, bits: bits, into: destination)
    }

    /// Joins the channels into interleaved 16-bit integers (what `sf_writef_short` takes),
    /// quantized to `bits` bits (8 to 16), left-justified; otherwise as the Int32 form.
    public static func quantize(_ buffers: AudioBufferList, frames: Int, bits: Int,
                                into destination: UnsafeMutablePointer<Int16>) -> ClipCount {
        quantizeInterleaved(buffers, frames: frames, bits: bits, into: destination)
    }

    @inline(__always)
    private static func quantizeInterleaved<Sample: FixedWidthInteger>(
        _ buffers: AudioBufferList, frames: Int, bits: Int, into destination: UnsafeMutablePointer<Sample>
    ) -> ClipCount {
        precondition((8...32).contains(bits) && bits <= Sample.bitWidth, "bit depth \(bits) does not fit \(Sample.self)")
        let quantizer = Quantizer(bits: bits, containerBits: Sample.bitWidth)
        let channels = buffers.channelCount
        var overs = 0, nonFinite = 0
        var peak: Float = 0
        if channels == 2 {
            let left = buffers[0], right = buffers[1]
            for frame in 0..<frames {
                destination[2 * frame] = Sample(truncatingIfNeeded: quantizer.convert(left[frame], overs: &overs, nonFinite: &nonFinite, peak: &peak))
                destination[2 * frame + 1] = Sample(truncatingIfNeeded: quantizer.convert(right[frame], overs: &overs, nonFinite: &nonFinite, peak: &peak))
            }
        } else {
            for channel in 0..<channels {
                let source = buffers[channel]
                for frame in 0..<frames {
                    destination[frame * channels + channel] = Sample(truncatingIfNeeded: quantizer.convert(source[frame], overs: &overs, nonFinite: &nonFinite, peak: &peak))
                }
            }
        }
        return ClipCount(overs: overs, nonFinite: nonFinite, peak: peak)
    }
}

/// Float to integer conversion without branches or traps, so loops over it vectorize.
private struct Quantizer {
    /// Adding 1.5 × 2^52 to a Double of magnitude below 2^51 rounds it to an integer (ties to
    /// even) and leaves that integer, in two's complement, in the low 32 bits of its pattern.
    static let magic = 6_755_399_441_055_744.0
    let scale: Double
    let high: Double
    let low: Double
    let shift: Int32

    /// Quantizes to `bits` bits, left-justified in an integer of `containerBits` bits.
    init(bits: Int, containerBits: Int) {
        scale = Double(1 << (bits - 1))
        high = scale - 1
        low = -scale
        shift = Int32(containerBits - bits)
    }

    @inline(__always)
    func convert(_ sample: Float, overs: inout Int, nonFinite: inout Int, peak: inout Float) -> Int32 {
        let finite = abs(sample) < .infinity
        peak = max(peak, finite ? abs(sample) : 0)
        let rounded = ((finite ? Double(sample) : 0) * scale + Self.magic) - Self.magic
        let clipped = min(max(rounded, low), high)
        overs &+= clipped != rounded ? 1 : 0
        nonFinite &+= finite ? 0 : 1
        return Int32(truncatingIfNeeded: (clipped + Self.magic).bitPattern) << shift
    }
}
