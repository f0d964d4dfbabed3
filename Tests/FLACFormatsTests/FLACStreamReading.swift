import Foundation
import TestSupport
import Testing

/// Reads what the tests check in a FLAC file, independently of the encoder's code: STREAMINFO's
/// fields, the metadata's length, and the frames found one after another by their sync code,
/// header CRC-8, frame number and CRC-16.
struct FLACStreamReading {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    init(path: String) throws { bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// STREAMINFO's fields.
    struct StreamInfo: Equatable {
        var minimumBlockSize: Int, maximumBlockSize: Int, minimumFrameSize: Int, maximumFrameSize: Int
        var sampleRate: Int, channelCount: Int, bitsPerSample: Int, totalFrames: Int
        var signature: [UInt8]
    }

    var streamInfo: StreamInfo {
        func value(_ offset: Int, _ count: Int) -> Int { (0..<count).reduce(0) { $0 << 8 | Int(bytes[offset + $1]) } }
        let packed = value(18, 8)
        return StreamInfo(minimumBlockSize: value(8, 2), maximumBlockSize: value(10, 2), minimumFrameSize: value(12, 3),
                          maximumFrameSize: value(15, 3), sampleRate: packed >> 44, channelCount: (packed >> 41 & 7) + 1,
                          bitsPerSample: (packed >> 36 & 31) + 1, totalFrames: packed & 0xF_FFFF_FFFF, signature: Array(bytes[26..<42]))
    }

    /// The bytes of `fLaC` and the metadata blocks: where the first frame starts.
    var metadataLength: Int {
        var offset = 4
        while true {
            let last = bytes[offset] & 0x80 != 0
            offset += 4 + (Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
            if last { return offset }
        }
    }

    /// The metadata blocks' types, in order.
    var metadataTypes: [Int] {
        var offset = 4, types: [Int] = []
        while true {
            types.append(Int(bytes[offset] & 0x7F))
            let last = bytes[offset] & 0x80 != 0
            offset += 4 + (Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
            if last { return types }
        }
    }

    /// One frame: its number, where it starts and its length in bytes.
    struct Frame: Equatable {
        var number: Int, offset: Int, length: Int
    }

    /// The frames, each found where the last ends: a fixed-block-size sync code whose header's
    /// CRC-8 holds and whose number is the next, ending where its CRC-16 holds at the next such
    /// header or the end of the file. Records an issue and stops where none is found.
    var frames: [Frame] {
        var frames: [Frame] = []
        var start = metadataLength
        while start < bytes.count {
            guard header(at: start, numbered: frames.count) else {
                Issue.record("no frame \(frames.count) header at byte \(start)")
                return frames
            }
            var end = start + 2
            while end < bytes.count, !(header(at: end, numbered: frames.count + 1) && Self.crc16(bytes[start..<end]) == 0) { end += 1 }
            guard end < bytes.count || Self.crc16(bytes[start..<end]) == 0 else {
                Issue.record("frame \(frames.count)'s CRC-16 fails")
                return frames
            }
            frames.append(Frame(number: frames.count, offset: start, length: end - start))
            start = end
        }
        return frames
    }

    /// Whether a fixed-block-size frame header numbered `number` with a right CRC-8 starts at `offset`.
    private func header(at offset: Int, numbered number: Int) -> Bool {
        guard offset + 6 <= bytes.count, bytes[offset] == 0xFF, bytes[offset + 1] == 0xF8 else { return false }
        let lead = bytes[offset + 4]
        let length = lead < 0x80 ? 1 : (~lead).leadingZeroBitCount
        guard length >= 1, length <= 6, offset + 4 + length + 5 <= bytes.count else { return false }
        var decoded = length == 1 ? Int(lead) : Int(lead) & (0x7F >> length)
        for index in 1..<max(1, length) { decoded = decoded << 6 | Int(bytes[offset + 4 + index] & 0x3F) }
        guard decoded == number else { return false }
        let blockCode = bytes[offset + 2] >> 4, rateCode = bytes[offset + 2] & 0x0F
        let extra = (blockCode == 6 ? 1 : blockCode == 7 ? 2 : 0) + (rateCode == 12 ? 1 : rateCode == 13 || rateCode == 14 ? 2 : 0)
        let headerEnd = offset + 4 + length + extra
        return Self.crc8(bytes[offset..<headerEnd]) == bytes[headerEnd]
    }

    static func crc8(_ bytes: ArraySlice<UInt8>) -> UInt8 {
        bytes.reduce(0) { crc, byte in
            var crc = crc ^ byte
            for _ in 0..<8 { crc = crc & 0x80 != 0 ? (crc << 1) ^ 0x07 : crc << 1 }
            return crc
        }
    }

    /// CRC-16 of `bytes`; 0 for a whole frame, whose last two bytes are its CRC-16.
    static func crc16(_ bytes: ArraySlice<UInt8>) -> UInt16 {
        bytes.reduce(0) { crc, byte in
            var crc = crc ^ UInt16(byte) << 8
            for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x8005 : crc << 1 }
            return crc
        }
    }
}

/// Runs `/usr/bin/TOOL` with `arguments`; its exit status and standard error.
func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, error: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/" + tool)
    process.arguments = arguments
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let error = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, error)
}
