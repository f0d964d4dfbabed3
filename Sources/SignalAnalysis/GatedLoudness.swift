#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CAudioKernels

/// Integrated loudness as ITU-R BS.1770-4 defines it: K-weighted power in 400 ms blocks with
/// 75 % overlap (each the sum of four 100 ms sub-blocks), weighted over the channels, gated at
/// −70 LUFS and then 10 LU under the mean of the blocks that passed.
///
/// Memory does not grow with length: a block that passes the absolute gate goes into a
/// histogram of 0.01 dB bins from −70 to +10 LUFS (louder ones in the last), each holding its
/// blocks' summed power and count, so the relative gate is exact but for the bin it falls in,
/// which counts when its blocks' mean power passes it. The filtering (`aurender_two_biquad_energy`)
/// runs channels two by two; channels of weight 0 are not filtered.
final class GatedLoudness {
    /// Frames in a 100 ms sub-block, as libebur128 rounds it.
    let subBlockFrames: Int
    /// Two channels filtered together (an odd one paired with itself, weighing 0 the second time).
    struct ChannelPair {
        var left, right: Int
        var leftWeight, rightWeight: Double
    }

    /// The channels of non-zero weight, two by two.
    private let pairs: UnsafeMutablePointer<ChannelPair>
    private let pairCount: Int
    /// Per pair, the shelf's and the high-pass's coefficients and state, as the kernel reads them.
    private let sections: UnsafeMutablePointer<SIMD2<Double>>
    /// Per pair, the sub-block's K-weighted power so far (left, right).
    private let energies: UnsafeMutablePointer<Double>
    /// The last four sub-blocks' weighted sums, by sub-block index modulo 4.
    private var recent: SIMD4<Double> = .zero
    private var subBlocks = 0
    private var subBlockPosition = 0
    private let binSums: UnsafeMutablePointer<Double>
    private let binCounts: UnsafeMutablePointer<Int>
    /// The short-term (3 s) loudness every second, for the loudness range; nil when not wanted.
    private let shortTerm: ShortTermLoudness?

    static let binsPerDecibel = 100.0
    static let lowestLoudness = -70.0
    static let binCount = 8000
    /// The power a block needs to pass the absolute gate (−70 LUFS).
    static let absoluteGate = pow(10, (-70 + 0.691) / 10)

    /// A meter for `channelCount` channels at `sampleRate`; `measuresRange` keeps the short-term
    /// loudness the loudness range is taken from.
    init(channelCount: Int, sampleRate: Double, measuresRange: Bool = false) {
        subBlockFrames = max(1, (Int(sampleRate) + 5) / 10)
        let weighted = (0..<channelCount).filter { KWeighting.weight(channel: $0) > 0 }
        pairCount = (weighted.count + 1) / 2
        pairs = .allocate(capacity: max(1, pairCount))
        for index in 0..<pairCount {
            let left = weighted[2 * index], right = 2 * index + 1 < weighted.count ? weighted[2 * index + 1] : left
            (pairs + index).initialize(to: ChannelPair(left: left, right: right, leftWeight: KWeighting.weight(channel: left),
                                                       rightWeight: right == left ? 0 : KWeighting.weight(channel: right)))
        }
        let (shelf, highPass) = KWeighting.sections(sampleRate: sampleRate)
        sections = .allocate(capacity: max(1, pairCount) * 14)
        for pair in 0..<max(1, pairCount) {
            for (index, c) in [shelf, highPass].enumerated() {
                let values = [c.b0, c.b1 - c.a1 * c.b0, c.b2 - c.a2 * c.b0, c.a1, c.a2, 0, 0]
                for (slot, value) in values.enumerated() {
                    (sections + pair * 14 + index * 7 + slot).initialize(to: SIMD2(repeating: value))
                }
            }
        }
        energies = .allocate(capacity: max(1, pairCount) * 2)
        energies.initialize(repeating: 0, count: max(1, pairCount) * 2)
        binSums = .allocate(capacity: Self.binCount)
        binSums.initialize(repeating: 0, count: Self.binCount)
        binCounts = .allocate(capacity: Self.binCount)
        binCounts.initialize(repeating: 0, count: Self.binCount)
        shortTerm = measuresRange ? ShortTermLoudness(subBlockFrames: subBlockFrames) : nil
    }

