import CAudioKernels

/// Base-2 logarithms and powers of two in a few instructions, for gain computers that need one
/// of each per sample: a polynomial on the mantissa, the exponent from the bits. Both are exact
/// to about 1e-5 dB, far under what a level detector resolves, and give the same bits on every
/// machine. The polynomials live in `CAudioKernels`, where the compressor's curve runs them over
/// blocks in vectors; these are the same functions a value at a time.
public enum FastLogarithm {
    /// log₂ `x` for a finite, normal `x` > 0 (absolute error under 1e-6).
    @inline(__always)
    public static func log2(_ x: Float) -> Float { aurender_fast_log2(x) }

    /// 2 to the power `y` (relative error near 1e-7, Float's own); −126 and lower give 0, 128 and above infinity.
    @inline(__always)
    public static func exp2(_ y: Float) -> Float { aurender_fast_exp2(y) }
}
