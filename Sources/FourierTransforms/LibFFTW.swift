import CFFTW
import Synchronization

/// The discrete Fourier transform of a real block, FFTW's single-precision r2c. This file (with
/// `InverseRealFFT`) is the one that calls FFTW.
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
    static let planner = Mutex(())

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

/// The inverse of `RealFFT`, FFTW's single-precision c2r: `size / 2 + 1` bins back to `size`
/// real samples, the partitioned convolution's way back to the time domain.
///
/// As `RealFFT`: planned in `init` (`FFTW_ESTIMATE`, under the same process-wide lock) over
/// buffers allocated there; `transform()` allocates nothing. FFTW's c2r overwrites its input,
/// so `input` holds garbage after each transform and is to be filled again.
public final class InverseRealFFT: @unchecked Sendable {
    /// Real points per transform.
    public let size: Int
    /// The `size / 2 + 1` bins `transform()` reads, real and imaginary parts interleaved as
    /// `RealFFT.output` holds them; the transform overwrites them.
    public let input: UnsafeMutablePointer<Float>
    /// The `size` samples `transform()` writes, unnormalized: a `RealFFT` then an
    /// `InverseRealFFT` multiply a block by `size`.
    public let output: UnsafeMutablePointer<Float>
    private let complexInput: UnsafeMutablePointer<fftwf_complex>
    private let plan: fftwf_plan

    /// An inverse transform of `size` (at least 2) real points.
    public init(size: Int) {
        precondition(size >= 2, "a transform needs two points or more")
        self.size = size
        complexInput = fftwf_alloc_complex(size / 2 + 1)
        output = fftwf_alloc_real(size)
        input = UnsafeMutableRawPointer(complexInput).bindMemory(to: Float.self, capacity: 2 * (size / 2 + 1))
        input.initialize(repeating: 0, count: 2 * (size / 2 + 1))
        output.initialize(repeating: 0, count: size)
        nonisolated(unsafe) let (complexInput, output) = (complexInput, output)
        nonisolated(unsafe) var plan: fftwf_plan?
        RealFFT.planner.withLock { _ in plan = fftwf_plan_dft_c2r_1d(Int32(size), complexInput, output, FFTW_ESTIMATE) }
        guard let plan else { fatalError("FFTW could not plan an inverse transform of \(size) points") }
        self.plan = plan
    }

    deinit {
        nonisolated(unsafe) let plan = plan
        RealFFT.planner.withLock { _ in fftwf_destroy_plan(plan) }
        fftwf_free(complexInput)
        fftwf_free(output)
    }

    /// Transforms `input` into `output`, overwriting `input`.
    public func transform() {
        fftwf_execute_dft_c2r(plan, complexInput, output)
    }
}
