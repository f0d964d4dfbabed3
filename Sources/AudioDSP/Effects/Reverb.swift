#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An algorithmic reverb: a feedback delay network of eight lines mixed through a Hadamard
/// matrix, fed through a pre-delay and three allpass diffusers per channel, with SoX's controls.
///
/// Each line's loop gain is set from its length so that the sound falls by 60 dB in the
/// reverberation time at mid frequencies (normalized at 707 Hz, the 500 Hz to 1 kHz octave's
/// middle), and a first-order high shelf in each loop makes the highs die faster by the HF
/// damping. Left and right read the lines through two orthogonal sign patterns, so their tails
/// are decorrelated; the stereo depth blends them towards mono. The wet output is scaled so its
/// power is near the input's whatever the time, and the wet share mixes it with the input.
public final class Reverb {
    /// SoX's controls, over a preset.
    public struct Settings: Equatable, Sendable {
        /// The room: its time, size, damping and pre-delay.
        public var preset: ReverbPreset
        /// 0 to 1; 0.5 gives the preset's time, each 0.5 more or less doubles or halves it.
        public var reverberance: Double = 0.5
        /// 0 to 1: how much faster the highs die (at 1, five times as fast).
        public var damping: Double
        /// 0 to 1: the room's delays from 30 % to all of the preset's.
        public var roomScale: Double = 1
        /// 0 to 1: 0 is the same tail in both channels, 1 two decorrelated ones.
        public var stereoDepth: Double = 1
        /// Seconds before the reverberation, 0 to `maximumPreDelay`.
        public var preDelay: Double
        /// The gain of the reverberation, in dB.
        public var wetGain: Double = 0
        /// The reverberation's share of the output, 0 to 1.
        public var wet: Double = 0.5

        /// A preset's settings, with its damping and pre-delay.
        public init(preset: ReverbPreset, wet: Double = 0.5) {
            self.preset = preset
            damping = preset.damping
            preDelay = preset.preDelay
            self.wet = wet
        }

        /// The mid-frequency reverberation time these settings give, in seconds.
        public var reverberationTime: Double { preset.reverberationTime * pow(2, (reverberance - 0.5) * 2) }
    }

    /// The longest pre-delay, in seconds (SoX's).
    public static let maximumPreDelay = 0.5
    /// The lines' lengths at a medium hall's size and full room scale, in seconds.
    static let lineTimes: [Double] = [0.0297, 0.0371, 0.0411, 0.0437, 0.0533, 0.0599, 0.0677, 0.0731]
    /// The diffusers' lengths, in seconds, for the left channel (the right's are 0.52 ms longer).
    static let diffuserTimes: [Double] = [0.00477, 0.00359, 0.00273]

    /// The channels (one or two).
    public let channelCount: Int
    public let sampleRate: Double
    private let preset: ReverbPreset
    /// The lines, `lineCapacity` frames each, a power of two.
    private let lines: UnsafeMutablePointer<Float>
    private let lineCapacity: Int
    private var lineWrite = 0
    private var lineLengths = [Int](repeating: 1, count: 8)
    private var gains = SIMD8<Float>()
    private var shelfB0 = SIMD8<Float>(), shelfB1 = SIMD8<Float>(), shelfA1 = SIMD8<Float>()
    private var shelfInput = SIMD8<Float>(), shelfOutput = SIMD8<Float>()
    private var outputScale: Float = 1
    private var depthMix: Float = 1
    private var wet: Float = 0.5
    /// The pre-delay, per channel, as a ring.
    private let preDelayLine: UnsafeMutablePointer<Float>
    private let preDelayCapacity: Int
    private var preDelayWrite = 0
    private var preDelayFrames = 0
    /// The diffusers, three per channel (the left's, then the right's): their rings, lengths
    /// and positions, in memory of their own so the loop reads them without Swift's access checks.
    private let diffusers: UnsafeMutablePointer<Float>
    private let diffuserRings: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    private let diffuserLengths: UnsafeMutablePointer<Int>
    private let diffuserPositions: UnsafeMutablePointer<Int>
    private let diffuserTotal: Int
    /// Frames processed, and the last whose input reached `quietLevel` (for `holdsSound(from:)`).
    private var position: Int64 = 0
    private var lastLoudInput: Int64 = .min / 2
    /// The level under which input counts as silence.
    public let quietLevel: Float

