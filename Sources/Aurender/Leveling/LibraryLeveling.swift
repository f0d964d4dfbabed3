import AudioFormats
import AudioMetadata
import Dispatch
import SignalAnalysis
import Synchronization

/// `aurender loudness`: measures a library's tracks and albums (integrated loudness, loudness
/// range, true peak) and reports them, or writes the gains into each file as its container
/// keeps them (`LevelingTags`), or removes those tags.
///
/// Tracks are measured `jobs` at a time with `ProgrammeLoudness`; an album's figures come from
/// its tracks' gated blocks merged, so nothing is decoded twice. Files are then rewritten
/// `jobs` at a time, each atomically (`TagRewrite`).
public struct LibraryLeveling: Sendable {
    /// How tracks are gathered into albums.
    public enum AlbumGrouping: String, Sendable, CaseIterable {
        /// The files of one folder are one album.
        case folder
        /// Files with the same `ALBUM` (and `ALBUMARTIST`) tag are one album, wherever they lie;
        /// a file without an album tag is an album of its own.
        case tag
    }

    /// What is done with the figures.
    public enum Action: Sendable {
        /// Measure and report; no file is written.
        case report
        /// Measure, and write the gains.
        case write
        /// Remove the gain tags (nothing is measured).
        case remove
    }

    public var albums: AlbumGrouping
    public var action: Action
    /// The highest true peak the written gains may bring a track to, dBTP; nil writes the
    /// measured gains as they are.
    public var maxTruePeak: Double?
    public var jobs: Int

    public init(albums: AlbumGrouping = .folder, action: Action = .report, maxTruePeak: Double? = nil, jobs: Int = 1) {
        self.albums = albums
        self.action = action
        self.maxTruePeak = maxTruePeak
        self.jobs = max(1, jobs)
    }

    /// One track's figures and what was written.
    public struct Track: Sendable {
        public let path: String
        /// The container and encoding, for the report (`FLAC`, `MP3`).
        public let container: String
        /// The album it was measured with (its folder, or its album tag).
        public var album: String
        /// Integrated loudness, LUFS; nil when no block reaches −70 LUFS.
        public let integrated: Double?
        /// Loudness range, LU.
        public let range: Double
        /// True peak, linear; 0 for silence.
        public let truePeak: Double
        /// The ReplayGain 2.0 track gain (−18 LUFS reference, `maxTruePeak` applied), dB.
        public var trackGain: Double?
        /// The album's ReplayGain 2.0 gain and true peak.
        public var albumGain: Double?
        public var albumPeak: Double?
        /// The tag fields written or removed, with their values (nil: removed).
        public var fields: [(name: String, value: String?)] = []
        let blocks: GatedBlocks?
        let tagFormat: TagFormat?
    }

    /// One album's figures.
    public struct Album: Sendable {
        public let name: String
        public let trackCount: Int
        public let integrated: Double?
        public let range: Double
        public let truePeak: Double
        public let gain: Double?
    }

    /// What a run did.
    public struct Outcome: Sendable {
        public var tracks: [Track] = []
        public var albums: [Album] = []
        /// The files that failed, each named with why.
        public var failures: [LevelingFailure] = []
        /// The files of named folders passed over as not audio.
        public var passedOver: [String] = []
    }

    /// Levels `files`.
    public func run(_ files: LibraryFiles) -> Outcome {
        var outcome = Outcome(failures: files.failures, passedOver: files.passedOver)
        if action == .remove {
            let removed = Self.parallel(files.files, jobs: jobs) { path throws(LevelingFailure) in try Self.remove(path) }
            for result in removed {
                switch result {
                case .success(let track): outcome.tracks.append(track)
                case .failure(let failure): outcome.failures.append(failure)
                }
            }
            return outcome
        }
        let measured = Self.parallel(files.files, jobs: jobs) { path throws(LevelingFailure) in try measure(path) }
        var tracks: [Track] = []
        for result in measured {
            switch result {
            case .success(let track): tracks.append(track)
            case .failure(let failure): outcome.failures.append(failure)
            }
        }
        outcome.albums = gainAlbums(&tracks)
        if action == .write {
            // A track whose file is not written keeps its row, without fields.
            let written = Self.parallel(tracks, jobs: jobs) { track throws(LevelingFailure) in try Self.write(track) }
            for (index, result) in written.enumerated() {
                switch result {
                case .success(let track): tracks[index] = track
                case .failure(let failure): outcome.failures.append(failure)
                }
            }
        }
        outcome.tracks = tracks
        return outcome
    }

    /// Frames read at a time.
    static let blockFrames = 16384

    /// Measures the file at `path`.
    func measure(_ path: String) throws(LevelingFailure) -> Track {
        let decoder: any AudioDecoder
        do { decoder = try FormatRegistry.standard.openDecoder(path: path) } catch { throw LevelingFailure(error) }
        defer { decoder.close() }
        let channels = decoder.format.channelCount
        let meter = ProgrammeLoudness(channelCount: channels, sampleRate: decoder.format.sampleRate)
        var block = [Float](repeating: 0, count: Self.blockFrames * channels)
        do {
            try block.withUnsafeMutableBufferPointer { (block) throws(AudioFormatError) in
                while true {
                    let frames = try decoder.read(into: block.baseAddress!, frames: Self.blockFrames)
                    meter.add(interleaved: block.baseAddress!, frames: frames)
                    if frames < Self.blockFrames { break }
                }
            }
        } catch {
            throw LevelingFailure(error)
        }
        let blocks = meter.blocks
        let format = MetadataCarriage.tagFormat(for: decoder.container, encoding: decoder.encoding)
        return Track(path: path, container: format?.name ?? "\(decoder.container.name) (\(decoder.encoding.name))",
                     album: try albumName(of: path), integrated: blocks.integrated, range: blocks.range, truePeak: meter.truePeak,
                     blocks: blocks, tagFormat: format)
    }

