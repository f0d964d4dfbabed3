import Aurender
import Foundation
import TestSupport
import Testing

/// The library's batch: naming, collisions, skipping and ordered outcomes, without the command.
@Suite struct BatchJobTests {
    @Test func outputsAreNamedAfterTheirInputsInFolderOrder() throws {
        let folder = try TemporaryFolder()
        for name in ["in/b.wav", "in/a.flac", "in/notes.txt", "in/sub/c.aiff", "in/.hidden.wav", "in/d.m4a", "in/e.WV"] {
            try touch(folder.file(name))
        }
        let flat = try BatchJob(inputs: [folder.file("in")], into: folder.file("out"), suffix: "-eq")
        #expect(flat.items.map(\.output) == [folder.file("out/a-eq.flac"), folder.file("out/b-eq.wav"), folder.file("out/d-eq.m4a"),
                                             folder.file("out/e-eq.WV")])
        let deep = try BatchJob(inputs: [folder.file("in")], into: folder.file("out/"), recursive: true, container: .flac)
        #expect(deep.items.map(\.input) == [folder.file("in/a.flac"), folder.file("in/b.wav"), folder.file("in/d.m4a"),
                                            folder.file("in/e.WV"), folder.file("in/sub/c.aiff")])
        #expect(deep.items.map(\.output) == [folder.file("out/a.flac"), folder.file("out/b.flac"), folder.file("out/d.flac"),
                                             folder.file("out/e.flac"), folder.file("out/sub/c.flac")])
    }

    @Test func collidingOutputsAndEmptyBatchesAreRefused() throws {
        let folder = try TemporaryFolder()
        for name in ["a/x.wav", "b/x.wav"] { try touch(folder.file(name)) }
        #expect(throws: BatchError.collision(inputs: [folder.file("a/x.wav"), folder.file("b/x.wav")], output: folder.file("out/x.wav"))) {
            try BatchJob(inputs: [folder.file("a/x.wav"), folder.file("b/x.wav")], into: folder.file("out"))
        }
        try FileManager.default.createDirectory(atPath: folder.file("empty"), withIntermediateDirectories: true)
        #expect(throws: BatchError.noAudioFiles) { try BatchJob(inputs: [folder.file("empty")], into: folder.file("out")) }
    }

    @Test func outcomesComeBackInInputOrderWithSkipsAndFailures() throws {
        let folder = try TemporaryFolder()
        for name in ["in/1.wav", "in/2.wav", "in/3.wav", "in/4.wav"] { try touch(folder.file(name)) }
        try touch(folder.file("out/2.wav"))
        let batch = try BatchJob(inputs: [folder.file("in")], into: folder.file("out"), jobs: 3, skipping: .existing)
        struct Refused: Error {}
        let outcomes = batch.run { item -> String in
            if item.input.hasSuffix("3.wav") { throw Refused() }
            return item.output
        }
        #expect(outcomes.count == 4)
        guard case .rendered(let first) = outcomes[0], case .skipped = outcomes[1], case .failed(let error) = outcomes[2],
              case .rendered(let last) = outcomes[3] else {
            Issue.record("outcomes out of order: \(outcomes)")
            return
        }
        #expect(first == folder.file("out/1.wav") && last == folder.file("out/4.wav"))
        #expect(error is Refused)
    }
}
