import AudioGraph
import CAudioKernels

/// A chain of biquad sections run over every channel of a slice, in place, with its state
/// carried from slice to slice: the filter loop of the EQ, in one place.
///
/// Channels are processed in pairs, the two samples of a frame side by side in one SIMD
/// register, and each frame goes through every active section before the next frame, so
/// each section's recurrence overlaps the others'. The active sections are packed together,
/// coefficients next to state, so the inner loop walks one pointer. Memory is allocated once.
/// The loop is C (`aurender_biquad_pairs`). Its AVX2 instance runs the cascade as a two-stage
/// pipeline, four Doubles a register: the first half of the sections on one frame beside the
/// second half on the frame before, so one instruction does two sections' work; every lane
/// does the baseline's operations in the baseline's order, so every instance computes the same bits.
///
/// The transposed direct form II is rearranged so that the state feeds back through one
/// multiplication instead of three operations:
///
///     y  = b0·x + z1
///     z1 = (b1 − a1·b0)·x + z2 − a1·z1
///     z2 = (b2 − a2·b0)·x − a2·z1
///
/// which is the same filter, with a recurrence half as long; that latency bounds the loop.
public final class BiquadCascade {
    /// Sections the cascade can hold (bands), each with its own state.
    public let sectionCapacity: Int
    /// Channels processed.
    public let channelCount: Int
    private let pairCount: Int
    /// Coefficients per section, by section index.
    private let coefficients: UnsafeMutablePointer<BiquadCoefficients>
    /// The active sections in processing order: for each channel pair, `activeCount` slots.
    private let slots: UnsafeMutablePointer<Slot>
    /// A copy of `slots` used while the active set changes.
    private let previousSlots: UnsafeMutablePointer<Slot>
    /// The section each slot runs.
    private let slotSections: UnsafeMutablePointer<Int>
    /// How many sections run.
    public private(set) var activeCount = 0

    /// One active section for one channel pair: the rearranged coefficients splatted across
    /// both lanes, and the state (z1, z2); the layout `aurender_biquad_pairs` reads.
    private struct Slot {
        var b0, c1, c2, a1, a2, z1, z2: SIMD2<Double>

        init(_ c: BiquadCoefficients, z1: SIMD2<Double> = .zero, z2: SIMD2<Double> = .zero) {
            b0 = SIMD2(repeating: c.b0)
            c1 = SIMD2(repeating: c.b1 - c.a1 * c.b0)
            c2 = SIMD2(repeating: c.b2 - c.a2 * c.b0)
            a1 = SIMD2(repeating: c.a1)
            a2 = SIMD2(repeating: c.a2)
            self.z1 = z1
            self.z2 = z2
        }
    }

    /// A cascade of `sectionCapacity` identity sections, none active, for `channelCount` channels.
    public init(sectionCapacity: Int, channelCount: Int) {
        self.sectionCapacity = sectionCapacity
        self.channelCount = channelCount
        pairCount = (channelCount + 1) / 2
        let capacity = max(1, sectionCapacity)
        coefficients = .allocate(capacity: capacity)
        coefficients.initialize(repeating: .identity, count: capacity)
        slots = .allocate(capacity: capacity * pairCount)
        slots.initialize(repeating: Slot(.identity), count: capacity * pairCount)
        previousSlots = .allocate(capacity: capacity * pairCount)
        previousSlots.initialize(repeating: Slot(.identity), count: capacity * pairCount)
        slotSections = .allocate(capacity: capacity)
        slotSections.initialize(repeating: 0, count: capacity)
    }

    deinit {
        coefficients.deallocate()
        slots.deallocate()
        previousSlots.deallocate()
        slotSections.deallocate()
    }

    /// Sets the coefficients of section `index`; its state is kept.
    public func setCoefficients(_ value: BiquadCoefficients, section index: Int) {
        coefficients[index] = value
        for slot in 0..<activeCount where slotSections[slot] == index {
            for pair in 0..<pairCount {
                let old = slots[pair * sectionCapacity + slot]
                slots[pair * sectionCapacity + slot] = Slot(value, z1: old.z1, z2: old.z2)
            }
        }
    }

    /// Chooses which sections run, in ascending order, from a predicate on the section index.
    /// Sections that keep running keep their state; newly active ones start from rest.
    public func setActiveSections(where isActive: (Int) -> Bool) {
        previousSlots.update(from: slots, count: sectionCapacity * pairCount)
        let previousCount = activeCount
        activeCount = 0
        for section in 0..<sectionCapacity where isActive(section) {
            var previous = -1
            for slot in 0..<previousCount where slotSections[slot] == section { previous = slot }
            for pair in 0..<pairCount {
                let old = previous >= 0 ? previousSlots[pair * sectionCapacity + previous] : Slot(.identity)
                slots[pair * sectionCapacity + activeCount] = Slot(coefficients[section], z1: old.z1, z2: old.z2)
            }
            slotSections[activeCount] = section
            activeCount += 1
        }
    }

    /// Whether section `index` is active and has state above `threshold` in any channel.
    public func isRinging(section index: Int, threshold: Double = 1e-10) -> Bool {
        for slot in 0..<activeCount where slotSections[slot] == index {
            for pair in 0..<pairCount {
                let (z1, z2) = (slots[pair * sectionCapacity + slot].z1, slots[pair * sectionCapacity + slot].z2)
                if max(max(abs(z1.x), abs(z1.y)), max(abs(z2.x), abs(z2.y))) > threshold { return true }
            }
        }
        return false
    }

    /// Zeroes the state of every section.
    public func reset() {
        for index in 0..<(sectionCapacity * pairCount) {
            slots[index].z1 = .zero
            slots[index].z2 = .zero
        }
    }

    /// Filters `frames` frames of every channel of `buffers` in place, starting at `offset`.
    public func process(_ buffers: AudioBufferList, frames: Int, offset: Int = 0) {
        guard activeCount > 0, frames > 0 else { return }
        for pair in 0..<pairCount {
            let left = buffers[2 * pair] + offset
            // An odd last channel runs in both lanes; only the first is stored.
            let right = 2 * pair + 1 < channelCount ? buffers[2 * pair + 1] + offset : left
            aurender_biquad_pairs(left, right, frames, slots + pair * sectionCapacity, Int32(activeCount))
        }
    }
}