    /// A reverb for one or two channels at `sampleRate`, in `settings.preset`'s room (which
    /// sizes its lines, so it is fixed); sound under `quietLevel` counts as none.
    public init(channelCount: Int, sampleRate: Double, settings: Settings, quietLevel: Float = 1e-6) {
        precondition((1...2).contains(channelCount), "a reverb takes one or two channels")
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        self.quietLevel = quietLevel
        preset = settings.preset
        let longest = Int((Self.lineTimes.max()! * preset.size * sampleRate).rounded(.up)) + 1
        var capacity = 1
        while capacity < longest { capacity <<= 1 }
        lineCapacity = capacity
        lines = .allocate(capacity: 8 * capacity)
        preDelayCapacity = Int((Self.maximumPreDelay * sampleRate).rounded()) + 1
        preDelayLine = .allocate(capacity: preDelayCapacity * channelCount)
        let lengths = (0..<2).flatMap { channel in
            Self.diffuserTimes.map { max(1, Int((($0 + Double(channel) * 0.00052) * sampleRate).rounded())) }
        }
        diffuserTotal = lengths.reduce(0, +)
        diffusers = .allocate(capacity: diffuserTotal)
        diffuserRings = .allocate(capacity: lengths.count)
        diffuserLengths = .allocate(capacity: lengths.count)
        diffuserPositions = .allocate(capacity: lengths.count)
        var offset = 0
        for (index, length) in lengths.enumerated() {
            diffuserRings[index] = diffusers + offset
            diffuserLengths[index] = length
            offset += length
        }
        reset()
        update(settings)
    }

    deinit {
        lines.deallocate()
        preDelayLine.deallocate()
        diffusers.deallocate()
        diffuserRings.deallocate()
        diffuserLengths.deallocate()
        diffuserPositions.deallocate()
    }

    /// Silences the room.
    public func reset() {
        lines.initialize(repeating: 0, count: 8 * lineCapacity)
        preDelayLine.initialize(repeating: 0, count: preDelayCapacity * channelCount)
        diffusers.initialize(repeating: 0, count: diffuserTotal)
        diffuserPositions.initialize(repeating: 0, count: 2 * Self.diffuserTimes.count)
        lineWrite = 0
        preDelayWrite = 0
        shelfInput = SIMD8()
        shelfOutput = SIMD8()
        position = 0
        lastLoudInput = .min / 2
    }

