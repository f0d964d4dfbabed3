import Foundation

/// The quality criterion of RFC 6716's reference `opus_compare` tool (as RFC 8251 updated it),
/// by which an Opus decoder's output is judged against the reference decoder's: a decode
/// passes when its quality is 0 or more, and the same signal scores 100.
///
/// How it judges: both signals are cut into Hann-windowed blocks of 480 samples every 120 (at
/// 48 kHz) and their power spectra taken (plus a floor); the reference's energy in each of 21
/// bands, spread across bands (10 dB/Bark upwards, 15 dB/Bark downwards), over time (−3 dB per
/// block) and, for stereo, a little across channels, masks both spectra; each bin's ratio of
/// masked powers r scores r − ln r − 1 (0 where equal), averaged per band, squared and summed
/// over bands, raised to the 4th power per block and averaged over blocks under a 16th root:
/// a weighted error that the worst blocks dominate. The quality is 100·(1 − ½·ln(1 + error) /
/// ln 1.13). Written from the tool's description; samples are scaled to 16-bit units as the tool
/// reads them (its power floor, 100,000, is in those units).
public enum OpusCompare {
    static let windowSize = 480
    static let step = 120
    static let bins = 240
    /// The bands' first bins (CELT's bands, Bark-like), the last entry ending the last band.
    static let bands = [0, 2, 4, 6, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 56, 68, 80, 96, 120, 156, 200]

    /// The quality of `decoded` against `reference`, both interleaved at 48 kHz with
    /// `channelCount` channels (1 or 2) in [−1, 1]; nil where their lengths differ or they are
    /// shorter than one block (the tool refuses both).
    public static func quality(reference: [Float], decoded: [Float], channelCount: Int) -> Double? {
        precondition((1...2).contains(channelCount))
        let frames = reference.count / channelCount
        guard decoded.count == reference.count, frames >= windowSize else { return nil }
        let blocks = (frames - windowSize + step) / step
        var referencePower = powerSpectra(reference, channelCount: channelCount, blocks: blocks)
        var decodedPower = powerSpectra(decoded, channelCount: channelCount, blocks: blocks)
        let bandCount = bands.count - 1
        // The reference's band energies, [block][band][channel], spread into a masking level.
        var masks = [Double](repeating: 0, count: blocks * bandCount * channelCount)
        func mask(_ block: Int, _ band: Int, _ channel: Int) -> Int { (block * bandCount + band) * channelCount + channel }
        func bin(_ block: Int, _ bin: Int, _ channel: Int) -> Int { (block * bins + bin) * channelCount + channel }
        for block in 0..<blocks {
            for band in 0..<bandCount {
                for channel in 0..<channelCount {
                    var sum = 0.0
                    for index in bands[band]..<bands[band + 1] { sum += referencePower[bin(block, index, channel)] }
                    masks[mask(block, band, channel)] = sum / Double(bands[band + 1] - bands[band])
                }
            }
            for band in 1..<bandCount {
                for channel in 0..<channelCount { masks[mask(block, band, channel)] += 0.1 * masks[mask(block, band - 1, channel)] }
            }
            for band in stride(from: bandCount - 2, through: 0, by: -1) {
                for channel in 0..<channelCount { masks[mask(block, band, channel)] += 0.03 * masks[mask(block, band + 1, channel)] }
            }
            if block > 0 {
                for band in 0..<bandCount {
                    for channel in 0..<channelCount { masks[mask(block, band, channel)] += 0.5 * masks[mask(block - 1, band, channel)] }
                }
            }
            if channelCount == 2 {
                for band in 0..<bandCount {
                    let left = masks[mask(block, band, 0)], right = masks[mask(block, band, 1)]
                    masks[mask(block, band, 0)] += 0.01 * right
                    masks[mask(block, band, 1)] += 0.01 * left
                }
            }
            for band in 0..<bandCount {
                for index in bands[band]..<bands[band + 1] {
                    for channel in 0..<channelCount {
                        referencePower[bin(block, index, channel)] += 0.1 * masks[mask(block, band, channel)]
                        decodedPower[bin(block, index, channel)] += 0.1 * masks[mask(block, band, channel)]
                    }
                }
            }
        }
        // Each block's spectrum summed with the one before it (as it was), to be less sensitive.
        for index in 0..<bands[bandCount] {
            for channel in 0..<channelCount {
                var previousReference = referencePower[bin(0, index, channel)], previousDecoded = decodedPower[bin(0, index, channel)]
                for block in 1..<max(1, blocks) {
                    let reference = referencePower[bin(block, index, channel)], decoded = decodedPower[bin(block, index, channel)]
                    referencePower[bin(block, index, channel)] += previousReference
                    decodedPower[bin(block, index, channel)] += previousDecoded
                    previousReference = reference
                    previousDecoded = decoded
                }
            }
        }
        var error = 0.0
        for block in 0..<blocks {
            var blockError = 0.0
            for band in 0..<bandCount {
                var bandError = 0.0
                for index in bands[band]..<bands[band + 1] {
                    for channel in 0..<channelCount {
                        let ratio = decodedPower[bin(block, index, channel)] / referencePower[bin(block, index, channel)]
                        var score = ratio - log(ratio) - 1
                        // Less weight around the SILK/CELT cross-over, where modes may filter differently.
                        if (79...81).contains(index) { score *= 0.1 }
                        if index == 80 { score *= 0.1 }
                        bandError += score
                    }
                }
                bandError /= Double((bands[band + 1] - bands[band]) * channelCount)
                blockError += bandError * bandError
            }
            blockError /= Double(bandCount)
            blockError *= blockError
            error += blockError * blockError
        }
        error = pow(error / Double(blocks), 1.0 / 16)
        return 100 * (1 - 0.5 * log(1 + error) / log(1.13))
    }

