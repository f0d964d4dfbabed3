import CAudioKernels

/// One path through a `PartitionedConvolver`: an input channel, the output channel it feeds,
/// and the impulse response between them.
public struct ConvolutionRoute: Sendable, Equatable {
    /// The input channel.
    public var input: Int
    /// The output channel its convolution is added to.
    public var output: Int
    /// The impulse response, by its index among the convolver's responses.
    public var response: Int

    /// A route from `input` to `output` through response number `response`.
    public init(input: Int, output: Int, response: Int) {
        self.input = input
        self.output = output
        self.response = response
    }
}

/// Convolves N input channels with impulse responses into M output channels, each output the
/// sum of its routes' convolutions: uniformly partitioned overlap-save FFT convolution, the one
/// engine the convolution node and the binaural renderer share.
///
/// Why partitioned: a direct convolution costs the response's length per sample, and one FFT
/// of the whole response would hold back the output by that length. Cut into partitions of
/// `partitionLength` frames, each transformed once when the engine is made, the response costs
/// two transforms per channel and block plus one complex multiply-add per partition and bin
/// (`aurender_spectra_multiply_sum`), whatever its length, and the output runs exactly
/// `latency` (one partition) behind the input.
///
/// Everything is allocated and every FFTW plan made in `init`; `process` allocates nothing and
/// takes no locks (FFTW runs existing plans thread-safely). The samples do not depend on how the
/// input is cut into `process` calls, and a response with a partition's worth of zeros at its
/// end costs one more partition, not more.
///
/// A convolver made to `crossfade` can have a response replaced while it runs
/// (`replaceResponse`, as a moving source's HRIRs are): the next block of output is computed
/// with the old responses and the new, and fades linearly from the one to the other over the
/// block, so the change does not click. Replacing allocates nothing.
public final class PartitionedConvolver {
    /// Frames per partition: the block the transforms work on, a power of two.
    public let partitionLength: Int
    /// Input channels.
    public let inputCount: Int
    /// Output channels.
    public let outputCount: Int
    /// The routes, as given.
    public let routes: [ConvolutionRoute]
    /// Partitions of the longest response.
    public let depth: Int

    /// Bins per spectrum, the transform's `partitionLength + 1` rounded up to a whole block of eight.
    private let bins: Int
    private let forward: RealFFT
    private let inverse: InverseRealFFT
    /// Each response's partitions' spectra, in blocks of eight bins, scaled by 1 / (2 × partitionLength).
    private let responseSpectra: UnsafeMutablePointer<Float>
    private let responseStart: [Int]
    private let responsePartitions: [Int]
    /// Each input's last `depth` spectra, a ring whose newest is at `newest`.
    private let history: UnsafeMutablePointer<Float>
    /// Each input's last two blocks of samples: the one transformed last, then the one filling.
    private let windows: UnsafeMutablePointer<Float>
    /// Each output's block computed last, played while the next block of input fills.
    private let results: UnsafeMutablePointer<Float>
    private let sum: UnsafeMutablePointer<Float>
    private let xTerms: UnsafeMutablePointer<UnsafePointer<Float>?>
    private let hTerms: UnsafeMutablePointer<UnsafePointer<Float>?>
    /// The routes' inputs and responses, sorted by output; output o's are from `outputRoutes[o]`
    /// to `outputRoutes[o + 1]`.
    private let routeInputs: UnsafeMutablePointer<Int>
    private let routeResponses: UnsafeMutablePointer<Int>
    private let outputRoutes: UnsafeMutablePointer<Int>
    private var filled = 0
    private var newest = 0
    /// The spectra each replaced response had before its replacement, heard fading out over the
    /// next block; allocated only for a convolver that crossfades.
    private let previousSpectra: UnsafeMutablePointer<Float>?
    /// Per response, whether it was replaced since the last block (and fades from `previousSpectra`).
    private let fading: UnsafeMutablePointer<Bool>
    private var anyFading = false
    /// The old responses' block of output while a replacement fades in.
    private let fadingResult: UnsafeMutablePointer<Float>?