    /// Takes new settings from the next frame (the preset stays the one it was made with).
    public func update(_ settings: Settings) {
        let scale = preset.size * (0.3 + 0.7 * max(0, min(1, settings.roomScale)))
        for line in 0..<8 {
            lineLengths[line] = min(lineCapacity - 1, max(1, Int((Self.lineTimes[line] * scale * sampleRate).rounded())))
        }
        let time = settings.reverberationTime
        let highTime = time * (1 - 0.8 * max(0, min(1, settings.damping)))
        let corner = min(4000, 0.45 * sampleRate)
        let k = tan(Double.pi * corner / sampleRate)
        let middle = 2 * Double.pi * 707 / sampleRate
        var totalEnergy = 0.0
        for line in 0..<8 {
            let length = Double(lineLengths[line])
            let low = pow(10, -3 * length / (sampleRate * time))
            let high = pow(10, -3 * length / (sampleRate * highTime))
            let ratio = high / low
            // A first-order shelf from 1 at DC to `ratio` at high frequencies, corner `corner`:
            // H(s) = (ratio s + ωc) / (s + ωc) through the bilinear transform.
            let b0 = (ratio + k) / (1 + k), b1 = (k - ratio) / (1 + k), a1 = (k - 1) / (1 + k)
            let atMiddle = Self.magnitude(b0: b0, b1: b1, a1: a1, at: middle)
            let gain = min(0.99999, low / atMiddle)
            gains[line] = Float(gain)
            shelfB0[line] = Float(gain * b0)
            shelfB1[line] = Float(gain * b1)
            shelfA1[line] = Float(a1)
            totalEnergy += 1 / (1 - low * low)
        }
        // Each line's energy builds up as 1 / (1 - g²) over its recirculations; scaling by the
        // mean of that keeps the tail's power near the input's for any time.
        outputScale = Float(pow(10, settings.wetGain / 20) / (totalEnergy / 8).squareRoot())
        depthMix = Float((1 + max(0, min(1, settings.stereoDepth))) / 2)
        wet = Float(max(0, min(1, settings.wet)))
        preDelayFrames = min(preDelayCapacity - 1, max(0, Int((settings.preDelay * sampleRate).rounded())))
    }

    private static func magnitude(b0: Double, b1: Double, a1: Double, at omega: Double) -> Double {
        let numeratorReal = b0 + b1 * cos(omega), numeratorImaginary = -b1 * sin(omega)
        let denominatorReal = 1 + a1 * cos(omega), denominatorImaginary = -a1 * sin(omega)
        return ((numeratorReal * numeratorReal + numeratorImaginary * numeratorImaginary)
                / (denominatorReal * denominatorReal + denominatorImaginary * denominatorImaginary)).squareRoot()
    }

    /// Whether sound that reached the reverb is still to come out at or above `quietLevel` at frame
    /// `position` or later, counting the pre-delay and one pass through the longest line.
    public func holdsSound(from position: Int64) -> Bool {
        lastLoudInput + Int64(preDelayFrames + lineCapacity) >= position
    }

