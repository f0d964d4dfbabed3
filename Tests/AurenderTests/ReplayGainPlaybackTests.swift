import AudioMetadata
@testable import Aurender
import Foundation
import TestSupport
import Testing

/// The gains `--replaygain` reads from tags (`StoredGain`) and what it applies (`ReplayGainPlayback`):
/// ReplayGain's text, R128's Q7.8 and Sound Check's hex fields, each at −18 LUFS; the preamp, the
/// clipping prevention, the album mode's fallback to a track gain, and the fallback gain.
@Suite struct ReplayGainPlaybackTests {
    @Test func replayGainTextIsReadWithOrWithoutItsUnit() throws {
        let tags = Tags([("REPLAYGAIN_TRACK_GAIN", "-7.02 dB"), ("REPLAYGAIN_TRACK_PEAK", "0.988831"),
                         ("REPLAYGAIN_ALBUM_GAIN", "+3.5"), ("REPLAYGAIN_ALBUM_PEAK", " 0.5 ")])
        #expect(StoredGain.read(from: tags, album: false) == StoredGain(gain: -7.02, peak: 0.988831, source: .replayGainTrack))
        #expect(StoredGain.read(from: tags, album: true) == StoredGain(gain: 3.5, peak: 0.5, source: .replayGainAlbum))
    }

    @Test func anAlbumModeWithoutAnAlbumGainTakesTheTrackGain() throws {
        let tags = Tags([("REPLAYGAIN_TRACK_GAIN", "-4.00 dB")])
        let stored = try #require(StoredGain.read(from: tags, album: true))
        #expect(stored.source == .replayGainTrack && stored.gain == -4 && stored.peak == nil)
        let applied = try ReplayGainPlayback(mode: .album).gain(for: "a.flac", tags: tags)
        #expect(applied.fellBackToTrack)
        #expect(applied.warning == "a.flac: no album gain; played back by its track gain (REPLAYGAIN_TRACK_GAIN)")
    }

    @Test func aValueThatDoesNotParseIsPassedOver() {
        let tags = Tags([("REPLAYGAIN_TRACK_GAIN", "loud"), ("R128_TRACK_GAIN", "-2048")])
        #expect(StoredGain.read(from: tags, album: false)?.source == .r128Track)
        #expect(StoredGain.read(from: Tags([("REPLAYGAIN_TRACK_GAIN", "nan dB")]), album: false) == nil)
        #expect(StoredGain.read(from: Tags([("R128_TRACK_GAIN", "40000")]), album: false) == nil, "outside a 16-bit integer")
    }

    @Test func r128GainsAreBroughtFromMinus23ToMinus18LUFS() throws {
        let tags = Tags([("R128_TRACK_GAIN", "-2048"), ("R128_ALBUM_GAIN", "512")])
        // -2048 / 256 = -8 dB to -23 LUFS: -3 dB to -18 LUFS.
        #expect(StoredGain.read(from: tags, album: false) == StoredGain(gain: -3, peak: nil, source: .r128Track))
        #expect(StoredGain.read(from: tags, album: true) == StoredGain(gain: 7, peak: nil, source: .r128Album))
    }

    @Test func soundCheckReadsBackTheGainItWasWrittenWith() throws {
        // aurender loudness writes iTunNORM against -16 LUFS: a ReplayGain gain of -5 dB is -3 dB there.
        let text = LevelingGains.soundCheckText(gain: -3, peak: 0.75)
        for key in ["ITUNNORM", "COMMENT:ITUNNORM"] {
            let stored = try #require(StoredGain.read(from: Tags([(key, text)]), album: false), "\(key)")
            #expect(stored.source == .soundCheck)
            #expect(abs(stored.gain - -5) < 0.005, "\(stored.gain)")
            #expect(abs(try #require(stored.peak) - 0.75) < 1.0 / 32767, "\(String(describing: stored.peak))")
        }
        #expect(StoredGain.read(from: Tags([("ITUNNORM", " 000003E8 000003E8")]), album: false) == nil, "two fields are not Sound Check's ten")
    }

