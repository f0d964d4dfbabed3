import FoundationEssentials

/// A picture a file carries (cover art and the like): its ID3v2/FLAC type, MIME type, description and bytes.
public struct Picture: Equatable, Sendable {
    /// What a picture shows, numbered as ID3v2's `APIC` and FLAC's `PICTURE` number it (0 to 20).
    public struct Kind: Equatable, Hashable, Sendable, CustomStringConvertible {
        /// The number, 0 to 20 for the kinds ID3v2 defines.
        public let number: Int

        /// The kind numbered `number`.
        public init(_ number: Int) { self.number = number }

        /// The other picture kind (0).
        public static let other = Kind(0)
        /// The front cover (3), what players show.
        public static let frontCover = Kind(3)

        /// ID3v2's names of the kinds, by number.
        private static let names = ["other", "file icon", "other file icon", "front cover", "back cover", "leaflet page", "media",
                                    "lead artist", "artist", "conductor", "band", "composer", "lyricist", "recording location",
                                    "during recording", "during performance", "movie screen capture", "coloured fish",
                                    "illustration", "band logotype", "publisher logotype"]

        /// ID3v2's name: `front cover`, `back cover`, `artist`; `type N` past the defined ones.
        public var description: String { Self.names.indices.contains(number) ? Self.names[number] : "type \(number)" }
    }

    /// What the picture shows.
    public var kind: Kind
    /// The MIME type (`image/jpeg`, `image/png`), empty when the file does not say.
    public var mimeType: String
    /// The description, often empty.
    public var description: String
    /// The picture's bytes. Read from a file, they are the buffer TagLib read them into, shared
    /// rather than copied, and written out from there: a 20 MB cover is held once, not once for
    /// each step between the input and the output.
    public var data: Data
    /// What FLAC's `PICTURE` block states of the image (ID3v2 and MP4 state nothing): kept from
    /// FLAC and Ogg inputs into FLAC and Ogg outputs.
    public var dimensions: Dimensions

    /// The image's size and colours as a FLAC `PICTURE` block states them; all 0 where not stated.
    public struct Dimensions: Equatable, Sendable {
        public var width, height, colourDepth, colourCount: Int

        /// Width and height in pixels, bits per pixel, and the palette's size (0 for none).
        public init(width: Int = 0, height: Int = 0, colourDepth: Int = 0, colourCount: Int = 0) {
            self.width = width
            self.height = height
            self.colourDepth = colourDepth
            self.colourCount = colourCount
        }
    }

    /// A picture of `kind` with these bytes.
    public init(kind: Kind, mimeType: String, description: String = "", data: Data, dimensions: Dimensions = Dimensions()) {
        self.kind = kind
        self.mimeType = mimeType
        self.description = description
        self.data = data
        self.dimensions = dimensions
    }

    /// Whether `other` is this picture but perhaps for the dimensions, which only FLAC's blocks state.
    func isSame(as other: Picture, but dimensions: Bool) -> Bool {
        kind == other.kind && mimeType == other.mimeType && description == other.description && data == other.data
            && (!dimensions || self.dimensions == other.dimensions)
    }
}
