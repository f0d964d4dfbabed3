#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AudioMetadata
import AudioNodes

/// Playing files back by the loudness gains their tags hold (`--replaygain track|album`), as
/// players do: the stored gain plus a preamp, lowered so the stored peak does not clip, applied
/// to each input as it is read. So a batch of a leveled library renders leveled.
public struct ReplayGainPlayback: Equatable, Sendable {
    /// Which gain to apply.
    public enum Mode: String, CaseIterable, Sendable {
        /// Each file at the reference loudness.
        case track
        /// Each album at the reference loudness, its tracks' levels kept relative to one another;
        /// a file with only a track gain gets that, and a warning.
        case album
    }

    public var mode: Mode
    /// Added to every stored gain, in dB.
    public var preamp: Double
    /// Whether the gain is lowered so the stored peak, raised by it, stays at or under full
    /// scale (players' "prevent clipping"); a gain stored without a peak cannot be.
    public var preventsClipping: Bool
    /// The gain in dB (the preamp not added) for a file that holds no stored gain; nil refuses such a file.
    public var fallback: Double?

    public init(mode: Mode, preamp: Double = 0, preventsClipping: Bool = true, fallback: Double? = nil) {
        self.mode = mode
        self.preamp = preamp
        self.preventsClipping = preventsClipping
        self.fallback = fallback
    }

    /// The gain to apply to the input at `path`, from its tags. A pipe has no tags to read; a
    /// file whose tags cannot be read, or that holds no gain, gets the fallback, or is refused without one.
    public func gain(for path: String) throws(RenderError) -> AppliedReplayGain {
        let tags: Tags?
        do { tags = try MetadataCarriage.metadata(of: path)?.tags } catch {
            return try fallbackGain(for: path, because: error.reason)
        }
        guard let tags else { return try fallbackGain(for: path, because: "the tags of a pipe or device are not read") }
        return try gain(for: path, tags: tags)
    }

    /// The gain to apply to the input at `path`, whose tags are `tags`.
    public func gain(for path: String, tags: Tags) throws(RenderError) -> AppliedReplayGain {
        guard let stored = StoredGain.read(from: tags, album: mode == .album) else {
            return try fallbackGain(for: path, because: "it holds no ReplayGain, R128 or Sound Check gain")
        }
        let wanted = stored.gain + preamp
        guard preventsClipping, let peak = stored.peak else {
            return AppliedReplayGain(path: path, stored: stored, gain: wanted, lowering: 0, mode: mode)
        }
        let highest = -20 * log10(peak)
        return AppliedReplayGain(path: path, stored: stored, gain: min(wanted, highest), lowering: max(0, wanted - highest), mode: mode)
    }

    /// The fallback gain for `path`, which has no stored gain `because`; refused without a fallback.
    private func fallbackGain(for path: String, because reason: String) throws(RenderError) -> AppliedReplayGain {
        guard let fallback else { throw .noStoredGain(path: path, reason: reason) }
        var applied = AppliedReplayGain(path: path, stored: nil, gain: fallback + preamp, lowering: 0, mode: mode)
        applied.fallbackReason = reason
        return applied
    }
}

/// The gain `--replaygain` applied to one input, and where it came from.
public struct AppliedReplayGain: Equatable, Sendable {
    /// The input, as the user named it.
    public var path: String
    /// The gain its tags hold; nil when the fallback was applied.
    public var stored: StoredGain?
    /// The gain applied, in dB: the stored one (or the fallback) plus the preamp, less `lowering`.
    public var gain: Double
    /// How far the gain was lowered to keep the stored peak from clipping, in dB.
    public var lowering: Double
    /// The mode asked for.
    public var mode: ReplayGainPlayback.Mode
    /// Why the fallback was applied (`it holds no ReplayGain, R128 or Sound Check gain`); nil when a stored gain was.
    public var fallbackReason: String?

    /// Whether an album gain was asked for and the file had only a track gain.
    public var fellBackToTrack: Bool { mode == .album && stored.map { !$0.source.isAlbum } == true }

    /// What a user should hear of: the fallback gain applied, or a track gain for an album's.
    public var warning: String? {
        guard let stored else { return "\(path): no gain to play back by: \(fallbackReason ?? ""); played back at the fallback gain \(Self.decibels(gain))" }
        guard fellBackToTrack else { return nil }
        return "\(path): no album gain; played back by its track gain (\(stored.source.rawValue))"
    }

    /// `album gain -2.98 dB (REPLAYGAIN_ALBUM_GAIN), applied -3.50 dB, lowered 0.52 dB for its peak 1.061`:
    /// what was applied and why, for plans.
    public var explanation: String {
        var text: String
        if let stored {
            text = "\(stored.source.isAlbum ? "album" : "track") gain \(Self.decibels(stored.gain)) (\(stored.source.rawValue)"
                + (stored.source == .replayGainTrack || stored.source == .replayGainAlbum ? ")" : ", at -18 LUFS)")
        } else {
            text = "no stored gain, the fallback"
        }
        text += ", applied \(Self.decibels(gain))"
        if lowering > 0, let peak = stored?.peak { text += ", lowered \(Self.decibels(lowering)) for its peak \(LevelingGains.text(peak, decimals: 3))" }
        return text
    }

    /// `replaygain: in.flac: ` and the explanation, for `--verbose`.
    public var note: String { "replaygain: \(path): " + explanation }

    /// The node that applies the gain, called `name`, its explanation shown in plans.
    func makeNode(name: String) -> GainNode { GainNode(name: name, decibels: gain, purpose: "ReplayGain: " + explanation) }

    /// `-2.98 dB`.
    static func decibels(_ value: Double) -> String { LevelingGains.text(value, decimals: 2) + " dB" }
}
