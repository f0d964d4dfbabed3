/// A kind of resampler engine: its name, what it is, the qualities it has, and how to make one.
///
/// Each engine's file declares its kind as a static value; `ResamplerRegistry.engines` lists
/// them. Nothing else needs to know an engine exists.
public struct ResamplerEngineKind: Sendable {
    /// The name options and plans use: "libsamplerate".
    public let name: String
    /// One line on what the engine is, for listings.
    public let summary: String
    /// The levels the engine has; others map to the nearest band-limited one (`ResamplerQuality.nearest`).
    public let qualities: [ResamplerQuality]
    /// How a converter spreads this engine's work over two threads.
    public let parallelism: Parallelism
    private let check: @Sendable (ResamplerConfiguration) -> String?
    private let make: @Sendable (ResamplerConfiguration) throws(ResamplerError) -> any ResamplerEngine

    /// A kind; `check` says why a configuration is impossible, as a phrase after the
    /// engine's name ("converts between rates at most 256 times apart, not …"; nil when it is fine), `make`
    /// builds an engine for a configuration that passed `check`.
    public init(name: String, summary: String, qualities: [ResamplerQuality], parallelism: Parallelism = .timeBlocks,
                check: @escaping @Sendable (ResamplerConfiguration) -> String?,
                make: @escaping @Sendable (ResamplerConfiguration) throws(ResamplerError) -> any ResamplerEngine) {
        self.name = name
        self.summary = summary
        self.qualities = qualities
        self.parallelism = parallelism
        self.check = check
        self.make = make
    }

    /// The level this engine uses when asked for `quality`; nil when it has nothing near.
    public func level(for quality: ResamplerQuality) -> ResamplerQuality? {
        quality.nearest(among: qualities)
    }

    /// Throws unless an engine of this kind can be made for `configuration`, making none:
    /// a graph checks this when it initializes.
    public func validate(_ configuration: ResamplerConfiguration) throws(ResamplerError) {
        guard configuration.inputRate > 0, configuration.outputRate > 0 else {
            throw .unsupported(engine: name, reason: "needs rates above 0 Hz, not \(configuration.inputRate) Hz to \(configuration.outputRate) Hz")
        }
        guard configuration.channelCount > 0 else {
            throw .unsupported(engine: name, reason: "needs at least one channel, not \(configuration.channelCount)")
        }
        guard level(for: configuration.quality) != nil else {
            throw .unsupportedQuality(engine: name, quality: configuration.quality, offered: qualities)
        }
        if let reason = check(configuration) { throw .unsupported(engine: name, reason: reason) }
    }

    /// A new engine for `configuration`.
    public func makeEngine(_ configuration: ResamplerConfiguration) throws(ResamplerError) -> any ResamplerEngine {
        try validate(configuration)
        return try make(configuration)
    }
}

extension ResamplerEngineKind {
    /// How a converter uses two threads with an engine: by spans of time or by channels.
    public enum Parallelism: Sendable {
        /// Blocks of input converted apart, each by an engine reset before it: for engines whose
        /// cost is per frame whatever the channel count, and whose reset is cheap.
        case timeBlocks
        /// One unbroken stream per group of channels: for engines whose cost is per channel, or
        /// whose reset redesigns their filter. The output is exactly one stream's.
        case channels
    }
}
