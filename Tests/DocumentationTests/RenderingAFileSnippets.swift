import Aurender
import TestSupport
import Testing

/// The snippets of RenderingAFile.md.
@Suite struct RenderingAFileSnippets {
    @Test func aJobRendersAFileThroughAnEQ() throws {
        let folder = try TemporaryFolder()
        let inputPath = fixture("music.wav"), outputPath = folder.file("music-rock.wav")
        // snippet: render-job
        var options = RenderJob.Options()
        options.format.sampleRate = 48000
        options.format.encoding = .pcm24
        let job = RenderJob(input: inputPath, output: .file(outputPath), options: options) { format in
            let rock = try EQPreset.named("Rock")
            return [try GraphicEQNode(presets: [rock])]
        }
        let summary = try job.run()     // summary.frames, summary.clipCount, summary.rms, …
        // snippet end
        #expect(summary.frames == 144_000)
        let written = try FormatRegistry.standard.openDecoder(path: outputPath)
        #expect(written.format.sampleRate == 48000)
        #expect(written.encoding == .pcm24)
        #expect(written.length == .exact(144_000))
        #expect(folder.contents() == ["music-rock.wav"])
    }

    @Test func aRenderSketchesItsInputAndOutput() throws {
        let folder = try TemporaryFolder()
        let inputPath = fixture("music.wav"), outputPath = folder.file("copy.wav")
        // snippet: render-sketches
        var sketching = RenderJob.Options()
        sketching.settings.sketchesSignals = true
        let sketched = RenderJob(input: inputPath, output: .file(outputPath), options: sketching)
        let sketches = try sketched.run().sketches
        let change = (sketches?.output.integratedLoudness ?? 0) - (sketches?.inputs.first?.sketch.integratedLoudness ?? 0)
        // snippet end
        #expect(sketches?.inputs.map(\.input) == [inputPath])
        #expect(sketches?.output.frames == 132_300)
        #expect(abs(change) < 0.01, "a copy keeps its loudness: \(change)")
        #expect(sketches?.response.isEmpty == true, "nothing designed to change the response")
    }

    @Test func aRenderPlaysBackByTheStoredGain() throws {
        let folder = try TemporaryFolder()
        let taggedPath = folder.file("tagged.flac"), outputPath = folder.file("leveled.wav")
        var tagging = RenderJob.Options()
        tagging.settings.tags.edits = [TagChoice.Edit(key: "REPLAYGAIN_ALBUM_GAIN", values: ["-4.50 dB"])]
        _ = try RenderJob(input: fixture("music.wav"), output: .file(taggedPath), options: tagging).run()
        // snippet: render-replaygain
        var leveled = RenderJob.Options()
        leveled.settings.replayGain = ReplayGainPlayback(mode: .album, preamp: 0)
        let played = try RenderJob(input: taggedPath, output: .file(outputPath), options: leveled).run()
        let applied = played.replayGains.first?.gain   // dB, from the tag `played.replayGains` names
        // snippet end
        #expect(applied == -4.5)
        #expect(played.replayGains.first?.stored?.source == .replayGainAlbum)
        #expect(played.metadata.carried.tags.isEmpty, "the leveled output carries no gain: \(played.metadata.carried.tags)")
    }

    @Test func aPlanDescribesTheGraphWithoutReadingAudio() throws {
        let folder = try TemporaryFolder()
        let inputPath = fixture("music.wav"), outputPath = folder.file("music-rock.wav")
        var options = RenderJob.Options()
        options.format.sampleRate = 48000
        let job = RenderJob(input: inputPath, output: .file(outputPath), options: options)
        // snippet: render-plan
        let plan = try job.plan().text  // the graph as `--dry-run` prints it: nodes, formats, output
        // snippet end
        #expect(plan.contains("converter"))
        #expect(plan.contains("48000"))
        #expect(folder.contents().isEmpty)
    }
}
