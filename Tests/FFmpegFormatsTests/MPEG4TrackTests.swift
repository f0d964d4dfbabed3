import AudioFormats
@testable import FFmpegFormats
import Foundation
import Testing
import TestSupport

/// `MPEG4Track` reads an MPEG-4 track's edit list, `iTunSMPB` statement and the end of its
/// samples' bytes from the file's index, and gives the length the track states.
@Suite struct MPEG4TrackTests {
    @Test func anITunSMPBTextStatesPrimingPaddingAndFrames() {
        let gapless = ITunesGapless(text: " 00000000 00000840 000003FC 000000000000AC44 00000000 00000000 00000000 00000000")
        #expect(gapless?.priming == 2_112 && gapless?.padding == 1_020 && gapless?.frames == 44_100)
        #expect(ITunesGapless(text: " 00000000 00000840 000003FC") == nil, "no frame count")
        #expect(ITunesGapless(text: " 00000000 00000840 000003FC 0000000000000000") == nil, "no audio")
        #expect(ITunesGapless(text: " 00000000 0000084G 000003FC 000000000000AC44") == nil, "not hexadecimal")
    }

    @Test func aFileWithItsIndexFirstEndsWithItsSamples() throws {
        let path = fixture("ffmpeg/aac.m4a")
        let size = Int64(try Data(contentsOf: URL(fileURLWithPath: path)).count)
        let track = try #require(MPEG4Track.read(try AudioInput(path: path), trackID: 1))
        #expect(track.hasEditList && track.gapless == nil)
        #expect(track.mediaEnd == size, "the media data ends the file")
        #expect(!track.isCutShort(size: size) && track.isCutShort(size: size - 1) && !track.isCutShort(size: nil))
        #expect(MPEG4Track.read(try AudioInput(path: path), trackID: 2) == nil, "no such track")
    }

    @Test func eachTrackOfAVideoIsFoundByItsID() throws {
        let path = fixture("ffmpeg/video.mp4")
        let video = try #require(MPEG4Track.read(try AudioInput(path: path), trackID: 1))
        let audio = try #require(MPEG4Track.read(try AudioInput(path: path), trackID: 2))
        let ends = [video.mediaEnd, audio.mediaEnd].compactMap { $0 }
        #expect(ends.count == 2 && ends.allSatisfy { $0 > 36 && $0 <= 1_162 }, "within the media data (36 to 1,162)")
        #expect(ends.max() == 1_162, "one of them ends it")
    }

    @Test func theLengthATrackStates() throws {
        let tag = try #require(ITunesGapless(text: " 00000000 00000840 000003FC 000000000000AC44"))
        let late = try #require(ITunesGapless(text: " 00000000 00004000 000003FC 000000000000AC44"))
        func track(editList: Bool, _ gapless: ITunesGapless?) -> MPEG4Track {
            MPEG4Track(trackID: 1, hasEditList: editList, gapless: gapless, mediaEnd: nil)
        }
        #expect(track(editList: true, tag).length(codec: "aac", isLossless: false, ffmpegFrames: 45_124) == nil, "the edit list's duration")
        #expect(track(editList: false, tag).length(codec: "aac", isLossless: false, ffmpegFrames: 47_104) == .exact(44_100))
        #expect(track(editList: false, late).length(codec: "aac", isLossless: false, ffmpegFrames: 47_104) == .estimated(47_104),
                "FFmpeg skips no priming of 16,384 frames or more")
        #expect(track(editList: false, tag).length(codec: "mp3", isLossless: false, ffmpegFrames: 47_104) == .estimated(47_104),
                "FFmpeg skips the priming of AAC only")
        #expect(track(editList: false, nil).length(codec: "aac", isLossless: false, ffmpegFrames: 47_104) == .estimated(47_104))
        #expect(track(editList: false, nil).length(codec: "alac", isLossless: true, ffmpegFrames: 11_025) == nil,
                "a lossless track's table counts what decodes")
    }
}
