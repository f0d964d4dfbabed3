/// Short-term loudness (3 s windows, one a second, as libebur128 takes them for the loudness
/// range) binned as `GatedLoudness` bins its blocks: 0.01 dB bins from −70 LUFS, each with the
/// windows' summed power and count, so memory does not grow with the stream.
final class ShortTermLoudness {
    /// Sub-blocks (100 ms) in a window, and between two windows.
    static let windowSubBlocks = 30
    static let hopSubBlocks = 10

    let subBlockFrames: Int
    /// The last `windowSubBlocks` sub-blocks' weighted power sums, by sub-block index modulo 30.
    private var recent = [Double](repeating: 0, count: windowSubBlocks)
    private var subBlocks = 0
    private(set) var sums = [Double](repeating: 0, count: GatedLoudness.binCount)
    private(set) var counts = [Int](repeating: 0, count: GatedLoudness.binCount)

    init(subBlockFrames: Int) {
        self.subBlockFrames = subBlockFrames
    }

    /// Adds a sub-block's weighted power sum; every `hopSubBlocks` from the 30th on, bins the window it ends.
    func add(subBlock weighted: Double) {
        recent[subBlocks % Self.windowSubBlocks] = weighted
        subBlocks += 1
        guard subBlocks >= Self.windowSubBlocks, (subBlocks - Self.windowSubBlocks) % Self.hopSubBlocks == 0 else { return }
        let power = recent.reduce(0, +) / Double(Self.windowSubBlocks * subBlockFrames)
        guard power >= GatedLoudness.absoluteGate else { return }
        let bin = GatedLoudness.bin(loudness: GatedLoudness.loudness(power))
        sums[bin] += power
        counts[bin] += 1
    }

    /// The loudness range (EBU Tech 3342) of windows binned as `sums` and `counts`: the 10th to
    /// the 95th percentile of those at most 20 LU under their mean power (indices rounded as
    /// libebur128 rounds them), in LU; 0 without any.
    static func range(sums: [Double], counts: [Int]) -> Double {
        guard sums.count == GatedLoudness.binCount,
              let gated = GatedLoudness.gatedMean(sums: sums, counts: counts, gateDecibels: -20) else { return 0 }
        let low = Int(Double(gated.count - 1) * 0.1 + 0.5), high = Int(Double(gated.count - 1) * 0.95 + 0.5)
        var lowBin: Int?, highBin: Int?, seen = 0
        for bin in gated.firstBin..<GatedLoudness.binCount where counts[bin] > 0 {
            seen += counts[bin]
            if lowBin == nil, low < seen { lowBin = bin }
            if high < seen {
                highBin = bin
                break
            }
        }
        guard let lowBin, let highBin else { return 0 }
        return Double(highBin - lowBin) / GatedLoudness.binsPerDecibel
    }
}
