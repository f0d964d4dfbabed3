import CSamplerate

/// Every call into libsamplerate goes through this one file, so the C surface is in one place.
enum LibSamplerate {
    typealias State = OpaquePointer

    static func new(converter: Int32, channels: Int, error: inout Int32) -> State? {
        src_new(converter, Int32(channels), &error)
    }

    static func delete(_ state: State) {
        _ = src_delete(state)
    }

    static func process(_ state: State, _ data: inout SRC_DATA) -> Int32 {
        src_process(state, &data)
    }

    static func simple(_ data: inout SRC_DATA, converter: Int32, channels: Int) -> Int32 {
        src_simple(&data, converter, Int32(channels))
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
