/// Why a time stretcher could not be made or fed: one line a user can act on.
public enum TimeStretchError: Error, Equatable, CustomStringConvertible {
    /// SoundTouch takes 1 to `TimeStretcher.maximumChannelCount` channels.
    case unsupportedChannelCount(Int)
    /// SoundTouch takes sample rates from 1 Hz to `TimeStretcher.maximumSampleRate`.
    case unsupportedSampleRate(Int)
    /// SoundTouch refused an operation (it caught an error of its own, or ran out of memory).
    case library(operation: String)

    public var description: String {
        switch self {
        case .unsupportedChannelCount(let count):
            "SoundTouch stretches 1 to \(TimeStretcher.maximumChannelCount) channels, not \(count)"
        case .unsupportedSampleRate(let rate):
            "SoundTouch stretches streams of 1 to \(TimeStretcher.maximumSampleRate) Hz, not \(rate) Hz"
        case .library(let operation):
            "SoundTouch could not \(operation)"
        }
    }
}