    @Test func replayGainComesBeforeR128AndSoundCheck() {
        let tags = Tags([("ITUNNORM", LevelingGains.soundCheckText(gain: 1, peak: 0.5)), ("R128_TRACK_GAIN", "0"),
                         ("REPLAYGAIN_TRACK_GAIN", "-1.00 dB")])
        #expect(StoredGain.read(from: tags, album: false)?.source == .replayGainTrack)
        #expect(StoredGain.read(from: Tags([("ITUNNORM", LevelingGains.soundCheckText(gain: 1, peak: 0.5)), ("R128_TRACK_GAIN", "0")]),
                                album: false)?.source == .r128Track)
    }

    @Test func thePreampIsAddedAndThePeakLimitsTheGain() throws {
        let tags = Tags([("REPLAYGAIN_TRACK_GAIN", "+6.00 dB"), ("REPLAYGAIN_TRACK_PEAK", "0.8")])
        let highest = -20 * log10(0.8)
        let lowered = try ReplayGainPlayback(mode: .track, preamp: 2).gain(for: "a.mp3", tags: tags)
        #expect(abs(lowered.gain - highest) < 1e-12 && abs(lowered.lowering - (8 - highest)) < 1e-12)
        #expect(lowered.note == "replaygain: a.mp3: track gain 6.00 dB (REPLAYGAIN_TRACK_GAIN), applied 1.94 dB, lowered 6.06 dB for its peak 0.800")
        let whole = try ReplayGainPlayback(mode: .track, preamp: 2, preventsClipping: false).gain(for: "a.mp3", tags: tags)
        #expect(whole.gain == 8 && whole.lowering == 0)
        let under = try ReplayGainPlayback(mode: .track, preamp: -6).gain(for: "a.mp3", tags: tags)
        #expect(under.gain == 0 && under.lowering == 0, "a gain that keeps the peak under full scale is applied whole")
        let r128 = try ReplayGainPlayback(mode: .track, preamp: 20).gain(for: "a.opus", tags: Tags([("R128_TRACK_GAIN", "0")]))
        #expect(r128.gain == 25 && r128.lowering == 0, "R128 stores no peak to lower by")
    }

    @Test func aFileWithoutAStoredGainIsRefusedUnlessThereIsAFallback() throws {
        let tags = Tags([("TITLE", "Song")])
        #expect {
            try ReplayGainPlayback(mode: .track).gain(for: "b.wav", tags: tags)
        } throws: { error in
            "\(error)" == "b.wav: no gain to play back by: it holds no ReplayGain, R128 or Sound Check gain"
        }
        let applied = try ReplayGainPlayback(mode: .album, preamp: 1, fallback: -6).gain(for: "b.wav", tags: tags)
        #expect(applied.gain == -5 && applied.stored == nil && !applied.fellBackToTrack)
        #expect(applied.warning == "b.wav: no gain to play back by: it holds no ReplayGain, R128 or Sound Check gain; played back at the fallback gain -5.00 dB")
    }

    @Test func aLeveledOutputCarriesNoStoredGainsButAnEditMaySetThem() throws {
        let folder = try TemporaryFolder()
        let tagged = try #require(try TaggedFiles.flac(tags: [("TITLE", "Song"), ("REPLAYGAIN_TRACK_GAIN", "-3.00 dB"),
                                                              ("REPLAYGAIN_TRACK_PEAK", "0.5"), ("R128_TRACK_GAIN", "12")], in: folder))
        let kept = try MetadataCarriage.resolving(TagChoice(), input: tagged)
        #expect(kept.metadata.tags["REPLAYGAIN_TRACK_GAIN"] == ["-3.00 dB"])
        let leveled = try MetadataCarriage.resolving(TagChoice(), input: tagged, leveled: true)
        #expect(leveled.metadata.tags.keys == ["TITLE"])
        var choice = TagChoice()
        choice.edits = [TagChoice.Edit(key: "REPLAYGAIN_TRACK_GAIN", values: ["0.00 dB"])]
        #expect(try MetadataCarriage.resolving(choice, input: tagged, leveled: true).metadata.tags["REPLAYGAIN_TRACK_GAIN"] == ["0.00 dB"])
    }
}
