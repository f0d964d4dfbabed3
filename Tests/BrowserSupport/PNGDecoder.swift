/// Decodes the PNGs a browser's screenshots are: 8 bits a channel, RGB or RGBA, not interlaced,
/// each row with any of the five filters. Chunks' CRCs are checked; ancillary chunks are skipped.
public enum PNGDecoder {
    /// Why a file could not be decoded.
    public enum Error: Swift.Error, CustomStringConvertible {
        case notPNG
        case unsupported(String)
        case corrupt(String)

        public var description: String {
            switch self {
            case .notPNG: "not a PNG file (no PNG signature)"
            case .unsupported(let what): "a PNG this decoder does not read: \(what)"
            case .corrupt(let what): "a damaged PNG: \(what)"
            }
        }
    }

    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The pixels of the PNG file `bytes`.
    public static func decode(_ bytes: [UInt8]) throws(Error) -> Picture {
        guard bytes.starts(with: signature) else { throw .notPNG }
        var header: (width: Int, height: Int, channels: Int)?
        var compressed: [UInt8] = []
        var offset = signature.count
        while true {
            guard offset + 12 <= bytes.count else { throw .corrupt("it ends before its IEND chunk") }
            let length = Int(bigEndian(bytes[...], at: offset))
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let dataStart = offset + 8, dataEnd = dataStart + length
            guard length <= bytes.count - 12 - offset else { throw .corrupt("its \(type) chunk runs past the end") }
            guard Zlib.crc32(bytes[offset + 4..<dataEnd]) == bigEndian(bytes[...], at: dataEnd) else {
                throw .corrupt("its \(type) chunk's CRC does not match")
            }
            let data = bytes[dataStart..<dataEnd]
            offset = dataEnd + 4
            switch type {
            case "IHDR": header = try imageHeader(data)
            case "IDAT": compressed += data
            case "IEND":
                guard let header else { throw .corrupt("it has no IHDR chunk") }
                return try pixels(compressed, width: header.width, height: header.height, channels: header.channels)
            default:
                guard type.first?.isLowercase == true else { throw .unsupported("the critical chunk \(type)") }
            }
        }
    }

    /// The size and channel count an IHDR chunk gives, refusing what this decoder does not read.
    private static func imageHeader(_ data: ArraySlice<UInt8>) throws(Error) -> (width: Int, height: Int, channels: Int) {
        guard data.count == 13 else { throw .corrupt("its IHDR chunk is \(data.count) bytes long, not 13") }
        let start = data.startIndex
        let width = Int(bigEndian(data, at: start)), height = Int(bigEndian(data, at: start + 4))
        let depth = data[start + 8], colourType = data[start + 9], interlace = data[start + 12]
        guard width > 0, height > 0 else { throw .corrupt("it is \(width) × \(height) pixels") }
        guard depth == 8 else { throw .unsupported("bit depth \(depth)") }
        guard interlace == 0 else { throw .unsupported("interlacing") }
        switch colourType {
        case 2: return (width, height, 3)
        case 6: return (width, height, 4)
        default: throw .unsupported("colour type \(colourType)")
        }
    }

    /// The picture in the zlib stream `compressed`: each row a filter byte, then the row's bytes
    /// filtered against the bytes to their left and above.
    private static func pixels(_ compressed: [UInt8], width: Int, height: Int, channels: Int) throws(Error) -> Picture {
        let stride = width * channels
        let filtered = try Zlib.inflate(compressed, size: height * (stride + 1))
        var rows = [UInt8](repeating: 0, count: height * stride)
        for y in 0..<height {
            let filter = filtered[y * (stride + 1)]
            for i in 0..<stride {
                let value = filtered[y * (stride + 1) + 1 + i]
                let left = i >= channels ? Int(rows[y * stride + i - channels]) : 0
                let above = y > 0 ? Int(rows[(y - 1) * stride + i]) : 0
                let aboveLeft = y > 0 && i >= channels ? Int(rows[(y - 1) * stride + i - channels]) : 0
                let prediction: Int
                switch filter {
                case 0: prediction = 0
                case 1: prediction = left
                case 2: prediction = above
                case 3: prediction = (left + above) / 2
                case 4: prediction = paeth(left, above, aboveLeft)
                default: throw .corrupt("row \(y) has the unknown filter \(filter)")
                }
                rows[y * stride + i] = value &+ UInt8(truncatingIfNeeded: prediction)
            }
        }
        let colours = (0..<width * height).map { pixel in
            let at = pixel * channels
            return Colour(red: rows[at], green: rows[at + 1], blue: rows[at + 2], alpha: channels == 4 ? rows[at + 3] : 255)
        }
        return Picture(width: width, height: height, pixels: colours)
    }

    /// The Paeth predictor: whichever of left, above and above-left is nearest their gradient.
    private static func paeth(_ left: Int, _ above: Int, _ aboveLeft: Int) -> Int {
        let estimate = left + above - aboveLeft
        let toLeft = abs(estimate - left), toAbove = abs(estimate - above), toAboveLeft = abs(estimate - aboveLeft)
        if toLeft <= toAbove && toLeft <= toAboveLeft { return left }
        return toAbove <= toAboveLeft ? above : aboveLeft
    }

    /// The big-endian 32-bit number at `index`.
    private static func bigEndian(_ bytes: ArraySlice<UInt8>, at index: Int) -> UInt32 {
        bytes[index..<index + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
