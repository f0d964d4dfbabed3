import CEbur128

/// Every call into libebur128 goes through this one file, so the C surface is in one place.
enum LibEbur128 {
    typealias State = UnsafeMutablePointer<ebur128_state>

    /// Integrated loudness, loudness range, sample peak and true peak.
    static let fullMode = Int32(EBUR128_MODE_I.rawValue | EBUR128_MODE_LRA.rawValue
                                | EBUR128_MODE_SAMPLE_PEAK.rawValue | EBUR128_MODE_TRUE_PEAK.rawValue)

    static func new(channels: Int, sampleRate: Int, mode: Int32) -> State? {
        ebur128_init(UInt32(channels), UInt(sampleRate), mode)
    }

    static func destroy(_ state: State) {
        var state: State? = state
        ebur128_destroy(&state)
    }

    static func addFrames(_ state: State, _ samples: UnsafePointer<Float>, frames: Int) -> Bool {
        ebur128_add_frames_float(state, samples, frames) == EBUR128_SUCCESS.rawValue
    }

    static func integrated(_ state: State) -> Double? {
        var value = 0.0
        return ebur128_loudness_global(state, &value) == EBUR128_SUCCESS.rawValue ? value : nil
    }

    static func range(_ state: State) -> Double? {
        var value = 0.0
        return ebur128_loudness_range(state, &value) == EBUR128_SUCCESS.rawValue ? value : nil
    }

    static func samplePeak(_ state: State, channel: Int) -> Double? {
        var value = 0.0
        return ebur128_sample_peak(state, UInt32(channel), &value) == EBUR128_SUCCESS.rawValue ? value : nil
    }

    static func truePeak(_ state: State, channel: Int) -> Double? {
        var value = 0.0
        return ebur128_true_peak(state, UInt32(channel), &value) == EBUR128_SUCCESS.rawValue ? value : nil
    }

    static func version() -> String {
        var major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
        ebur128_get_version(&major, &minor, &patch)
        return "\(major).\(minor).\(patch)"
    }
}