    /// The album `path` belongs to: its folder, or its album tags.
    func albumName(of path: String) throws(LevelingFailure) -> String {
        switch albums {
        case .folder:
            return path.lastIndex(of: "/").map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        case .tag:
            let tags: Tags
            do { tags = try MetadataFile.read(path: path).tags } catch {
                throw LevelingFailure(path: path, kind: .invalid, reason: error.reason)
            }
            guard let album = tags["ALBUM"].first else { return path }
            return (tags["ALBUMARTIST"].first.map { $0 + " – " } ?? "") + album
        }
    }

    /// Gathers `tracks` into albums, in the order their first tracks come, and sets each track's gains.
    func gainAlbums(_ tracks: inout [Track]) -> [Album] {
        var order: [String] = [], members: [String: [Int]] = [:]
        for (index, track) in tracks.enumerated() {
            if members[track.album] == nil { order.append(track.album) }
            members[track.album, default: []].append(index)
        }
        var albums: [Album] = []
        for name in order {
            let indices = members[name]!
            let blocks = GatedBlocks.merged(indices.compactMap { tracks[$0].blocks })
            let peak = indices.map { tracks[$0].truePeak }.max() ?? 0
            let integrated = blocks.integrated
            let gain = integrated.map { LevelingGains.gain(loudness: $0, reference: LevelingGains.replayGainReference, peak: peak, maxTruePeak: maxTruePeak) }
            albums.append(Album(name: name, trackCount: indices.count, integrated: integrated, range: blocks.range, truePeak: peak, gain: gain))
            for index in indices {
                tracks[index].trackGain = tracks[index].integrated.map {
                    LevelingGains.gain(loudness: $0, reference: LevelingGains.replayGainReference, peak: tracks[index].truePeak, maxTruePeak: maxTruePeak)
                }
                tracks[index].albumGain = gain
                tracks[index].albumPeak = peak
            }
        }
        return albums
    }

    /// Writes `track`'s gains into its file.
    static func write(_ track: Track) throws(LevelingFailure) -> Track {
        guard let format = track.tagFormat else {
            throw LevelingFailure(path: track.path, kind: .unsupported, reason: "\(track.container) holds no loudness tags aurender writes "
                                  + "(it writes them to FLAC, MP3, MP4, Ogg Vorbis, Ogg Opus, WAV and AIFF); tags not written")
        }
        guard let trackGain = track.trackGain, let albumGain = track.albumGain, let integrated = track.integrated else {
            throw LevelingFailure(path: track.path, kind: .invalid, reason: "no 400 ms block reaches -70 LUFS, so there is no gain to write; tags not written")
        }
        var written = track
        written.fields = LevelingTags.fields(for: format, trackGain: trackGain, trackPeak: track.truePeak, albumGain: albumGain,
                                             albumPeak: track.albumPeak ?? track.truePeak, integrated: integrated)
        try TagRewrite.set(written.fields, in: track.path, as: format)
        return written
    }

    /// Removes the gain tags from the file at `path`.
    static func remove(_ path: String) throws(LevelingFailure) -> Track {
        let decoder: any AudioDecoder
        do { decoder = try FormatRegistry.standard.openDecoder(path: path) } catch { throw LevelingFailure(error) }
        let (container, encoding) = (decoder.container, decoder.encoding)
        decoder.close()
        guard let format = MetadataCarriage.tagFormat(for: container, encoding: encoding) else {
            throw LevelingFailure(path: path, kind: .unsupported, reason: "\(container.name) (\(encoding.name)) holds no loudness tags aurender writes; nothing removed")
        }
        var track = Track(path: path, container: format.name, album: "", integrated: nil, range: 0, truePeak: 0, blocks: nil, tagFormat: format)
        track.fields = LevelingTags.removals(for: format)
        try TagRewrite.set(track.fields, in: path, as: format)
        return track
    }

    /// `body` of each of `items`, `jobs` at a time, in the items' order.
    static func parallel<Item: Sendable, Value: Sendable>(_ items: [Item], jobs: Int,
                                                          _ body: @escaping @Sendable (Item) throws(LevelingFailure) -> Value) -> [Result<Value, LevelingFailure>] {
        let next = Atomic(0), results = Mutex([Result<Value, LevelingFailure>?](repeating: nil, count: items.count))
        let group = DispatchGroup()
        let queue = DispatchQueue(label: "aurender.loudness", attributes: .concurrent)
        for _ in 0..<min(jobs, items.count) {
            queue.async(group: group) {
                while case let index = next.wrappingAdd(1, ordering: .relaxed).oldValue, index < items.count {
                    let result = Result { () throws(LevelingFailure) in try body(items[index]) }
                    results.withLock { $0[index] = result }
                }
            }
        }
        group.wait()
        return results.withLock { $0.compactMap { $0 } }
    }
}
