import CFFTW
import Synchronization

/// The discrete Fourier transform of a real block, FFTW's single-precision r2c: the one file
/// that calls FFTW.
///
/// The plan is made in `init` (`FFTW_ESTIMATE`, so it is the same on every run) over buffers
/// allocated there; `transform()` runs it on them and allocates nothing. FFTW's planner is not
/// thread-safe, so plans are made and destroyed under one process-wide lock; running a plan is.
public final class RealFFT: @unchecked Sendable {
    /// Real points per transform.
    public let size: Int
    /// The `size` samples `transform()` reads (FFTW's alignment); the caller fills them.
    public let input: UnsafeMutablePointer<Float>
    /// The `size / 2 + 1` bins `transform()` writes, real and imaginary parts interleaved:
    /// bin k's are `output[2k]` and `output[2k + 1]`, unnormalized (a sum over the samples).
    public let output: UnsafeMutablePointer<Float>
    private let complexOutput: UnsafeMutablePointer<fftwf_complex>
    private let plan: fftwf_plan

    /// Serializes FFTW's planner, which several graphs may call at once.
    private static let planner = Mutex(())

    /// A transform of `size` (at least 2) real points.
    public init(size: Int) {
        precondition(size >= 2, "a transform needs two points or more")
        self.size = size
        input = fftwf_alloc_real(size)
        complexOutput = fftwf_alloc_complex(size / 2 + 1)
        input.initialize(repeating: 0, count: size)
        output = UnsafeMutableRawPointer(complexOutput).bindMemory(to: Float.self, capacity: 2 * (size / 2 + 1))
        output.initialize(repeating: 0, count: 2 * (size / 2 + 1))
        nonisolated(unsafe) let (input, complexOutput) = (input, complexOutput)
        nonisolated(unsafe) var plan: fftwf_plan?
        Self.planner.withLock { _ in plan = fftwf_plan_dft_r2c_1d(Int32(size), input, complexOutput, FFTW_ESTIMATE) }
        guard let plan else { fatalError("FFTW could not plan a transform of \(size) points") }
        self.plan = plan
    }

    deinit {
        nonisolated(unsafe) let plan = plan
        Self.planner.withLock { _ in fftwf_destroy_plan(plan) }
        fftwf_free(input)
        fftwf_free(complexOutput)
    }

    /// Transforms `input` into `output`.
    public func transform() {
        fftwf_execute_dft_r2c(plan, input, complexOutput)
    }
}