    deinit {
        pairs.deallocate()
        sections.deallocate()
        energies.deallocate()
        binSums.deallocate()
        binCounts.deallocate()
    }

    /// Adds `frames` frames of `channels`.
    func add(_ channels: ChannelPointers, frames: Int) {
        var done = 0
        while done < frames {
            let count = min(frames - done, subBlockFrames - subBlockPosition)
            for index in 0..<pairCount {
                let pair = pairs[index]
                aurender_two_biquad_energy(channels[pair.left]! + done, channels[pair.right]! + done, count,
                                           sections + index * 14, energies + 2 * index)
            }
            done += count
            subBlockPosition += count
            if subBlockPosition == subBlockFrames { closeSubBlock() }
        }
    }

    /// Weighs the sub-block's power over the channels and, from the fourth on, gates the block
    /// it ends.
    private func closeSubBlock() {
        var weighted = 0.0
        for index in 0..<pairCount {
            let pair = pairs[index]
            weighted += pair.leftWeight * energies[2 * index] + pair.rightWeight * energies[2 * index + 1]
            energies[2 * index] = 0
            energies[2 * index + 1] = 0
        }
        recent[subBlocks & 3] = weighted
        shortTerm?.add(subBlock: weighted)
        subBlocks += 1
        subBlockPosition = 0
        guard subBlocks >= 4 else { return }
        let power = (recent[0] + recent[1] + recent[2] + recent[3]) / Double(4 * subBlockFrames)
        guard power >= Self.absoluteGate else { return }
        let bin = Self.bin(loudness: Self.loudness(power))
        binSums[bin] += power
        binCounts[bin] += 1
    }

    static func loudness(_ power: Double) -> Double { -0.691 + 10 * log10(power) }

    static func bin(loudness: Double) -> Int {
        min(binCount - 1, max(0, Int(((loudness - lowestLoudness) * binsPerDecibel).rounded(.down))))
    }

    /// The gated loudness of the blocks so far, LUFS; nil when none passed the absolute gate.
    var integrated: Double? {
        Self.integrated(sums: UnsafeBufferPointer(start: binSums, count: Self.binCount),
                        counts: UnsafeBufferPointer(start: binCounts, count: Self.binCount))
    }

    /// The blocks that passed the absolute gate, binned, and the short-term loudness (empty
    /// unless `measuresRange`): what an album's figures are taken from.
    var blocks: GatedBlocks {
        GatedBlocks(sums: Array(UnsafeBufferPointer(start: binSums, count: Self.binCount)),
                    counts: Array(UnsafeBufferPointer(start: binCounts, count: Self.binCount)),
                    shortTermSums: shortTerm?.sums ?? [], shortTermCounts: shortTerm?.counts ?? [])
    }

    /// The gated loudness of the blocks binned as `sums` and `counts`: the relative gate 10 LU
    /// under their mean power; nil when there are none.
    static func integrated<Sums: Collection<Double>, Counts: Collection<Int>>(sums: Sums, counts: Counts) -> Double? where Sums.Index == Int, Counts.Index == Int {
        gatedMean(sums: sums, counts: counts, gateDecibels: -10).map { loudness($0.power) }
    }

    /// The mean power and count of the blocks binned as `sums` and `counts` that are at most
    /// `gateDecibels` under the mean of them all; nil when none are.
    static func gatedMean<Sums: Collection<Double>, Counts: Collection<Int>>(sums: Sums, counts: Counts, gateDecibels: Double)
        -> (power: Double, count: Int, firstBin: Int)? where Sums.Index == Int, Counts.Index == Int {
        var total = 0.0, count = 0
        for bin in 0..<binCount {
            total += sums[bin]
            count += counts[bin]
        }
        guard count > 0 else { return nil }
        let gate = total / Double(count) * pow(10, gateDecibels / 10)
        let gateBin = Self.bin(loudness: Self.loudness(gate))
        var gated = 0.0, gatedCount = 0
        let gateBinPasses = counts[gateBin] > 0 && sums[gateBin] / Double(counts[gateBin]) >= gate
        let firstBin = gateBinPasses ? gateBin : gateBin + 1
        for bin in firstBin..<binCount where counts[bin] > 0 {
            gated += sums[bin]
            gatedCount += counts[bin]
        }
        return gatedCount > 0 ? (gated / Double(gatedCount), gatedCount, firstBin) : nil
    }
}
