/// Why a resampler engine could not be found, made or run.
public enum ResamplerError: Error, Equatable, CustomStringConvertible {
    /// No registered engine has this name.
    case unknownEngine(String, known: [String])
    /// The engine has neither this quality nor a band-limited level near it.
    case unsupportedQuality(engine: String, quality: ResamplerQuality, offered: [ResamplerQuality])
    /// The engine cannot convert with these rates or channels; `reason` reads after its name
    /// ("converts between rates at most 256 times apart, not …").
    case unsupported(engine: String, reason: String)
    /// The engine's library reported an error.
    case library(engine: String, message: String)
    /// The engine produced no more output before its input ended: it broke its own contract.
    case stalled(engine: String, produced: Int, expected: Int)

    public var description: String {
        switch self {
        case .unknownEngine(let name, let known):
            "no resampler engine is named '\(name)'; this build has \(known.joined(separator: ", "))"
        case .unsupportedQuality(let engine, let quality, let offered):
            "\(engine) has no quality '\(quality.name)'; it offers \(offered.map(\.name).joined(separator: ", "))"
                + Self.othersOffering(quality, lackedBy: engine)
        case .unsupported(let engine, let reason):
            "\(engine) \(reason)"
        case .library(let engine, let message):
            "\(engine): \(message)"
        case .stalled(let engine, let produced, let expected):
            "\(engine) stopped after \(produced) of the \(expected) frames its input makes"
        }
    }
}

extension ResamplerError {
    /// "; libsamplerate has it" when other engines of this build have `quality`, else nothing.
    static func othersOffering(_ quality: ResamplerQuality, lackedBy engine: String) -> String {
        guard ResamplerRegistry.engines.contains(where: { $0.name == engine }) else { return "" }
        let others = ResamplerRegistry.engines.filter { $0.qualities.contains(quality) }.map(\.name)
        return others.isEmpty ? "" : "; \(others.joined(separator: " and ")) \(others.count == 1 ? "has" : "have") it"
    }
}
