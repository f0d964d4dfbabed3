import FourierTransforms

/// Renders mono sources to two ears through an `HRTFSet`: one `PartitionedConvolver` with a
/// route from each source to each ear, its responses the set's interpolated HRIR pair for the
/// source's direction, scaled by the source's gain.
///
/// Why one convolver: static sources (a 5.1 file's virtual speakers) then cost one forward
/// transform each and one inverse transform per ear, whatever their number. A source that
/// moves (or whose gain changes) is looked up again and its two responses replaced in place;
/// the convolver fades the next block of output from the old responses to the new, so motion
/// does not click. The output runs `latency` frames behind the input, and does not depend on
/// how the input is cut into `process` calls. Nothing is allocated after `init`.
public final class BinauralRenderer {
    /// The set the responses come from.
    public let hrtf: HRTFSet
    /// Mono sources rendered.
    public let sourceCount: Int
    /// Frames the output runs behind the input: one partition.
    public var latency: Int { convolver.latency }

    /// Where each source is heard from: azimuth, elevation, gain; NaN until placed.
    private var placements: [SIMD3<Double>]
    private let convolver: PartitionedConvolver
    private let left: UnsafeMutablePointer<Float>
    private let right: UnsafeMutablePointer<Float>
    private let scratch: UnsafeMutablePointer<Float>
    private let outputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>>

    /// The partition length for `hrtf`: the smallest power of two from 256 to 1024 that holds half a padded response.
    public static func partitionLength(for hrtf: HRTFSet) -> Int {
        var length = 256
        while length < 1024, 2 * length < hrtf.paddedLength { length *= 2 }
        return length
    }

    /// A renderer of `sourceCount` sources (at least one), each silent until placed.
    public init(hrtf: HRTFSet, sourceCount: Int) {
        precondition(sourceCount > 0, "a binaural renderer has a source")
        self.hrtf = hrtf
        self.sourceCount = sourceCount
        let length = hrtf.paddedLength
        let silent = [Float](repeating: 0, count: length)
        convolver = PartitionedConvolver(
            partitionLength: Self.partitionLength(for: hrtf), inputCount: sourceCount, outputCount: 2,
            responses: Array(repeating: silent, count: 2 * sourceCount),
            routes: (0..<sourceCount).flatMap { [ConvolutionRoute(input: $0, output: 0, response: 2 * $0),
                                                 ConvolutionRoute(input: $0, output: 1, response: 2 * $0 + 1)] },
            crossfade: true)
        placements = Array(repeating: SIMD3(repeating: .nan), count: sourceCount)
        left = .allocate(capacity: length)
        right = .allocate(capacity: length)
        scratch = .allocate(capacity: 2 * hrtf.filterLength)
        outputs = .allocate(capacity: 2)
    }

    deinit {
        left.deallocate()
        right.deallocate()
        scratch.deallocate()
        outputs.deallocate()
    }

    /// Places `source` at `azimuth` and `elevation` (degrees) with linear `gain`; a change is
    /// heard from the next block on, faded in over it. Placing it where it is costs nothing.
    public func place(source: Int, azimuth: Double, elevation: Double, gain: Float) {
        let placement = SIMD3(azimuth, elevation, Double(gain))
        guard placement != placements[source] else { return }
        let first = placements[source].x.isNaN
        placements[source] = placement
        hrtf.responses(azimuth: azimuth, elevation: elevation, left: left, right: right, scratch: scratch)
        if gain != 1 {
            for frame in 0..<hrtf.paddedLength {
                left[frame] *= gain
                right[frame] *= gain
            }
        }
        convolver.replaceResponse(2 * source, with: left, count: hrtf.paddedLength, fades: !first)
        convolver.replaceResponse(2 * source + 1, with: right, count: hrtf.paddedLength, fades: !first)
    }

    /// Sends `source` to both ears alike with linear `gain` and no direction (an LFE): each
    /// response a single impulse. Changes fade in as `place`'s do.
    public func placeEverywhere(source: Int, gain: Float) {
        let placement = SIMD3(Double.infinity, Double.infinity, Double(gain))
        guard placement != placements[source] else { return }
        let first = placements[source].x.isNaN
        placements[source] = placement
        left.update(repeating: 0, count: hrtf.paddedLength)
        left[0] = gain
        convolver.replaceResponse(2 * source, with: left, count: 1, fades: !first)
        convolver.replaceResponse(2 * source + 1, with: left, count: 1, fades: !first)
    }

    /// Renders `frames` frames of each source (`inputs[s]`) into `left` and `right`, `latency` frames late.
    public func process(inputs: UnsafePointer<UnsafeMutablePointer<Float>>, left: UnsafeMutablePointer<Float>,
                        right: UnsafeMutablePointer<Float>, frames: Int) {
        outputs[0] = left
        outputs[1] = right
        convolver.process(inputs: inputs, outputs: UnsafePointer(outputs), frames: frames)
    }

    /// Forgets all input and every placement.
    public func reset() {
        convolver.reset()
        for source in placements.indices { placements[source] = SIMD3(repeating: .nan) }
    }
}
