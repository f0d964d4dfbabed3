/// A decoded image: `width` × `height` pixels, row by row from the top left.
public struct Picture: Sendable {
    public let width: Int
    public let height: Int
    public let pixels: [Colour]

    public init(width: Int, height: Int, pixels: [Colour]) {
        precondition(pixels.count == width * height, "\(pixels.count) pixels for \(width) × \(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixel in column `x`, row `y` (0, 0 is the top left).
    public subscript(x: Int, y: Int) -> Colour { pixels[y * width + x] }
}

/// One pixel's colour, 8 bits a channel; `alpha` 255 is opaque.
public struct Colour: Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Whether no channel differs from `other`'s by more than `tolerance`.
    public func isClose(to other: Colour, tolerance: Int) -> Bool {
        abs(Int(red) - Int(other.red)) <= tolerance && abs(Int(green) - Int(other.green)) <= tolerance
            && abs(Int(blue) - Int(other.blue)) <= tolerance && abs(Int(alpha) - Int(other.alpha)) <= tolerance
    }

    public var description: String {
        "rgba(\(red), \(green), \(blue), \(alpha))"
    }
}
