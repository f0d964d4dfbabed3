import ArgumentParser
import Aurender

/// `--convolve IR[:WET%]`: a convolution node after the dynamics, before time and pitch.
///
/// The response is read when the render knows its rate (it is resampled to it); its tail
/// follows `--tail`, as a plugin's does.
extension EffectsOptions {
    /// The response's path and the wet mix in percent (100 unless given), refusing a mix out
    /// of range; a path whose last colon is followed by no number keeps its colon.
    func convolution() throws -> (path: String, wet: Float)? {
        guard let convolve else { return nil }
        let range = ConvolutionNode.parameters[ConvolutionNode.Parameter.wet.rawValue].range
        guard let colon = convolve.lastIndex(of: ":") else { return try Self.checkedPath(convolve, wet: range.upperBound) }
        let written = convolve[convolve.index(after: colon)...]
        let number = written.hasSuffix("%") ? written.dropLast() : written
        guard let wet = Float(number) else { return try Self.checkedPath(convolve, wet: range.upperBound) }
        guard range.contains(wet) else {
            throw ValidationError("--convolve \(convolve): the wet mix must be from \(Self.text(Double(range.lowerBound))) to "
                                  + "\(Self.text(Double(range.upperBound))) %, not \(written)")
        }
        return try Self.checkedPath(String(convolve[..<colon]), wet: wet)
    }

    private static func checkedPath(_ path: String, wet: Float) throws -> (path: String, wet: Float) {
        guard !path.isEmpty else { throw ValidationError("--convolve needs an impulse response file: IR.wav or IR.wav:WET%") }
        return (path, wet)
    }

    /// The convolution stage, with at most `tail` of tail (60 s unless given).
    func convolutionStages(tail: TimeValue?) throws -> [ChainStage] {
        guard let (path, wet) = try convolution() else { return [] }
        var fields: [String: SettingValue] = ["impulse": .text(path), "wet": .number(Double(wet))]
        if let tail { fields["tail"] = ChainStage.field(tail) }
        return [ChainStage("convolution", fields: fields)]
    }
}
