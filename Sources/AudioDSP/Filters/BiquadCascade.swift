import AudioGraph

/// A chain of biquad sections run over every channel of a slice, in place, with its state
/// carried from slice to slice: the filter loop of the EQ, in one place.
///
/// Channels are processed in pairs, the two samples of a frame side by side in one SIMD
/// register, and each frame goes through every active section before the next frame, so
/// the filter state stays in registers. Memory is allocated once, at init.
public final class BiquadCascade {
    /// Sections the cascade can hold (bands), each with its own state.
    public let sectionCapacity: Int
    /// Channels processed.
    public let channelCount: Int
    private let pairCount: Int
    /// Coefficients per section, each splatted across both lanes of a pair.
    private let coefficients: UnsafeMutablePointer<PairCoefficients>
    /// Filter state: for each channel pair, for each section, (z1, z2).
    private let state: UnsafeMutablePointer<SIMD2<Double>>
    /// The sections that run, in order.
    private let active: UnsafeMutablePointer<Int>
    /// How many sections of `active` run.
    public private(set) var activeCount = 0

    private struct PairCoefficients {
        var b0, b1, b2, a1, a2: SIMD2<Double>
        init(_ c: BiquadCoefficients) {
            b0 = SIMD2(repeating: c.b0); b1 = SIMD2(repeating: c.b1); b2 = SIMD2(repeating: c.b2)
            a1 = SIMD2(repeating: c.a1); a2 = SIMD2(repeating: c.a2)
        }
    }

    /// A cascade of `sectionCapacity` identity sections, none active, for `channelCount` channels.
    public init(sectionCapacity: Int, channelCount: Int) {
        self.sectionCapacity = sectionCapacity
        self.channelCount = channelCount
        pairCount = (channelCount + 1) / 2
        coefficients = .allocate(capacity: max(1, sectionCapacity))
        coefficients.initialize(repeating: PairCoefficients(.identity), count: max(1, sectionCapacity))
        state = .allocate(capacity: max(1, pairCount * sectionCapacity * 2))
        state.initialize(repeating: .zero, count: max(1, pairCount * sectionCapacity * 2))
        active = .allocate(capacity: max(1, sectionCapacity))
        active.initialize(repeating: 0, count: max(1, sectionCapacity))
    }

    deinit {
        coefficients.deallocate()
        state.deallocate()
        active.deallocate()
    }

    /// Sets the coefficients of section `index`; its state is kept.
    @inline(__always)
    public func setCoefficients(_ value: BiquadCoefficients, section index: Int) {
        coefficients[index] = PairCoefficients(value)
    }

    /// Chooses which sections run, in ascending order, from a predicate on the section index.
    public func setActiveSections(where isActive: (Int) -> Bool) {
        activeCount = 0
        for section in 0..<sectionCapacity where isActive(section) {
            active[activeCount] = section
            activeCount += 1
        }
    }

    /// Whether section `index` has any state left above `threshold` in any channel.
    public func isRinging(section index: Int, threshold: Double = 1e-10) -> Bool {
        for pair in 0..<pairCount {
            let base = (pair * sectionCapacity + index) * 2
            let (z1, z2) = (state[base], state[base + 1])
            if max(max(abs(z1.x), abs(z1.y)), max(abs(z2.x), abs(z2.y))) > threshold { return true }
        }
        return false
    }

    /// Zeroes the state of every section.
    public func reset() {
        state.update(repeating: .zero, count: pairCount * sectionCapacity * 2)
    }

    /// Filters `frames` frames of every channel of `buffers` in place, starting at `offset`.
    public func process(_ buffers: AudioBufferList, frames: Int, offset: Int = 0) {
        guard activeCount > 0, frames > 0 else { return }
        for pair in 0..<pairCount {
            let left = buffers[2 * pair] + offset
            // An odd last channel runs in both lanes; only the first is stored.
            let right = 2 * pair + 1 < channelCount ? buffers[2 * pair + 1] + offset : left
            processPair(left: left, right: right, frames: frames, state: state + pair * sectionCapacity * 2)
        }
    }

    @inline(__always)
    private func processPair(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int,
                             state: UnsafeMutablePointer<SIMD2<Double>>) {
        let sections = activeCount
        for frame in 0..<frames {
            var x = SIMD2<Double>(Double(left[frame]), Double(right[frame]))
            for slot in 0..<sections {
                let section = active[slot]
                let c = coefficients[section]
                let s = state + 2 * section
                let y = c.b0 * x + s[0]
                s[0] = c.b1 * x - c.a1 * y + s[1]
                s[1] = c.b2 * x - c.a2 * y
                x = y
            }
            right[frame] = Float(x.y)
            left[frame] = Float(x.x)
        }
    }
}
