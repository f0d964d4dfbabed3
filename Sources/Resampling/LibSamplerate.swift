import CSamplerate

/// Every call into libsamplerate goes through this one file, so the C surface is in one place.
enum LibSamplerate {
    typealias State = OpaquePointer

    /// What one `src_process` or `src_simple` call did: its status and the frames it moved.
    struct Step {
        var status: Int32
        var used: Int
        var generated: Int
    }

    static func new(converter: Int32, channels: Int, error: inout Int32) -> State? {
        src_new(converter, Int32(channels), &error)
    }

    static func delete(_ state: State) {
        _ = src_delete(state)
    }

    static func process(_ state: State, input: UnsafePointer<Float>, inputFrames: Int, output: UnsafeMutablePointer<Float>,
                        outputCapacity: Int, endOfInput: Bool, ratio: Double) -> Step {
        var data = SRC_DATA(data_in: input, data_out: output, input_frames: inputFrames, output_frames: outputCapacity,
                            input_frames_used: 0, output_frames_gen: 0, end_of_input: endOfInput ? 1 : 0, src_ratio: ratio)
        let status = src_process(state, &data)
        return Step(status: status, used: data.input_frames_used, generated: data.output_frames_gen)
    }

    static func simple(input: UnsafePointer<Float>, inputFrames: Int, output: UnsafeMutablePointer<Float>, outputCapacity: Int,
                       ratio: Double, converter: Int32, channels: Int) -> Step {
        var data = SRC_DATA(data_in: input, data_out: output, input_frames: inputFrames, output_frames: outputCapacity,
                            input_frames_used: 0, output_frames_gen: 0, end_of_input: 1, src_ratio: ratio)
        let status = src_simple(&data, converter, Int32(channels))
        return Step(status: status, used: data.input_frames_used, generated: data.output_frames_gen)
    }

    static func reset(_ state: State) {
        _ = src_reset(state)
    }

    static func isValidRatio(_ ratio: Double) -> Bool {
        src_is_valid_ratio(ratio) != 0
    }

    static func message(_ error: Int32) -> String {
        src_strerror(error).map { String(cString: $0) } ?? "libsamplerate error \(error)"
    }

    static func name(_ converter: Int32) -> String {
        src_get_name(converter).map { String(cString: $0) } ?? "converter \(converter)"
    }
}
