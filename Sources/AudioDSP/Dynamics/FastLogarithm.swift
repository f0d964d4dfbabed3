/// Base-2 logarithms and powers of two in a few instructions, for gain computers that need one
/// of each per sample: a polynomial on the mantissa, the exponent from the bits. Both are exact
/// to about 1e-5 dB, far under what a level detector resolves, and give the same bits
/// on every machine (plain Float arithmetic, no library call).
public enum FastLogarithm {
    /// log₂ `x` for a finite, normal `x` > 0 (absolute error under 1e-6).
    @inline(__always)
    public static func log2(_ x: Float) -> Float {
        let bits = x.bitPattern
        let exponent = Float(Int32(bitPattern: (bits >> 23) & 0xFF) - 127)
        let m = Float(bitPattern: (bits & 0x007F_FFFF) | 0x3F80_0000) - 1
        // log₂(1 + m) = m·P(m) on [0, 1), P of degree 6 (a least-squares fit, error under 4e-7).
        var p: Float = 0.0151269392
        p = p * m - 0.0781550683
        p = p * m + 0.19238113
        p = p * m - 0.324613985
        p = p * m + 0.473112609
        p = p * m - 0.720515411
        p = p * m + 1.44266404
        return exponent + p * m
    }

    /// 2 to the power `y` (relative error near 1e-7, Float's own); −126 and lower give 0, 128 and above infinity.
    @inline(__always)
    public static func exp2(_ y: Float) -> Float {
        guard y > -126 else { return 0 }
        guard y < 128 else { return .infinity }
        var whole = Float(Int32(y))
        if whole > y { whole -= 1 }
        let f = y - whole
        // 2^f on [0, 1), a degree-6 least-squares fit (relative error under 1e-8).
        var p: Float = 0.000218775165
        p = p * f + 0.00123878315
        p = p * f + 0.00968457748
        p = p * f + 0.0554804291
        p = p * f + 0.240230501
        p = p * f + 0.693146929
        p = p * f + 1
        return p * Float(bitPattern: UInt32(Int32(whole) + 127) << 23)
    }
}
