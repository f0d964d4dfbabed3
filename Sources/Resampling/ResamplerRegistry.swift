/// The resampler engines this build has: one registration line each.
public enum ResamplerRegistry {
    /// Every engine, the default first. Adding an engine is one line here.
    public static let engines: [ResamplerEngineKind] = [
        SoxrEngine.kind,
        LibsamplerateEngine.kind,
    ]

    /// The engine used when none is named: the first registered.
    public static var defaultEngine: ResamplerEngineKind { engines[0] }

    /// The engine called `name` (any letter case); the error lists the names there are.
    public static func engine(named name: String) throws(ResamplerError) -> ResamplerEngineKind {
        guard let kind = engines.first(where: { $0.name.lowercased() == name.lowercased() }) else {
            throw .unknownEngine(name, known: engines.map(\.name))
        }
        return kind
    }
}