    /// A convolver of `inputCount` inputs into `outputCount` outputs along `routes`, with
    /// `responses` (each at least one frame long), in partitions of `partitionLength` frames
    /// (a power of two, 16 or more); with `crossfade`, responses may be replaced while it runs.
    public init(partitionLength: Int, inputCount: Int, outputCount: Int, responses: [[Float]], routes: [ConvolutionRoute],
                crossfade: Bool = false) {
        precondition(partitionLength >= 16 && partitionLength & (partitionLength - 1) == 0, "a partition is a power of two of 16 frames or more")
        precondition(inputCount > 0 && outputCount > 0, "a convolver has inputs and outputs")
        precondition(responses.allSatisfy { !$0.isEmpty }, "an impulse response has at least one frame")
        precondition(routes.allSatisfy { (0..<inputCount).contains($0.input) && (0..<outputCount).contains($0.output)
            && responses.indices.contains($0.response) }, "a route joins an input, an output and a response that exist")
        self.partitionLength = partitionLength
        self.inputCount = inputCount
        self.outputCount = outputCount
        self.routes = routes
        let block = partitionLength
        bins = (block + 1 + 7) / 8 * 8
        forward = RealFFT(size: 2 * block)
        inverse = InverseRealFFT(size: 2 * block)
        let partitions = responses.map { ($0.count + block - 1) / block }
        responsePartitions = partitions
        depth = max(1, partitions.max() ?? 1)
        var start = 0
        responseStart = partitions.map { count in
            defer { start += count }
            return start
        }
        let spectrum = 2 * bins
        responseSpectra = .allocate(capacity: max(1, start * spectrum))
        responseSpectra.initialize(repeating: 0, count: max(1, start * spectrum))
        history = .allocate(capacity: inputCount * depth * spectrum)
        history.initialize(repeating: 0, count: inputCount * depth * spectrum)
        windows = .allocate(capacity: inputCount * 2 * block)
        windows.initialize(repeating: 0, count: inputCount * 2 * block)
        results = .allocate(capacity: outputCount * block)
        results.initialize(repeating: 0, count: outputCount * block)
        sum = .allocate(capacity: spectrum)
        sum.initialize(repeating: 0, count: spectrum)
        let byOutput = (0..<outputCount).map { output in routes.filter { $0.output == output } }
        routeInputs = .allocate(capacity: max(1, routes.count))
        routeInputs.initialize(from: byOutput.joined().map(\.input) + [0], count: max(1, routes.count))
        routeResponses = .allocate(capacity: max(1, routes.count))
        routeResponses.initialize(from: byOutput.joined().map(\.response) + [0], count: max(1, routes.count))
        outputRoutes = .allocate(capacity: outputCount + 1)
        outputRoutes.initialize(from: [0] + byOutput.indices.map { byOutput[...$0].joined().count }, count: outputCount + 1)
        let mostTerms = max(1, byOutput.map { $0.reduce(0) { $0 + partitions[$1.response] } }.max() ?? 1)
        xTerms = .allocate(capacity: mostTerms)
        xTerms.initialize(repeating: nil, count: mostTerms)
        hTerms = .allocate(capacity: mostTerms)
        hTerms.initialize(repeating: nil, count: mostTerms)
        fading = .allocate(capacity: max(1, responses.count))
        fading.initialize(repeating: false, count: max(1, responses.count))
        if crossfade {
            previousSpectra = .allocate(capacity: max(1, start * spectrum))
            previousSpectra!.initialize(repeating: 0, count: max(1, start * spectrum))
            fadingResult = .allocate(capacity: block)
            fadingResult!.initialize(repeating: 0, count: block)
        } else {
            previousSpectra = nil
            fadingResult = nil
        }
        for (index, response) in responses.enumerated() {
            response.withUnsafeBufferPointer { transformResponse(index, from: $0.baseAddress!, count: $0.count) }
        }
    }

    /// Transforms `count` frames from `samples` into response `index`'s partitions' spectra,
    /// zeros past them.
    private func transformResponse(_ index: Int, from samples: UnsafePointer<Float>, count total: Int) {
        let block = partitionLength, spectrum = 2 * bins
        let scale = 1 / Float(2 * block)
        for partition in 0..<responsePartitions[index] {
            let first = partition * block, count = max(0, min(block, total - first))
            forward.input.update(repeating: 0, count: 2 * block)
            if count > 0 { forward.input.update(from: samples + first, count: count) }
            let target = responseSpectra + (responseStart[index] + partition) * spectrum
            transformWindow(into: target)
            for sample in 0..<spectrum { target[sample] *= scale }
        }
    }

    /// Frames response `index` may hold: its partitions, as made.
    public func responseCapacity(_ index: Int) -> Int { responsePartitions[index] * partitionLength }

    /// Replaces response `index` with `count` frames from `samples` (at most its
    /// `responseCapacity`); the next block of output fades from the old response to the new,
    /// unless `fades` is false (a first placement), when the new one is heard at once. Only for
    /// a convolver made to `crossfade`; allocates nothing.
    public func replaceResponse(_ index: Int, with samples: UnsafePointer<Float>, count: Int, fades: Bool = true) {
        guard let previousSpectra else { preconditionFailure("a convolver made without crossfade cannot replace a response") }
        precondition(count <= responseCapacity(index), "a replaced response fits the partitions it was made with")
        let spectrum = 2 * bins
        if fades, !fading[index] {
            let first = responseStart[index] * spectrum, length = responsePartitions[index] * spectrum
            (previousSpectra + first).update(from: responseSpectra + first, count: length)
            fading[index] = true
            anyFading = true
        }
        transformResponse(index, from: samples, count: count)
    }

    deinit {
        responseSpectra.deallocate()
        history.deallocate()
        windows.deallocate()
        results.deallocate()
        sum.deallocate()
        xTerms.deallocate()
        hTerms.deallocate()
        routeInputs.deallocate()
        routeResponses.deallocate()
        outputRoutes.deallocate()
        fading.deallocate()
        previousSpectra?.deallocate()
        fadingResult?.deallocate()
    }

