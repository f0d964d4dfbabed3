import AudioFormats
import Testing

/// `EncoderSettings.bitRate(parsing:)` reads a bit rate as users type it.
@Suite struct EncoderSettingsTests {
    @Test(arguments: [("192", 192_000), ("192k", 192_000), ("192K", 192_000), ("192000", 192_000), ("96000", 96_000),
                      ("999", 999_000), ("8", 8_000), ("64.5", 64_500), ("1536k", 1_536_000)])
    func bitRatesAreReadAsBitsPerSecond(text: String, bits: Int) {
        #expect(EncoderSettings.bitRate(parsing: text) == bits)
    }

    /// Between 1,000 and 8,000 a bare number is bits per second, under what any encoder takes.
    @Test(arguments: ["1000", "7999", "0", "7", "1537k", "-192", "k", "192kb", "nan"])
    func otherTextIsNoBitRate(text: String) {
        #expect(EncoderSettings.bitRate(parsing: text) == nil)
    }
}

@Suite struct LeadingTagsTests {
    @Test func aVorbisCommentBodyHasTheVendorThenEachCommentWithItsLength() {
        let body = LeadingTags(comments: ["TITLE=Song", "ARTIST=Ä"]).vorbisCommentBody(vendor: Array("libX".utf8))
        let expected: [UInt8] = [4, 0, 0, 0] + Array("libX".utf8) + [2, 0, 0, 0] + [10, 0, 0, 0] + Array("TITLE=Song".utf8)
            + [9, 0, 0, 0] + Array("ARTIST=Ä".utf8)
        #expect(body == expected)
        #expect(LeadingTags().vorbisCommentBody(vendor: []) == [0, 0, 0, 0, 0, 0, 0, 0])
    }
}
