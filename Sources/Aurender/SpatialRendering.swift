import AudioDSP
import AudioGraph
import AudioNodes
import SpatialAudio

/// How a render or a mix places its sources in space, when it does: binaurally through a SOFA
/// file's HRTFs, or to a speaker layout.
///
/// Why a job option rather than a node the command makes: a mix replaces its mixer with the
/// spatial node, so the job must know; a render appends the node after its effects.
public struct SpatialRendering: Sendable, Equatable {
    /// Binaural or speakers (`pan` is for graph files).
    public var rendering: SpatialNode.Rendering
    /// The layout, for speakers.
    public var layout: SpeakerLayout?
    /// The SOFA file, for binaural; Debian's MIT KEMAR set when nil.
    public var sofa: String?

    /// Binaural rendering through `sofa` (the default set when nil).
    public static func binaural(sofa: String? = nil) -> SpatialRendering {
        SpatialRendering(rendering: .binaural, layout: nil, sofa: sofa)
    }

    /// Rendering to `layout`'s speakers.
    public static func speakers(_ layout: SpeakerLayout) -> SpatialRendering {
        SpatialRendering(rendering: .speakers, layout: layout, sofa: nil)
    }

    /// The output's channel count: two, or the layout's.
    public var channelCount: Int { rendering == .speakers ? (layout ?? .stereo).channelCount : 2 }

    /// The `spatial` stage a render ends its chain with: one bus, placed ahead.
    public var stage: ChainStage {
        var fields: [String: SettingValue] = ["rendering": .text(rendering.rawValue)]
        if let layout { fields["layout"] = .text(layout.rawValue) }
        if let sofa { fields["sofa"] = .text(sofa) }
        return ChainStage("spatial", fields: fields)
    }

    /// A spatial node of `buses` buses at `sampleRate`; a SOFA file that cannot serve is a usage error naming it.
    public func makeNode(name: String = "spatial", buses: Int, sampleRate: Double) throws -> SpatialNode {
        do {
            return try SpatialNode(name: name, inputBusCount: buses, rendering: rendering, layout: layout, hrtfPath: sofa, sampleRate: sampleRate)
        } catch let error as HRTFError {
            throw RenderError.usage(error.description)
        }
    }
}
