import CFLAC

/// Receives the frames a `LibFLAC.StreamEncoder` writes, each whole, in order.
protocol FLACFrameSink: AnyObject {
    /// One frame's bytes as libFLAC wrote them (its header numbers it within its own stream)
    /// and the samples per channel it holds.
    func receive(frame: UnsafeRawBufferPointer, samples: Int)
}

/// Every libFLAC call aurender makes: a thin, typed wrapper over its stream encoder, and its
/// level-0 metadata reader for a file's cue sheet.
///
/// libFLAC 1.4 encodes on the calling thread only; `ParallelFLACEncoder` runs one encoder per
/// chunk of a stream on worker threads, each encoder an object of its own (libFLAC keeps no
/// global state between them).
enum LibFLAC {
    /// The vendor string libFLAC writes in a stream's VORBIS_COMMENT block (`reference libFLAC 1.4.2 20221022`).
    static let vendorString = Array(String(cString: aurender_flac_vendor_string()).utf8)

    /// The settings of one stream: what libsndfile sets, with its default compression level.
    struct Settings: Sendable, Equatable {
        var channelCount: Int
        var bitsPerSample: Int
        var sampleRate: Int
        /// libFLAC's compression level, 0 (fastest) to 8 (smallest); 5 is `flac`'s and libsndfile's default.
        var level: Int
    }

    /// The `CUESHEET` block of the FLAC file at `path`, read by libFLAC's level-0 metadata API;
    /// nil when the file has none, is no FLAC or cannot be read.
    static func cueSheet(path: String) -> FLACCueSheet? {
        var block: UnsafeMutablePointer<FLAC__StreamMetadata>?
        guard FLAC__metadata_get_cuesheet(path, &block) != 0, let block else { return nil }
        defer { FLAC__metadata_object_delete(block) }
        let sheet = block.pointee.data.cue_sheet
        let tracks = UnsafeBufferPointer(start: sheet.tracks, count: Int(sheet.num_tracks)).map { track in
            FLACCueSheet.Track(offset: track.offset, number: Int(track.number), isrc: withUnsafeBytes(of: track.isrc) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }, indices: UnsafeBufferPointer(start: track.indices, count: Int(track.num_indices)).map {
                FLACCueSheet.Index(offset: $0.offset, number: Int($0.number))
            })
        }
        return FLACCueSheet(tracks: tracks)
    }

    /// A libFLAC stream encoder writing its frames to a `FLACFrameSink` (its metadata is dropped:
    /// the stream's header is written once, by the caller).
    final class StreamEncoder {
        private let encoder: UnsafeMutablePointer<FLAC__StreamEncoder>

        /// An encoder of `settings` started, giving its frames to `sink` (which it does not
        /// retain); libFLAC's reason when it refuses them.
        init(_ settings: Settings, sink: FLACFrameSink) throws(FLACEncodingError) {
            guard let encoder = FLAC__stream_encoder_new() else { throw FLACEncodingError(reason: "libFLAC could not allocate an encoder") }
            self.encoder = encoder
            guard FLAC__stream_encoder_set_channels(encoder, UInt32(settings.channelCount)) != 0,
                  FLAC__stream_encoder_set_bits_per_sample(encoder, UInt32(settings.bitsPerSample)) != 0,
                  FLAC__stream_encoder_set_sample_rate(encoder, UInt32(settings.sampleRate)) != 0,
                  FLAC__stream_encoder_set_compression_level(encoder, UInt32(settings.level)) != 0,
                  FLAC__stream_encoder_set_do_md5(encoder, 0) != 0 else {
                throw FLACEncodingError(reason: "libFLAC refused the settings")
            }
            let status = FLAC__stream_encoder_init_stream(encoder, { _, buffer, bytes, samples, _, context in
                // Metadata comes with no samples: the caller writes the stream's own.
                if samples > 0, let buffer, let context {
                    let sink = Unmanaged<AnyObject>.fromOpaque(context).takeUnretainedValue() as! FLACFrameSink
                    sink.receive(frame: UnsafeRawBufferPointer(start: buffer, count: bytes), samples: Int(samples))
                }
                return FLAC__STREAM_ENCODER_WRITE_STATUS_OK
            }, nil, nil, nil, Unmanaged.passUnretained(sink as AnyObject).toOpaque())
            guard status == FLAC__STREAM_ENCODER_INIT_STATUS_OK else {
                if status == FLAC__STREAM_ENCODER_INIT_STATUS_ENCODER_ERROR { throw stateError }
                throw FLACEncodingError(reason: "libFLAC: " + String(cString: aurender_flac_init_status_string(status)))
            }
        }

        deinit { FLAC__stream_encoder_delete(encoder) }

        /// The samples per channel in each frame but the last (4,096 at level 5).
        var blockSize: Int { Int(FLAC__stream_encoder_get_blocksize(encoder)) }

        /// Encodes `frames` interleaved frames of right-justified samples; the sink gets each
        /// frame as it is made.
        func encode(_ samples: UnsafePointer<Int32>, frames: Int) throws(FLACEncodingError) {
            guard FLAC__stream_encoder_process_interleaved(encoder, samples, UInt32(frames)) != 0 else { throw stateError }
        }

        /// Encodes what is left (the last, partial frame) and ends the stream.
        func finish() throws(FLACEncodingError) {
            guard FLAC__stream_encoder_finish(encoder) != 0 else { throw stateError }
        }

        private var stateError: FLACEncodingError {
            FLACEncodingError(reason: "libFLAC: " + String(cString: aurender_flac_state_string(FLAC__stream_encoder_get_state(encoder))))
        }
    }
}

/// libFLAC refused to encode, in its words.
struct FLACEncodingError: Error, Sendable {
    let reason: String
}
