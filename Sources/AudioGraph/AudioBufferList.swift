/// A view of one slice of canonical audio: one Float32 buffer per channel.
///
/// Like Core Audio's `AudioBufferList` for non-interleaved data. It does not own its
/// memory; `AudioBufferStorage` does. Copying the view copies pointers, never samples.
public struct AudioBufferList {
    /// One pointer per channel, each to `capacity` frames.
    public let channels: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>
    /// Frames each channel buffer holds.
    public let capacity: Int

    /// A view over channel pointers that someone else owns.
    public init(channels: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>, capacity: Int) {
        self.channels = channels
        self.capacity = capacity
    }

    /// Channels in the slice.
    @inlinable public var channelCount: Int { channels.count }

    /// The samples of one channel.
    @inlinable public subscript(channel: Int) -> UnsafeMutablePointer<Float> { channels[channel] }

    /// Writes zeros into `frames` frames starting at `offset` in every channel.
    @inlinable public func zero(from offset: Int = 0, frames: Int) {
        for channel in channels { (channel + offset).update(repeating: 0, count: frames) }
    }

    /// Copies `frames` frames of every channel from `source`, which has the same channel count.
    @inlinable public func copy(from source: AudioBufferList, frames: Int) {
        for index in 0..<channels.count { channels[index].update(from: source.channels[index], count: frames) }
    }
}

/// Owns the memory behind an `AudioBufferList`; allocated once, when a node initializes.
public final class AudioBufferStorage {
    private let pointers: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>
    private let samples: UnsafeMutablePointer<Float>
    /// The view handed to render calls.
    public let list: AudioBufferList

    /// Allocates buffers for `channelCount` channels of `capacity` frames each, zeroed unless
    /// `zeroed` is false: a block every user fills before reading (a reader's or writer's ring
    /// slot) need not spend a pass over megabytes of memory on zeros when it is made.
    public init(channelCount: Int, capacity: Int, zeroed: Bool = true) {
        samples = .allocate(capacity: max(1, channelCount * capacity))
        if zeroed { samples.initialize(repeating: 0, count: max(1, channelCount * capacity)) }
        pointers = .allocate(capacity: channelCount)
        for channel in 0..<channelCount {
            pointers[channel] = samples + channel * capacity
        }
        list = AudioBufferList(channels: pointers, capacity: capacity)
    }

    deinit {
        samples.deallocate()
        pointers.deallocate()
    }
}

extension AudioBufferList {
    /// Ends a stream inside this slice: a source that filled only `filled` of `requested`
    /// frames zeroes the rest and flags the end (and silence, if it filled nothing).
    @inlinable public func endStream(filled: Int, requested: Int, flags: inout RenderActionFlags) {
        guard filled < requested else { return }
        zero(from: filled, frames: requested - filled)
        flags.insert(.endOfStream)
        if filled == 0 { flags.insert(.outputIsSilence) }
    }
}