    /// Reverberates `frames` frames of `input` into `output` (one pointer per channel; not the same buffers).
    public func process(input: UnsafePointer<UnsafeMutablePointer<Float>>, output: UnsafePointer<UnsafeMutablePointer<Float>>, frames: Int) {
        let stereo = channelCount == 2
        let left = input[0], right = input[stereo ? 1 : 0]
        let outLeft = output[0], outRight = output[stereo ? 1 : 0]
        let mask = lineCapacity - 1, capacity = lineCapacity
        let lengths = (lineLengths[0], lineLengths[1], lineLengths[2], lineLengths[3], lineLengths[4], lineLengths[5], lineLengths[6], lineLengths[7])
        let b0 = shelfB0, b1 = shelfB1, a1 = shelfA1
        var shelfIn = shelfInput, shelfOut = shelfOutput
        let leftPattern = SIMD8<Float>(1, -1, 1, -1, 1, -1, 1, -1), rightPattern = SIMD8<Float>(1, 1, -1, -1, 1, 1, -1, -1)
        let leftInjection = stereo ? SIMD8<Float>(1, 1, 1, 1, 0, 0, 0, 0) : SIMD8<Float>(repeating: 0.5)
        let rightInjection = stereo ? SIMD8<Float>(0, 0, 0, 0, 1, 1, 1, 1) : SIMD8<Float>(repeating: 0.5)
        let scale = outputScale / Float(8).squareRoot(), own = depthMix, other = 1 - depthMix
        let wet = wet, dry = 1 - wet
        let hadamardScale = 1 / Float(8).squareRoot()
        let quiet = quietLevel, lines = lines
        let preDelayLine = preDelayLine, preDelayCapacity = preDelayCapacity, preDelayFrames = preDelayFrames
        let rightPreDelay = preDelayLine + (stereo ? preDelayCapacity : 0)
        var preDelayWrite = preDelayWrite
        let rings = diffuserRings, ringLengths = diffuserLengths, positions = diffuserPositions
        var write = lineWrite
        var loudFrame = -1
        for frame in 0..<frames {
            let dryLeft = left[frame], dryRight = right[frame]
            if abs(dryLeft) >= quiet || abs(dryRight) >= quiet { loudFrame = frame }
            preDelayLine[preDelayWrite] = dryLeft
            rightPreDelay[preDelayWrite] = dryRight
            var read = preDelayWrite - preDelayFrames
            if read < 0 { read += preDelayCapacity }
            var inLeft = preDelayLine[read], inRight = rightPreDelay[read]
            preDelayWrite += 1
            if preDelayWrite == preDelayCapacity { preDelayWrite = 0 }
            inLeft = Self.diffuse(inLeft, rings: rings, lengths: ringLengths, positions: positions)
            inRight = stereo ? Self.diffuse(inRight, rings: rings + 3, lengths: ringLengths + 3, positions: positions + 3) : inLeft
            let taps = SIMD8<Float>(lines[(write - lengths.0) & mask], lines[capacity + ((write - lengths.1) & mask)],
                                    lines[2 * capacity + ((write - lengths.2) & mask)], lines[3 * capacity + ((write - lengths.3) & mask)],
                                    lines[4 * capacity + ((write - lengths.4) & mask)], lines[5 * capacity + ((write - lengths.5) & mask)],
                                    lines[6 * capacity + ((write - lengths.6) & mask)], lines[7 * capacity + ((write - lengths.7) & mask)])
            let filtered = b0 * taps + b1 * shelfIn - a1 * shelfOut
            shelfIn = taps
            shelfOut = filtered
            let reverbLeft = (taps * leftPattern).sum() * scale, reverbRight = (taps * rightPattern).sum() * scale
            let wetLeft = own * reverbLeft + other * reverbRight, wetRight = own * reverbRight + other * reverbLeft
            outLeft[frame] = dry * dryLeft + wet * wetLeft
            if stereo { outRight[frame] = dry * dryRight + wet * wetRight }
            let mixed = Self.hadamard(filtered) * hadamardScale + inLeft * leftInjection + inRight * rightInjection
            for line in 0..<8 { lines[line * capacity + write] = mixed[line] }
            write = (write + 1) & mask
        }
        self.preDelayWrite = preDelayWrite
        lineWrite = write
        shelfInput = shelfIn
        shelfOutput = shelfOut
        if loudFrame >= 0 { lastLoudInput = position + Int64(loudFrame) }
        position += Int64(frames)
    }

    /// Runs `sample` through three allpass diffusers (Freeverb's, gain 0.5).
    @inline(__always)
    private static func diffuse(_ sample: Float, rings: UnsafeMutablePointer<UnsafeMutablePointer<Float>>, lengths: UnsafeMutablePointer<Int>,
                                positions: UnsafeMutablePointer<Int>) -> Float {
        var value = sample
        for index in 0..<3 {
            let ring = rings[index], position = positions[index]
            let delayed = ring[position]
            ring[position] = value + 0.5 * delayed
            value = delayed - value
            positions[index] = position + 1 == lengths[index] ? 0 : position + 1
        }
        return value
    }

    /// An unnormalized 8-point Walsh-Hadamard transform (its rows permuted, which keeps it orthogonal).
    @inline(__always)
    static func hadamard(_ v: SIMD8<Float>) -> SIMD8<Float> {
        let first = SIMD8(lowHalf: v.lowHalf + v.highHalf, highHalf: v.lowHalf - v.highHalf)
        let second = SIMD8(lowHalf: first.evenHalf + first.oddHalf, highHalf: first.evenHalf - first.oddHalf)
        return SIMD8(lowHalf: second.evenHalf + second.oddHalf, highHalf: second.evenHalf - second.oddHalf)
    }
}
