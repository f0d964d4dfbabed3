import CSoundTouch

/// Every call into SoundTouch's C interface (`SoundTouchDLL.h`, `libSoundTouchDll`) goes
/// through this one file, so the C surface is in one place.
///
/// The C interface checks its handle and catches the C++ library's exceptions, returning 0
/// where the C++ call would have thrown; the functions that can fail return that as a Bool.
enum LibSoundTouch {
    typealias Handle = UnsafeMutableRawPointer

    /// `SoundTouch.h`'s setting numbers, which the C header does not repeat.
    enum Setting: Int32 {
        /// `SETTING_OVERLAP_MS`: how long two segments cross-fade, in milliseconds.
        case overlapMilliseconds = 5
        /// `SETTING_NOMINAL_OUTPUT_SEQUENCE`: output frames per segment, less one cross-fade, read only.
        case outputSequence = 7
        /// `SETTING_INITIAL_LATENCY`: input frames held before the first output, read only.
        case initialLatency = 8
    }

    static func create() -> Handle? {
        soundtouch_createInstance()
    }

    static func destroy(_ handle: Handle) {
        soundtouch_destroyInstance(handle)
    }

    static func version() -> String {
        soundtouch_getVersionString().map { String(cString: $0) } ?? "unknown"
    }

    static func setChannels(_ handle: Handle, _ channels: Int) -> Bool {
        soundtouch_setChannels(handle, UInt32(channels)) != 0
    }

    static func setSampleRate(_ handle: Handle, _ rate: Int) -> Bool {
        soundtouch_setSampleRate(handle, UInt32(rate)) != 0
    }

    static func setTempo(_ handle: Handle, _ tempo: Double) {
        soundtouch_setTempo(handle, Float(tempo))
    }

    static func setting(_ handle: Handle, _ setting: Setting) -> Int {
        Int(soundtouch_getSetting(handle, setting.rawValue))
    }

    /// Adds `frames` interleaved frames and stretches what it can.
    static func put(_ handle: Handle, _ samples: UnsafePointer<Float>, frames: Int) -> Bool {
        soundtouch_putSamples(handle, samples, UInt32(frames)) != 0
    }

    /// Moves up to `frames` stretched frames into `destination`; returns how many.
    static func receive(_ handle: Handle, into destination: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        Int(soundtouch_receiveSamples(handle, destination, UInt32(frames)))
    }

    /// Drops up to `frames` stretched frames; returns how many.
    static func discard(_ handle: Handle, frames: Int) -> Int {
        Int(soundtouch_receiveSamples(handle, nil, UInt32(frames)))
    }

    /// Stretched frames ready to be received.
    static func available(_ handle: Handle) -> Int {
        Int(soundtouch_numSamples(handle))
    }

    /// Input frames given but not stretched yet.
    static func unprocessed(_ handle: Handle) -> Int {
        Int(soundtouch_numUnprocessedSamples(handle))
    }

    /// Forgets every frame given and made, keeping the settings and the buffers' memory.
    static func clear(_ handle: Handle) {
        soundtouch_clear(handle)
    }
}
