import AudioGraph

/// How input channels become output channels: each output is a weighted sum of the inputs.
///
/// `weights[o][i]` is the gain of input `i` in output `o`. The standard matrices cover the
/// common layouts; `--channel-map` and `--mix-matrix` give any other.
public struct ChannelMatrix: Equatable, Sendable, CustomStringConvertible {
    /// Gains by output channel, then input channel.
    public let weights: [[Float]]

    /// Input channels (the width of every row), stored so rendering does no searching.
    public let inputCount: Int
    /// Output channels (rows).
    public let outputCount: Int

    /// A matrix from its rows, one per output channel; every row has one gain per input.
    public init(weights: [[Float]]) throws(ChannelMatrixError) {
        guard let width = weights.first?.count, width > 0,
              weights.allSatisfy({ $0.count == width }) else { throw .ragged }
        guard weights.allSatisfy({ $0.allSatisfy(\.isFinite) }) else { throw .notFinite }
        self.init(checked: weights)
    }

    /// The matrix aurender uses when only the channel counts are given:
    /// - the same count: each channel to itself;
    /// - mono to N: the mono signal in every output (each at full level);
    /// - stereo to mono: the mean, (L + R) / 2, so a centred signal keeps its level;
    /// - 5.1 (L R C LFE Ls Rs) to stereo: ITU-R BS.775, L + 0.7071 C + 0.7071 Ls (and for R),
    ///   LFE left out; not normalised, so loud surround material can clip (and is reported);
    /// - more channels to fewer: output o is the mean of the inputs o, o + M, o + 2M, …;
    /// - fewer channels to more: each input to the output of the same number, the rest silent.
    public static func standard(from inputCount: Int, to outputCount: Int) -> ChannelMatrix {
        var weights = Array(repeating: Array(repeating: Float(0), count: inputCount), count: outputCount)
        if inputCount == 1 {
            for output in 0..<outputCount { weights[output][0] = 1 }
        } else if inputCount == 6, outputCount == 2 {
            let half: Float = 0.7071068
            weights[0] = [1, 0, half, 0, half, 0]
            weights[1] = [0, 1, half, 0, 0, half]
        } else if inputCount > outputCount {
            for output in 0..<outputCount {
                let sources = Array(stride(from: output, to: inputCount, by: outputCount))
                for input in sources { weights[output][input] = 1 / Float(sources.count) }
            }
        } else {
            for channel in 0..<inputCount { weights[channel][channel] = 1 }
        }
        return ChannelMatrix(checked: weights)
    }

    /// Output `o` takes input `map[o]` (0-based): `[1, 0]` swaps a stereo pair, `[0]` keeps the left.
    public static func selecting(_ map: [Int], inputCount: Int) throws(ChannelMatrixError) -> ChannelMatrix {
        guard !map.isEmpty else { throw .ragged }
        if let bad = map.first(where: { !(0..<inputCount).contains($0) }) { throw .noSuchInput(bad, inputCount: inputCount) }
        return ChannelMatrix(checked: map.map { source in (0..<inputCount).map { $0 == source ? 1 : 0 } })
    }

    /// Parses `"0.5,0.5;1,0"`: rows (outputs) separated by `;`, gains by `,`.
    public static func parse(_ text: String) throws(ChannelMatrixError) -> ChannelMatrix {
        var rows: [[Float]] = []
        for row in text.split(separator: ";", omittingEmptySubsequences: false) {
            var gains: [Float] = []
            for field in row.split(separator: ",", omittingEmptySubsequences: false) {
                guard let value = Float(field.trimmingSpaces) else { throw .notANumber(String(field)) }
                gains.append(value)
            }
            rows.append(gains)
        }
        return try ChannelMatrix(weights: rows)
    }

    private init(checked weights: [[Float]]) {
        self.weights = weights
        inputCount = weights.first?.count ?? 0
        outputCount = weights.count
    }

    /// Whether every output is exactly the input of the same number.
    public var isIdentity: Bool {
        inputCount == outputCount && weights.indices.allSatisfy { o in weights[o].indices.allSatisfy { weights[o][$0] == (o == $0 ? 1 : 0) } }
    }

    /// Mixes `frames` frames of `input` into `output` (which must not overlap it).
    public func apply(_ input: AudioBufferList, into output: AudioBufferList, frames: Int, inputOffset: Int = 0) {
        for o in 0..<outputCount {
            let destination = output[o]
            destination.update(repeating: 0, count: frames)
            for i in 0..<inputCount where weights[o][i] != 0 {
                let gain = weights[o][i], source = input[i] + inputOffset
                if gain == 1 {
                    for frame in 0..<frames { destination[frame] += source[frame] }
                } else {
                    for frame in 0..<frames { destination[frame] += gain * source[frame] }
                }
            }
        }
    }

    public var description: String {
        weights.map { $0.map { String($0) }.joined(separator: ",") }.joined(separator: ";")
    }
}

/// A channel matrix that cannot be used.
public enum ChannelMatrixError: Error, Equatable, CustomStringConvertible {
    case ragged
    case notFinite
    case notANumber(String)
    case noSuchInput(Int, inputCount: Int)

    public var description: String {
        switch self {
        case .ragged: "every row (output channel) needs one gain per input channel"
        case .notFinite: "gains must be finite numbers"
        case .notANumber(let text): "'\(text)' is not a number"
        case .noSuchInput(let input, let count): "channel \(input) does not exist; the input has channels 0 to \(count - 1)"
        }
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
