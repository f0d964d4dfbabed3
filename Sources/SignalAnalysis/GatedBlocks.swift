/// A programme's gated loudness blocks and short-term windows, binned by loudness: what its
/// integrated loudness and loudness range are taken from, kept so several programmes (an
/// album's tracks) can be measured as one.
///
/// Merging bins is exact where libebur128 merges its block lists (`ebur128_loudness_global_multiple`):
/// the gates are taken afresh over every block of every track.
public struct GatedBlocks: Sendable {
    /// Per 0.01 dB bin from −70 LUFS, the summed power and count of the 400 ms blocks that passed the absolute gate.
    var sums: [Double]
    var counts: [Int]
    /// The same for the 3 s short-term windows.
    var shortTermSums: [Double]
    var shortTermCounts: [Int]

    /// Integrated loudness (BS.1770-4), LUFS; nil when no block reaches −70 LUFS.
    public var integrated: Double? { GatedLoudness.integrated(sums: sums, counts: counts) }

    /// Loudness range (EBU Tech 3342), LU.
    public var range: Double { ShortTermLoudness.range(sums: shortTermSums, counts: shortTermCounts) }

    /// The blocks of all of `programmes`, as if they were one.
    public static func merged(_ programmes: [GatedBlocks]) -> GatedBlocks {
        var merged = GatedBlocks(sums: .init(repeating: 0, count: GatedLoudness.binCount), counts: .init(repeating: 0, count: GatedLoudness.binCount),
                                 shortTermSums: .init(repeating: 0, count: GatedLoudness.binCount),
                                 shortTermCounts: .init(repeating: 0, count: GatedLoudness.binCount))
        for programme in programmes {
            for bin in 0..<GatedLoudness.binCount {
                merged.sums[bin] += programme.sums[bin]
                merged.counts[bin] += programme.counts[bin]
                if !programme.shortTermSums.isEmpty {
                    merged.shortTermSums[bin] += programme.shortTermSums[bin]
                    merged.shortTermCounts[bin] += programme.shortTermCounts[bin]
                }
            }
        }
        return merged
    }
}
