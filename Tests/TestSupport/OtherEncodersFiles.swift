import Foundation

/// Files as other encoders and taggers write them, built byte by byte from a file of aurender's
/// own (an MP3 from libsndfile's LAME) or from samples: the variants aurender once refused
/// because its tests only read what its own encoders wrote.
public enum OtherEncodersFiles {
    /// `mp3` with its LAME tag's encoder string replaced by `encoder` (9 bytes, as FFmpeg's
    /// libmp3lame writes `Lavc59.37`), and the tag's CRC-16 made good again.
    public static func retagged(_ mp3: [UInt8], encoder: String) -> [UInt8] {
        var bytes = mp3
        guard let xing = find("Info", in: bytes) ?? find("Xing", in: bytes) else { return bytes }
        let frame = xing - 36, tag = frame + 156
        bytes.replaceSubrange(tag..<(tag + 9), with: Array(encoder.utf8.prefix(9)) + [UInt8](repeating: 0x20, count: max(0, 9 - encoder.utf8.count)))
        let crc = crc16(bytes[frame..<(frame + 190)])
        bytes[frame + 190] = UInt8(crc >> 8)
        bytes[frame + 191] = UInt8(crc & 0xFF)
        return bytes
    }

    /// `mp3`'s frames in a RIFF WAVE of format tag 0x55 (MPEGLAYER3WAVEFORMAT), with a `fact`
    /// chunk counting `factFrames`, as FFmpeg's `-f wav` and Windows tools write MP3 in WAV.
    public static func mp3InWAV(_ mp3: [UInt8], rate: Int, channels: Int, factFrames: Int) -> Data {
        var format = little(UInt16(0x55)) + little(UInt16(channels)) + little(UInt32(rate)) + little(UInt32(16_000))
        format += little(UInt16(1)) + little(UInt16(0)) + little(UInt16(12))
        format += little(UInt16(1)) + little(UInt32(2)) + little(UInt16(417)) + little(UInt16(1)) + little(UInt16(1393))
        let body = chunk("fmt ", format) + chunk("fact", little(UInt32(factFrames))) + chunk("data", mp3)
        return Data(Array("RIFF".utf8) + little(UInt32(4 + body.count)) + Array("WAVE".utf8) + body)
    }

    /// An ID3v2.2 tag (three-letter frame names, three-byte sizes) holding a title, as iTunes
    /// and old taggers wrote them.
    public static func id3v22(title: String) -> [UInt8] {
        let text = [0] + Array(title.utf8)
        let frame = Array("TT2".utf8) + [0, 0, UInt8(text.count)] + text + [UInt8](repeating: 0, count: 64)
        let size = [21, 14, 7, 0].map { UInt8((frame.count >> $0) & 0x7F) }
        return Array("ID3".utf8) + [2, 0, 0] + size + frame
    }

    /// A WAV of 64-bit integer PCM (format tag 1, 64 bits a sample), which libsndfile does not
    /// implement and FFmpeg reads.
    public static func pcm64WAV(_ samples: [Float], channels: Int, rate: Int) -> Data {
        let format = little(UInt16(1)) + little(UInt16(channels)) + little(UInt32(rate)) + little(UInt32(rate * channels * 8))
            + little(UInt16(channels * 8)) + little(UInt16(64))
        let data = samples.flatMap { little(Int64((Double($0) * 0x1p63).rounded())) }
        let body = chunk("fmt ", format) + chunk("data", data)
        return Data(Array("RIFF".utf8) + little(UInt32(4 + body.count)) + Array("WAVE".utf8) + body)
    }

    private static func chunk(_ id: String, _ bytes: [UInt8]) -> [UInt8] {
        Array(id.utf8) + little(UInt32(bytes.count)) + bytes + (bytes.count % 2 == 1 ? [0] : [])
    }

    private static func find(_ text: String, in bytes: [UInt8]) -> Int? {
        let pattern = Array(text.utf8)
        return (0...(bytes.count - pattern.count)).first { bytes[$0..<($0 + pattern.count)].elementsEqual(pattern) }
    }

    /// CRC-16 as the LAME tag stores it (polynomial 0x8005, reflected, from 0).
    private static func crc16(_ bytes: ArraySlice<UInt8>) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc ^= UInt16(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
        }
        return crc
    }

    private static func little<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
}
