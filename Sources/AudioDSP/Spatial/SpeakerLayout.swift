/// A horizontal loudspeaker layout aurender renders positioned sources to: which speaker each
/// output channel feeds and where it stands.
///
/// Channels are in WAV order (WAVEFORMATEXTENSIBLE's channel-mask order, which SMPTE, FFmpeg and
/// aurender's ITU downmix in `ChannelMatrix.standard` use): front left, front right, centre,
/// LFE, then the rear pair, then the side pair. Angles are ITU-R BS.775's: the fronts at ±30°,
/// the centre at 0°, 5.x surrounds at ±110°; quad at ±45° and ±135°. For 7.1, whose file order
/// is L R C LFE Lb Rb Ls Rs (back pair at channels 4 and 5, side pair at 6 and 7), the sides
/// stand at ±90° and the backs at ±150° (ITU-R BS.2051's 0+7+0 arrangement, and the angles
/// FFmpeg's `sofalizer` gives them), which spaces the seven speakers of the ring 30° or 60° apart.
/// Azimuths are in degrees, 0 ahead, positive to the right.
public enum SpeakerLayout: String, CaseIterable, Sendable {
    case stereo, quad
    case surround50 = "5.0"
    case surround51 = "5.1"
    case surround71 = "7.1"

    /// The number of output channels, LFE included.
    public var channelCount: Int { speakers.azimuths.count }

    /// The azimuth of each output channel's speaker in degrees, in the layout's channel order;
    /// nil for the LFE, which has no direction and takes no positioned source.
    public var speakerAzimuths: [Double?] { speakers.azimuths }

    /// The short name of each output channel's speaker, in channel order, for plans and messages:
    /// L, R, C, LFE, Ls, Rs (surround or side), Lb, Rb (back).
    public var speakerNames: [String] { speakers.names }

    /// The LFE's channel, if the layout has one.
    public var lfeChannel: Int? {
        switch self {
        case .stereo, .quad, .surround50: nil
        case .surround51, .surround71: 3
        }
    }

    /// A layout's speakers, made once, so reading their angles or names never allocates.
    private struct Speakers: Sendable {
        let names: [String], azimuths: [Double?]
        static let stereo = Speakers(names: ["L", "R"], azimuths: [-30, 30])
        static let quad = Speakers(names: ["L", "R", "Ls", "Rs"], azimuths: [-45, 45, -135, 135])
        static let surround50 = Speakers(names: ["L", "R", "C", "Ls", "Rs"], azimuths: [-30, 30, 0, -110, 110])
        static let surround51 = Speakers(names: ["L", "R", "C", "LFE", "Ls", "Rs"], azimuths: [-30, 30, 0, nil, -110, 110])
        static let surround71 = Speakers(names: ["L", "R", "C", "LFE", "Lb", "Rb", "Ls", "Rs"],
                                         azimuths: [-30, 30, 0, nil, -150, 150, -90, 90])
    }

    private var speakers: Speakers {
        switch self {
        case .stereo: .stereo
        case .quad: .quad
        case .surround50: .surround50
        case .surround51: .surround51
        case .surround71: .surround71
        }
    }

    /// The layout of this name: "stereo", "quad", "5.0", "5.1" or "7.1"; nil for any other.
    public static func named(_ name: String) -> SpeakerLayout? { SpeakerLayout(rawValue: name) }

    /// The standard layout of a file with `n` channels: 2 stereo, 4 quad, 5 5.0, 6 5.1, 8 7.1;
    /// nil for any other count (a mono file has no layout to place).
    public static func forChannelCount(_ n: Int) -> SpeakerLayout? {
        allCases.first { $0.channelCount == n }
    }
}
