// snippet: library-guide
import Aurender
import Foundation   // sin
// snippet end
import Testing

/// The snippet of the guide's page on the library, docs/library.md.
@Suite struct LibraryGuideSnippets {
    @Test func aCallbackFeedsAGenericOutput() throws {
        // snippet: library-guide
        let graph = Graph()
        let output = GenericOutput()
        try graph.addNode(output)
        try output.setStreamFormat(.canonical(sampleRate: 48000, channelCount: 1), scope: .input)

        var phase = 0.0
        try graph.setRenderCallback(for: output) { flags, request, buffers in
            for frame in 0..<request.frameCount {           // a 440 Hz tone, one second long
                buffers[0][frame] = Float(0.5 * sin(phase))
                phase += 2 * .pi * 440 / 48000
            }
            let remaining = 48000 - Int(request.timeStamp.sampleTime)
            if remaining <= request.frameCount { flags.insert(.endOfStream) }
            return min(request.frameCount, remaining)
        }
        try graph.initialize()

        var peak: Float = 0
        while case .rendered(let frames) = try graph.renderSlice(frameCount: 1024) {
            // output.buffers[0][0..<frames] holds the slice: write it, measure it, send it
            for frame in 0..<frames { peak = max(peak, abs(output.buffers[0][frame])) }
        }
        // snippet end
        #expect(output.sampleTime == 48000)
        #expect(abs(peak - 0.5) < 0.001)
    }
}
