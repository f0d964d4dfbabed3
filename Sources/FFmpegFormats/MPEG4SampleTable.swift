/// Where an MPEG-4 track's samples lie, from its sample table (`stbl`): the chunks' offsets
/// (`stco`, or `co64` in large files), how many samples each chunk holds (`stsc`) and each
/// sample's size (`stsz`).
///
/// A file whose table locates samples past its end was cut short: that is told by its bytes,
/// whatever the decoder makes of the samples that remain.
struct MPEG4SampleTable {
    /// The offset just past the last byte of any sample.
    let mediaEnd: Int64

    /// The table in `body` of `bytes`, the body of an `stbl` atom; nil when it has no samples
    /// (a fragmented file keeps them elsewhere) or its parts do not add up.
    init?(_ bytes: [UInt8], _ body: Range<Int>) {
        let atoms = MPEG4Atom.children(of: bytes, in: body)
        func part(_ type: String) -> Range<Int>? { atoms.first { $0.type == type }?.body }
        func integer(_ offset: Int, _ count: Int) -> UInt64 { MPEG4Track.integer(bytes, offset, count) }
        let isWide = part("stco") == nil
        guard let sizes = part("stsz"), sizes.count >= 12, let runs = part("stsc"), runs.count >= 8,
              let chunks = part("stco") ?? part("co64"), chunks.count >= 8 else { return nil }
        let constantSize = Int64(integer(sizes.lowerBound + 4, 4)), sampleCount = Int(integer(sizes.lowerBound + 8, 4))
        let chunkCount = Int(integer(chunks.lowerBound + 4, 4)), offsetSize = isWide ? 8 : 4
        let runCount = Int(integer(runs.lowerBound + 4, 4))
        guard sampleCount > 0, runCount > 0, constantSize > 0 || sizes.count >= 12 + 4 * sampleCount,
              chunks.count >= 8 + offsetSize * chunkCount, runs.count >= 8 + 12 * runCount else { return nil }
        var sample = 0, run = 0, end: Int64 = 0
        for chunk in 0..<chunkCount where sample < sampleCount {
            while run + 1 < runCount, integer(runs.lowerBound + 8 + 12 * (run + 1), 4) <= UInt64(chunk + 1) { run += 1 }
            let count = min(Int(integer(runs.lowerBound + 8 + 12 * run + 4, 4)), sampleCount - sample)
            let offset = integer(chunks.lowerBound + 8 + offsetSize * chunk, offsetSize)
            guard offset <= UInt64(Int64.max) else { return nil }
            var position = Int64(offset)
            if constantSize > 0 {
                let (bytes, overflow) = constantSize.multipliedReportingOverflow(by: Int64(count))
                guard !overflow, !position.addingReportingOverflow(bytes).overflow else { return nil }
                position += bytes
            } else {
                for index in sample..<(sample + count) {
                    let (next, overflow) = position.addingReportingOverflow(Int64(integer(sizes.lowerBound + 12 + 4 * index, 4)))
                    guard !overflow else { return nil }
                    position = next
                }
            }
            sample += count
            end = max(end, position)
        }
        guard sample == sampleCount else { return nil }
        mediaEnd = end
    }
}
