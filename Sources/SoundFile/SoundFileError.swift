import AudioFormats

/// A sound file could not be opened, read or written; the message names the file.
///
/// libsndfile's errors are AudioFormats' own, so the registry passes them on unchanged.
public typealias SoundFileError = AudioFormatError
