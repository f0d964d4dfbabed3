import BrowserSupport
import Foundation
import Testing

/// The PNG decoder on files whose pixels are known: written at authoring time by a few lines of
/// Python (zlib, struct) that filter row y with filter y mod 5, so every filter is used.
@Suite struct PNGDecoderTests {
    /// 3 × 5 RGB; rows filtered None, Sub, Up, Average, Paeth.
    static let rgb = "iVBORw0KGgoAAAANSUhEUgAAAAMAAAAFCAIAAAAPE8H1AAAAM0lEQVR4nGNgiNrituBXzzMHRo2mO+FgwKShoWFpaenl5cUcUKsVeTPyUVISC0Ssy8sLAMMLEKWz9vpkAAAAAElFTkSuQmCC"
    static let rgbPixels: [[(UInt8, UInt8, UInt8)]] = [
        [(0, 90, 180), (70, 160, 250), (140, 230, 64)],
        [(40, 130, 220), (127, 217, 51), (214, 48, 138)],
        [(80, 170, 4), (184, 18, 108), (32, 122, 212)],
        [(120, 210, 44), (241, 75, 165), (106, 196, 30)],
        [(160, 250, 84), (42, 132, 222), (180, 14, 104)],
    ]
    /// 2 × 2 RGBA; rows filtered None, Sub.
    static let rgba = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAF0lEQVR4nGM4IWfzn+tXQwMjAxD8BwIAQWkII3E1RVoAAAAASUVORK5CYII="

    static func bytes(_ base64: String) throws -> [UInt8] {
        [UInt8](try #require(Data(base64Encoded: base64)))
    }

    @Test func decodesEveryFilterOfAnRGBImage() throws {
        let picture = try PNGDecoder.decode(Self.bytes(Self.rgb))
        #expect(picture.width == 3 && picture.height == 5)
        for (y, row) in Self.rgbPixels.enumerated() {
            for (x, (red, green, blue)) in row.enumerated() {
                #expect(picture[x, y] == Colour(red: red, green: green, blue: blue), "pixel (\(x), \(y))")
            }
        }
        #expect(picture.distinctColourCount == 15)
    }

    @Test func decodesAnRGBAImage() throws {
        let picture = try PNGDecoder.decode(Self.bytes(Self.rgba))
        #expect(picture.pixels == [
            Colour(red: 200, green: 30, blue: 60, alpha: 255), Colour(red: 10, green: 250, blue: 128, alpha: 128),
            Colour(red: 0, green: 0, blue: 0, alpha: 0), Colour(red: 255, green: 255, blue: 255, alpha: 255),
        ])
    }

    @Test func refusesWhatIsNotAnIntactPNG() throws {
        #expect(throws: PNGDecoder.Error.self) { try PNGDecoder.decode(Array("<svg/>".utf8)) }
        var damaged = try Self.bytes(Self.rgb)
        damaged[45] ^= 1
        let error = #expect(throws: PNGDecoder.Error.self) { try PNGDecoder.decode(damaged) }
        #expect(error?.description == "a damaged PNG: its IDAT chunk's CRC does not match")
        #expect(throws: PNGDecoder.Error.self) { try PNGDecoder.decode(Array(Self.bytes(Self.rgb).prefix(60))) }
    }
}
