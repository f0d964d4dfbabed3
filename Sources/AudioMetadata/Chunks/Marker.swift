/// A marker: a point in the audio or, with a length, a region, with its label and note, as a
/// WAV `cue ` point with its `LIST adtl` texts, or an AIFF `MARK` marker, holds it.
public struct Marker: Equatable, Sendable {
    /// Where it is, in frames from the file's first frame.
    public var frame: Int64
    /// A region's length in frames; 0 for a point.
    public var length: Int64
    /// Its label (`labl`, or an AIFF marker's name).
    public var label: String
    /// Its note (`note`), or a region's text (`ltxt`).
    public var note: String

    /// A point at `frame`, or a region of `length` frames from it.
    public init(frame: Int64, length: Int64 = 0, label: String = "", note: String = "") {
        self.frame = frame
        self.length = length
        self.label = label
        self.note = note
    }

    /// Whether it is a region rather than a point.
    public var isRegion: Bool { length > 0 }
}
