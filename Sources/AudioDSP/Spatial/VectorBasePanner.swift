/// Two-dimensional vector-base amplitude panning (Pulkki, 1997) over a layout's ring of
/// speakers: the gains that place a mono source at a direction.
///
/// A source between two neighbouring speakers feeds those two alone, with gains solving
/// `g₁ l₁ + g₂ l₂ = p` (the speakers' and the source's unit vectors), scaled so the squares sum
/// to 1: the power reaching the listener is the same at every direction, and a source at a
/// speaker's angle feeds that speaker alone. The LFE takes nothing. The layouts are horizontal,
/// so a source is projected onto the ring: elevation is ignored (a source overhead keeps its
/// azimuth and its full power). A layout with no speaker behind the listener (stereo) hears a
/// source behind as its mirror image in front (150° as 30°), and a source outside its front
/// arc from the nearer speaker alone. The pairs are solved when made; `gains` allocates nothing.
public struct VectorBasePanner: Sendable {
    /// Two neighbouring speakers, clockwise from `firstChannel` to `secondChannel`, and the rows
    /// of the inverse of the matrix whose columns are their unit vectors: each row dotted with a
    /// source's unit vector gives that speaker's gain.
    private struct Pair: Sendable {
        let firstChannel: Int, secondChannel: Int
        let start: Double, span: Double
        let firstRow: (x: Double, y: Double), secondRow: (x: Double, y: Double)
    }

    /// The layout the gains are for.
    public let layout: SpeakerLayout
    private let channelCount: Int
    private let pairs: [Pair]
    private let speakerChannels: [Int], speakerAzimuths: [Double]
    private let foldsToFront: Bool

    /// Solves the layout's neighbouring pairs once.
    public init(layout: SpeakerLayout) {
        self.layout = layout
        channelCount = layout.channelCount
        let ring = layout.speakerAzimuths.enumerated()
            .compactMap { channel, azimuth in azimuth.map { (channel: channel, azimuth: $0) } }
            .sorted { $0.azimuth < $1.azimuth }
        speakerChannels = ring.map(\.channel)
        speakerAzimuths = ring.map(\.azimuth)
        foldsToFront = ring.allSatisfy { abs($0.azimuth) <= 90 }
        pairs = ring.indices.compactMap { index in
            let first = ring[index], second = ring[(index + 1) % ring.count]
            let span = Azimuth.clockwiseSpan(from: first.azimuth, to: second.azimuth)
            guard span > 0, span < 180 else { return nil }
            let a = Azimuth.unitVector(first.azimuth), b = Azimuth.unitVector(second.azimuth)
            let determinant = a.x * b.y - a.y * b.x
            return Pair(firstChannel: first.channel, secondChannel: second.channel, start: first.azimuth, span: span,
                        firstRow: (b.y / determinant, -b.x / determinant), secondRow: (-a.y / determinant, a.x / determinant))
        }
    }

    /// Writes the gain of each output channel (`gains.count` must be the layout's channel count)
    /// for a source at `azimuth` degrees (any finite value; 0 ahead, positive to the right);
    /// `elevation` does not change them (see the type's description).
    public func gains(azimuth: Double, elevation: Double, into gains: UnsafeMutableBufferPointer<Float>) {
        precondition(gains.count == channelCount, "one gain per channel of the layout")
        precondition(azimuth.isFinite, "a finite azimuth")
        gains.update(repeating: 0)
        let angle = foldsToFront ? Azimuth.foldedToFront(azimuth) : Azimuth.wrapped(azimuth)
        for index in pairs.indices where Azimuth.clockwiseSpan(from: pairs[index].start, to: angle) <= pairs[index].span {
            let pair = pairs[index]
            let p = Azimuth.unitVector(angle)
            let first = max(0, p.x * pair.firstRow.x + p.y * pair.firstRow.y)
            let second = max(0, p.x * pair.secondRow.x + p.y * pair.secondRow.y)
            let norm = (first * first + second * second).squareRoot()
            gains[pair.firstChannel] = Float(first / norm)
            gains[pair.secondChannel] = Float(second / norm)
            return
        }
        gains[nearestChannel(to: angle)] = 1
    }

    /// The channel of the speaker nearest `angle`, for a source in an arc no pair spans.
    private func nearestChannel(to angle: Double) -> Int {
        var best = 0
        var bestDistance = Double.infinity
        for index in speakerAzimuths.indices {
            let span = Azimuth.clockwiseSpan(from: speakerAzimuths[index], to: angle)
            let distance = min(span, 360 - span)
            if distance < bestDistance { best = index; bestDistance = distance }
        }
        return speakerChannels[best]
    }
}
