import Foundation
import Testing
import TestSupport
@testable import VorbisFormats

/// The check that an Ogg Vorbis stream's audio starts on a page of its own.
@Suite struct VorbisHeaderPagesTests {
    static let music = [UInt8](try! Data(contentsOf: URL(fileURLWithPath: fixture("music.ogg"))))

    @Test func libsndfilesLayoutStartsTheAudioOnAFreshPage() {
        #expect(VorbisHeaderPages.audioStartsOnAFreshPage(Self.music) == true)
    }

    @Test func audioOnTheSetupPageIsFound() {
        #expect(VorbisHeaderPages.audioStartsOnAFreshPage(OggPage.audioOnTheSetupPage(Self.music)) == false)
    }

    @Test func headersCutShortTellNothing() {
        let pages = OggPage.pages(of: Self.music)
        #expect(VorbisHeaderPages.audioStartsOnAFreshPage(pages[0].bytes) == nil, "only the identification header")
        #expect(VorbisHeaderPages.audioStartsOnAFreshPage(Array("RIFF....WAVE".utf8)) == nil)
    }

    /// Another stream's pages (Theora's, in a multiplexed file) count no packets of the first.
    @Test func onlyTheFirstStreamsPacketsCount() {
        var pages = OggPage.pages(of: Self.music)
        var other = pages[1]
        other.serial ^= 1
        other.lacing = [10, 10, 10]
        other.body = [UInt8](repeating: 0, count: 30)
        pages.insert(other, at: 1)
        #expect(VorbisHeaderPages.audioStartsOnAFreshPage(pages.flatMap(\.bytes)) == true)
    }
}
