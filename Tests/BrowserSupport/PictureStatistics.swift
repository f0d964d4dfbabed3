/// What a test asserts on to tell a drawn picture from a blank one: how much of it differs from
/// the background (the top-left corner's colour), how many colours it has, and where its content is.
extension Picture {
    /// The colour of the top-left corner, taken as the page's background.
    public var background: Colour { pixels[0] }

    /// The fraction of pixels, 0 to 1, with a channel more than `tolerance` away from the background.
    public func fractionDifferingFromBackground(tolerance: Int = 0) -> Double {
        let background = background
        let differing = pixels.count { !$0.isClose(to: background, tolerance: tolerance) }
        return Double(differing) / Double(pixels.count)
    }

    /// Whether every pixel has the background's colour.
    public var isBlank: Bool { pixels.allSatisfy { $0 == background } }

    /// How many different colours the picture has.
    public var distinctColourCount: Int { Set(pixels).count }

    /// The smallest rectangle holding every pixel more than `tolerance` away from the background,
    /// or nil when there is none.
    public func contentBounds(tolerance: Int = 0) -> PixelRectangle? {
        let background = background
        var left = width, right = -1, top = height, bottom = -1
        for y in 0..<height {
            for x in 0..<width where !self[x, y].isClose(to: background, tolerance: tolerance) {
                left = min(left, x)
                right = max(right, x)
                top = min(top, y)
                bottom = max(bottom, y)
            }
        }
        guard right >= 0 else { return nil }
        return PixelRectangle(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
    }
}

/// A rectangle of pixels: its top-left corner and its size.
public struct PixelRectangle: Equatable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var description: String { "\(width) × \(height) at (\(x), \(y))" }
}
