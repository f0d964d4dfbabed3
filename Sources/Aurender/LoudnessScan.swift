import AudioDSP
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AudioGraph
import Loudness
import AudioFormats

/// Measures loudness: of a file as it is (`aurender info --loudness`), or of what a prepared
/// graph renders (the first pass of `--normalize`).
public enum LoudnessScan {
    /// Frames read or rendered per step.
    static let blockFrames = 16384

    /// The loudness of everything in `file`, read from where it stands to its end, with the
    /// 8× reconstructed peak beside BS.1770-4's true peak.
    public static func measure(_ file: any AudioDecoder) throws -> LoudnessMeasurement {
        let meter = try meter(for: file.format, path: file.path)
        let peaks = ReconstructedPeakMeter(channelCount: file.format.channelCount)
        var block = [Float](repeating: 0, count: blockFrames * file.format.channelCount)
        try block.withUnsafeMutableBufferPointer { block in
            while true {
                let frames = try file.read(into: block.baseAddress!, frames: blockFrames)
                try meter.add(block.baseAddress!, frames: frames)
                peaks.add(interleaved: block.baseAddress!, frames: frames)
                if frames < blockFrames { break }
            }
        }
        return measurement(meter, peaks)
    }

    /// The loudness of `render`'s output, pulled to its end (the graph cannot render again).
    static func measure(_ render: PreparedRender, path: String, progress: RenderProgress?) throws -> LoudnessMeasurement {
        let meter = try meter(for: render.format, path: path)
        let peaks = ReconstructedPeakMeter(channelCount: render.format.channelCount)
        let frameLimit = min(blockFrames, render.outputNode.maximumFramesPerSlice)
        var block = [Float](repeating: 0, count: frameLimit * render.format.channelCount)
        try block.withUnsafeMutableBufferPointer { block in
            while case .rendered(let frames) = try render.outputNode.renderSlice(frameCount: frameLimit) {
                _ = SampleConversion.interleave(render.outputNode.buffers, frames: frames, into: block.baseAddress!)
                try meter.add(block.baseAddress!, frames: frames)
                peaks.add(interleaved: block.baseAddress!, frames: frames)
                progress?.add(frames)
            }
        }
        return measurement(meter, peaks)
    }

    /// The loudness meter's measurement with the reconstructed peak, in dBTP (nil for silence).
    private static func measurement(_ meter: LoudnessMeter, _ peaks: ReconstructedPeakMeter) -> LoudnessMeasurement {
        peaks.finish()
        var measurement = meter.measurement()
        measurement.reconstructedPeak = peaks.peak > 0 ? 20 * log10(Double(peaks.peak)) : nil
        return measurement
    }

    private static func meter(for format: StreamFormat, path: String) throws -> LoudnessMeter {
        do { return try LoudnessMeter(channelCount: format.channelCount, sampleRate: Int(format.sampleRate)) } catch {
            throw RenderError.usage("\(path): \(error)")
        }
    }
}
