import CSoxr

/// Every call into libsoxr goes through this one file, so the C surface is in one place.
enum LibSoxr {
    typealias State = soxr_t

    /// What one `soxr_process` call did: its error (nil when none) and the frames it moved.
    struct Step {
        var error: String?
        var used: Int
        var generated: Int
    }

    /// A resampler for interleaved 32-bit floats with one of soxr's quality recipes
    /// (`SOXR_VHQ`...), linear phase, on the calling thread only.
    static func create(inputRate: Int, outputRate: Int, channels: Int, recipe: UInt) -> (State?, String?) {
        var error: soxr_error_t?
        var io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
        var quality = soxr_quality_spec(recipe, 0)
        var runtime = soxr_runtime_spec(1)
        let state = soxr_create(Double(inputRate), Double(outputRate), UInt32(channels), &error, &io, &quality, &runtime)
        return (state, error.map { String(cString: $0) })
    }

    static func delete(_ state: State) {
        soxr_delete(state)
    }

    /// Feeds `inputFrames` frames (nil input: the input has ended, flush the tail) and takes
    /// up to `outputCapacity` frames out.
    static func process(_ state: State, input: UnsafePointer<Float>?, inputFrames: Int, output: UnsafeMutablePointer<Float>,
                        outputCapacity: Int) -> Step {
        var used = 0, generated = 0
        let error = soxr_process(state, input, inputFrames, &used, output, outputCapacity, &generated)
        return Step(error: error.map { String(cString: $0) }, used: used, generated: generated)
    }

    /// Forgets all input, keeping the configuration.
    static func clear(_ state: State) -> String? {
        soxr_clear(state).map { String(cString: $0) }
    }

    /// The recipes aurender's levels map to.
    static let veryHigh = UInt(SOXR_VHQ)
    static let high = UInt(SOXR_HQ)
    static let medium = UInt(SOXR_MQ)
    static let quick = UInt(SOXR_QQ)
}
