import CZlib

/// zlib's inflate and CRC-32, what the PNG decoder needs; the only file that calls zlib.
enum Zlib {
    /// The bytes of the zlib stream (RFC 1950) `compressed`, which must hold exactly `size` bytes.
    static func inflate(_ compressed: [UInt8], size: Int) throws(PNGDecoder.Error) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: size)
        var stream = z_stream()
        guard inflateInit_(&stream, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corrupt("zlib could not start inflating")
        }
        defer { inflateEnd(&stream) }
        let status = compressed.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END, Int(stream.total_out) == size else {
            let reason = stream.msg.map { String(cString: $0) } ?? "zlib status \(status)"
            throw .corrupt("the image data does not inflate to \(size) bytes (\(reason))")
        }
        return output
    }

    /// The CRC-32 of `bytes`, as PNG's chunks carry it.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(CZlib.crc32(0, $0.baseAddress, uInt($0.count))) }
    }
}
