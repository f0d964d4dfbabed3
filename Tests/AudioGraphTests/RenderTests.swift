import AudioGraph
import GraphTestSupport
import MallocCounter
import Testing

@Suite struct RenderTests {
    /// The single most valuable test of a pull graph: the output does not depend on slice size.
    @Test(arguments: [1, 7, 64, 4095, 4096])
    func outputIsTheSameForEverySliceSize(sliceSize: Int) throws {
        for length in [0, 1, 4095, 4097, 10007] {
            let (_, output, _) = try makeChain(length: length, channels: 2)
            let rendered = try output.renderAll(sliceSize: sliceSize)
            #expect(rendered[0].count == length)
            #expect(rendered[1].count == length)
            for frame in 0..<length {
                if rendered[0][frame] != 0.5 * RampSource.value(frame: frame, channel: 0)
                    || rendered[1][frame] != 0.5 * RampSource.value(frame: frame, channel: 1) {
                    Issue.record("frame \(frame) of \(length) differs with slices of \(sliceSize)")
                    return
                }
            }
        }
    }

    @Test func timestampsAdvanceByTheFramesRendered() throws {
        let (_, output, source) = try makeChain(length: 250)
        let sizes = [100, 7, 64, 100, 100]
        var results: [SliceResult] = []
        for size in sizes { results.append(try output.renderSlice(frameCount: size)) }
        #expect(results == [.rendered(frames: 100), .rendered(frames: 7), .rendered(frames: 64),
                            .rendered(frames: 79), .endOfStream])
        #expect(source.requests.map(\.timeStamp.sampleTime) == [0, 100, 107, 171])
        #expect(source.requests.map(\.frameCount) == [100, 7, 64, 100])
        #expect(source.requests.allSatisfy { $0.bus == 0 })
        #expect(output.sampleTime == 250)
    }

    @Test func endOfStreamIsAValueAndStaysSo() throws {
        let (_, output, source) = try makeChain(length: 128)
        #expect(try output.renderSlice(frameCount: 128) == .rendered(frames: 128))
        #expect(try output.renderSlice(frameCount: 128) == .endOfStream)
        #expect(try output.renderSlice(frameCount: 128) == .endOfStream)
        #expect(source.requests.count == 2, "after the end, the source is not pulled again")
    }

    @Test func flagsReachTheCaller() throws {
        let graph = Graph()
        let output = GenericOutput()
        try graph.addNode(output)
        try output.setStreamFormat(.canonical(sampleRate: 8000, channelCount: 1), scope: .input)
        var seen: [RenderActionFlags] = []
        try graph.setRenderCallback(for: output) { flags, request, buffers in
            buffers.zero(frames: request.frameCount)
            flags.insert(.outputIsSilence)
            seen.append(flags)
            return request.frameCount / 2
        }
        try graph.initialize()
        #expect(try graph.renderSlice(frameCount: 10) == .rendered(frames: 5))
        #expect(try graph.renderSlice(frameCount: 10) == .endOfStream, "a short slice ends the stream")
        #expect(seen == [.outputIsSilence])
    }

    @Test func renderingAllocatesNothing() throws {
        // A first full render instantiates the runtime's type metadata for every path (once per
        // process; tests run in parallel); the second is the steady state measured.
        let (_, warmUp, _) = try makeChain(length: 5000, channels: 2, maximumFrames: 512)
        _ = try warmUp.renderAll(sliceSize: 512)
        let (_, output, source) = try makeChain(length: 2_000_000, channels: 2, maximumFrames: 512)
        source.recordsRequests = false
        let (slices, allocations) = try steadyStateAllocations(of: output, sliceSize: 512)
        #expect(slices > 3000)
        #expect(allocations == 0)
    }

    /// Found by `make fuzz` (FuzzGraphFiles, under LeakSanitizer): a graph dropped while
    /// initialized, as a graph file's plan is, leaked its output's channel pointers.
    @Test func aGraphDroppedWhileInitializedFreesEverythingItAllocated() throws {
        func initializeAndDrop() throws {
            _ = try makeChain(length: 100, channels: 2, maximumFrames: 512)
        }
        try initializeAndDrop()
        let (allocations, frees) = (malloc_counter_thread_allocations(), malloc_counter_thread_frees())
        for _ in 0..<100 { try initializeAndDrop() }
        let made = malloc_counter_thread_allocations() - allocations
        #expect(made >= 100)
        #expect(malloc_counter_thread_frees() - frees >= made, "one block or more kept per graph")
    }

    @Test func theAllocationCounterSeesAllocations() {
        let before = malloc_counter_thread_allocations()
        let array = [Int](repeating: 1, count: Int.random(in: 100...200))
        #expect(malloc_counter_thread_allocations() > before)
        #expect(array.count >= 100)
    }
}
