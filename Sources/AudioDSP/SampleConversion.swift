import AudioGraph

/// Samples that could not be written as they were: counted, never hidden.
public struct ClipCount: Equatable, Sendable {
    /// Samples beyond full scale, clipped to it when written as integers.
    public var overs = 0
    /// NaN and ±Inf samples, written as 0.
    public var nonFinite = 0

    public init(overs: Int = 0, nonFinite: Int = 0) {
        self.overs = overs
        self.nonFinite = nonFinite
    }

    public static func += (lhs: inout ClipCount, rhs: ClipCount) {
        lhs.overs += rhs.overs
        lhs.nonFinite += rhs.nonFinite
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
                destination[frame * channels + channel] = finite ? value : 0
            }
        }
        return count
    }

    /// Joins the channels into interleaved integers of `bits` bits (8 to 32), left-justified in
    /// 32 bits, rounding to nearest. Values beyond full scale are clipped and counted; NaN and
    /// ±Inf become 0 and are counted. Full scale is 2^(bits-1), so reading with libsndfile's
    /// normalisation and writing back is bit-exact.
    public static func quantize(_ buffers: AudioBufferList, frames: Int, bits: Int,
                                into destination: UnsafeMutablePointer<Int32>) -> ClipCount {
        precondition((8...32).contains(bits), "bit depth \(bits) is not 8 to 32")
        let channels = buffers.channelCount
        let scale = Double(1 << (bits - 1))
        let high = scale - 1, low = -scale
        let shift = Int32(32 - bits)
        var count = ClipCount()
        for channel in 0..<channels {
            let source = buffers[channel]
            for frame in 0..<frames {
                let sample = source[frame]
                let finite = sample.isFinite
                let scaled = finite ? (Double(sample) * scale).rounded(.toNearestOrEven) : 0
                let clipped = min(max(scaled, low), high)
                count.overs &+= clipped != scaled ? 1 : 0
                count.nonFinite &+= finite ? 0 : 1
                destination[frame * channels + channel] = Int32(clipped) << shift
            }
        }
        return count
    }
}
