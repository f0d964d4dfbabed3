import AudioGraph
import FourierTransforms

/// Which channel of an impulse response joins which input channel to which output channel:
/// the layouts a convolution takes, chosen by the two channel counts.
///
/// A mono response is used for every channel; a response with as many channels as the input
/// convolves each channel with its own; a four-channel response on a stereo input is *true
/// stereo*, each input channel feeding both outputs (channels left→left, left→right,
/// right→left, right→right, the order convolution reverbs store them in). The output has the
/// input's channels.
public struct ConvolutionRouting: Sendable, Equatable {
    /// The layouts.
    public enum Layout: Sendable, Equatable {
        /// One response for every channel.
        case shared
        /// Channel n through the response's channel n.
        case perChannel
        /// Stereo through four responses: LL, LR, RL, RR.
        case trueStereo
    }

    /// The layout chosen.
    public let layout: Layout
    /// Channels in, and out.
    public let channelCount: Int
    /// The routes, each naming a channel of the response.
    public let routes: [ConvolutionRoute]

    /// Output channels (the input's).
    public var outputCount: Int { channelCount }

    /// The routing of a `responseChannels`-channel response over `inputChannels` channels; nil
    /// when the counts fit no layout (`problem` says why).
    public init?(responseChannels: Int, inputChannels: Int) {
        channelCount = inputChannels
        switch (responseChannels, inputChannels) {
        case (1, _):
            layout = .shared
            routes = (0..<inputChannels).map { ConvolutionRoute(input: $0, output: $0, response: 0) }
        case (4, 2):
            layout = .trueStereo
            routes = [ConvolutionRoute(input: 0, output: 0, response: 0), ConvolutionRoute(input: 0, output: 1, response: 1),
                      ConvolutionRoute(input: 1, output: 0, response: 2), ConvolutionRoute(input: 1, output: 1, response: 3)]
        case (let response, let input) where response == input:
            layout = .perChannel
            routes = (0..<input).map { ConvolutionRoute(input: $0, output: $0, response: $0) }
        default:
            return nil
        }
    }

    /// Why the `responseChannels`-channel response in `path` does not fit `inputChannels` channels.
    public static func problem(path: String, responseChannels: Int, inputChannels: Int) -> String {
        "impulse response \(path) has \(responseChannels) channels, which fit a \(responseChannels)-channel input"
            + (responseChannels == 4 ? " or, as true stereo, a 2-channel one" : "")
            + ", not \(inputChannels) channel\(inputChannels == 1 ? "" : "s"); convert the input's channels first, or use a mono response"
    }

    /// The layout in words, for plans: "one response for both channels", "true stereo (LL, LR, RL, RR)".
    public var summary: String {
        switch layout {
        case .shared: channelCount == 1 ? "mono" : "one response for \(channelCount == 2 ? "both" : "all \(channelCount)") channels"
        case .perChannel: "channel by channel"
        case .trueStereo: "true stereo (LL, LR, RL, RR)"
        }
    }
}