    /// Each block's power spectrum (bins 0 to 239) per channel, in 16-bit units squared, plus
    /// the floor: [block][bin][channel].
    static func powerSpectra(_ samples: [Float], channelCount: Int, blocks: Int) -> [Double] {
        let transform = MixedRadixDFT(size: windowSize)
        let window = (0..<windowSize).map { 0.5 - 0.5 * cos(2 * Double.pi / Double(windowSize - 1) * Double($0)) }
        var spectra = [Double](repeating: 0, count: blocks * bins * channelCount)
        var block = [Double](repeating: 0, count: windowSize)
        for index in 0..<blocks {
            for channel in 0..<channelCount {
                for sample in 0..<windowSize {
                    block[sample] = window[sample] * Double(samples[(index * step + sample) * channelCount + channel]) * 32_768
                }
                let (real, imaginary) = transform.transform(block)
                for bin in 0..<bins {
                    spectra[(index * bins + bin) * channelCount + channel] = real[bin] * real[bin] + imaginary[bin] * imaginary[bin] + 100_000
                }
            }
        }
        return spectra
    }
}

/// A discrete Fourier transform of a real signal of any length whose factors are small
/// (480 = 2⁵·3·5), by recursive mixed-radix decimation in time: what `OpusCompare` needs
/// fast enough in a debug build, where the direct sum over 480 samples for each of 240 bins is not.
struct MixedRadixDFT {
    let size: Int
    /// e^(−2πik/size) for k in 0..<size.
    private let cosines: [Double]
    private let sines: [Double]

    init(size: Int) {
        self.size = size
        cosines = (0..<size).map { cos(2 * Double.pi * Double($0) / Double(size)) }
        sines = (0..<size).map { -sin(2 * Double.pi * Double($0) / Double(size)) }
    }

    /// The spectrum X[k] = Σ x[n]·e^(−2πikn/size) of `signal`, its real and imaginary parts.
    func transform(_ signal: [Double]) -> (real: [Double], imaginary: [Double]) {
        precondition(signal.count == size)
        var real = [Double](repeating: 0, count: size), imaginary = real
        real.withUnsafeMutableBufferPointer { outReal in
            imaginary.withUnsafeMutableBufferPointer { outImaginary in
                signal.withUnsafeBufferPointer { input in
                    step(input.baseAddress!, stride: 1, count: size, outReal.baseAddress!, outImaginary.baseAddress!)
                }
            }
        }
        return (real, imaginary)
    }

    /// Transforms the `count` samples input[0], input[stride], … into out[0..<count].
    private func step(_ input: UnsafePointer<Double>, stride: Int, count: Int,
                      _ outReal: UnsafeMutablePointer<Double>, _ outImaginary: UnsafeMutablePointer<Double>) {
        if count == 1 {
            outReal[0] = input[0]
            outImaginary[0] = 0
            return
        }
        let radix = [2, 3, 5].first { count % $0 == 0 } ?? count
        let part = count / radix
        // The radix interleaved sub-sequences' transforms, one after the other.
        for offset in 0..<radix {
            step(input + offset * stride, stride: stride * radix, count: part, outReal + offset * part, outImaginary + offset * part)
        }
        // Butterflies: X[k + q·part] = Σ_r W_count^(r(k + q·part)) · Y_r[k].
        let twiddleStep = size / count
        var real = [Double](repeating: 0, count: radix), imaginary = real
        for k in 0..<part {
            for r in 0..<radix {
                real[r] = outReal[r * part + k]
                imaginary[r] = outImaginary[r * part + k]
            }
            for q in 0..<radix {
                let output = k + q * part
                var sumReal = 0.0, sumImaginary = 0.0
                for r in 0..<radix {
                    let twiddle = (r * output % count) * twiddleStep
                    let c = cosines[twiddle], s = sines[twiddle]
                    sumReal += real[r] * c - imaginary[r] * s
                    sumImaginary += real[r] * s + imaginary[r] * c
                }
                outReal[output] = sumReal
                outImaginary[output] = sumImaginary
            }
        }
    }
}