    /// Frames the output runs behind the input: one partition.
    public var latency: Int { partitionLength }

    /// Forgets all input, as if new.
    public func reset() {
        history.update(repeating: 0, count: inputCount * depth * 2 * bins)
        windows.update(repeating: 0, count: inputCount * 2 * partitionLength)
        results.update(repeating: 0, count: outputCount * partitionLength)
        filled = 0
        newest = 0
        fading.update(repeating: false, count: responseStart.count)
        anyFading = false
    }

    /// Takes `frames` frames of each input (`inputs[i]` for input i) and writes as many frames
    /// of each output (`outputs[o]`), `latency` frames late: output frame n is the sum of the
    /// routes' convolutions at input frame n − latency (zeros before the stream began). An
    /// output may be an input's own buffer.
    public func process(inputs: UnsafePointer<UnsafeMutablePointer<Float>>, outputs: UnsafePointer<UnsafeMutablePointer<Float>>, frames: Int) {
        let block = partitionLength
        var done = 0
        while done < frames {
            let count = min(frames - done, block - filled)
            for input in 0..<inputCount {
                (windows + input * 2 * block + block + filled).update(from: inputs[input] + done, count: count)
            }
            for output in 0..<outputCount {
                (outputs[output] + done).update(from: results + output * block + filled, count: count)
            }
            filled += count
            done += count
            if filled == block {
                convolveBlock()
                filled = 0
            }
        }
    }

    /// Transforms each input's window into its newest spectrum, then sums each output's terms
    /// and transforms them back into its next block of results.
    private func convolveBlock() {
        let block = partitionLength, spectrum = 2 * bins
        newest = (newest + 1) % depth
        for input in 0..<inputCount {
            let window = windows + input * 2 * block
            forward.input.update(from: window, count: 2 * block)
            transformWindow(into: history + (input * depth + newest) * spectrum)
            window.update(from: window + block, count: block)
        }
        for output in 0..<outputCount {
            let result = results + output * block
            var fades = false
            if anyFading {
                for route in outputRoutes[output]..<outputRoutes[output + 1] where fading[routeResponses[route]] { fades = true }
            }
            if fades, let previousSpectra, let fadingResult {
                convolveOutput(output, spectra: responseSpectra, fadingFrom: previousSpectra, into: fadingResult)
                convolveOutput(output, spectra: responseSpectra, fadingFrom: nil, into: result)
                let step = 1 / Float(block)
                for frame in 0..<block {
                    let weight = Float(frame + 1) * step
                    result[frame] = fadingResult[frame] + weight * (result[frame] - fadingResult[frame])
                }
            } else {
                convolveOutput(output, spectra: responseSpectra, fadingFrom: nil, into: result)
            }
        }
        if anyFading {
            fading.update(repeating: false, count: responseStart.count)
            anyFading = false
        }
    }

    /// Sums output `output`'s terms (with the replaced responses' old spectra from `previous`
    /// when given) and transforms them back into `result`'s block.
    private func convolveOutput(_ output: Int, spectra: UnsafeMutablePointer<Float>, fadingFrom previous: UnsafeMutablePointer<Float>?,
                                into result: UnsafeMutablePointer<Float>) {
        let block = partitionLength, spectrum = 2 * bins
        var terms = 0
        for route in outputRoutes[output]..<outputRoutes[output + 1] {
            let input = routeInputs[route], response = routeResponses[route]
            let source = previous != nil && fading[response] ? previous! : spectra
            for partition in 0..<responsePartitions[response] {
                xTerms[terms] = UnsafePointer(history + (input * depth + (newest - partition + depth) % depth) * spectrum)
                hTerms[terms] = UnsafePointer(source + (responseStart[response] + partition) * spectrum)
                terms += 1
            }
        }
        guard terms > 0 else {
            result.update(repeating: 0, count: block)
            return
        }
        aurender_spectra_multiply_sum(xTerms, hTerms, Int32(terms), bins, sum)
        aurender_spectrum_from_blocks(sum, block, inverse.input)
        let nyquist = block / 8 * 16
        inverse.input[2 * block] = sum[nyquist]
        inverse.input[2 * block + 1] = sum[nyquist + 8]
        inverse.transform()
        result.update(from: inverse.output + block, count: block)
    }

    /// Transforms `forward.input` into `target`, in blocks of eight bins; the bins past the
    /// transform's own (the Nyquist bin's block-mates) stay as they are, zeros.
    private func transformWindow(into target: UnsafeMutablePointer<Float>) {
        let block = partitionLength
        forward.transform()
        aurender_spectrum_to_blocks(forward.output, block, target)
        let nyquist = block / 8 * 16
        target[nyquist] = forward.output[2 * block]
        target[nyquist + 8] = forward.output[2 * block + 1]
    }
}
