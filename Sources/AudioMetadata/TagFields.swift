/// Writes or removes single tag fields in a file, leaving its other tags as they are: what
/// `aurender loudness --write` and `--remove` change (ReplayGain, R128, Sound Check).
///
/// `MetadataFile.write` replaces a render's whole tag set; a user's library file keeps
/// everything it had but the fields named, so this sets fields one by one in place.
public enum TagFields {
    /// Sound Check's field name (`iTunNORM`: an ID3v2 `COMM` frame in MP3, a freeform atom in MP4).
    public static let soundCheck = "ITUNNORM"

    /// Sets each of `fields` (a nil value removes the field) in the file open for reading and
    /// writing on `descriptor` (it stays open), where `format` keeps such a field: a Vorbis
    /// comment, an ID3v2 `TXXX` frame (and an MP3's APEv2 item when it has that tag), an MP4
    /// freeform `----:com.apple.iTunes:` atom. `path` names the file in errors.
    public static func set(_ fields: [(name: String, value: String?)], descriptor: Int32, as format: TagFormat,
                           path: String) throws(MetadataError) {
        try TagLibFile.setFields(fields, descriptor: descriptor, format: format, path: path)
    }
}
