// swift-tools-version:6.1
import PackageDescription
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The module layer map is this manifest's targets and their dependencies: a module may import
/// only the targets it depends on, bottom up from `AudioGraph` (the graph vocabulary, which uses
/// no C library and no OS module) to `AurenderCLI` (the `aurender` command). `ArchitectureTests`
/// reads the map from here and holds every import to it; what each module is, and what it may
/// not know, is ARCHITECTURE.md's code map. Each C library is a system-library target wrapped by
/// one module that keeps its calls in one file; WebRTC's audio processing module, which is C++,
/// has a C face, `CVoiceShim` (`CWebRTCAudioProcessing` carries its pkg-config flags);
/// TagLib, C++ too, has `CTagShim` (`CTagLib` carries its pkg-config flags), built as the
/// `AurenderTagLib` library that `AudioMetadata` opens on first use (`CTagShimInterface` gives it
/// the shim's declarations alone), so a render that reads no tags never loads TagLib.
/// `AudioNodes`' presets are embedded from `presets/` at build time by `EmbedPresetsPlugin`.
///
/// FFmpeg's libraries are not linked: `CFFmpeg` gives their headers only (from the compiler's
/// default include path, Debian's multiarch one, where pkg-config would also add `-l` flags),
/// and `FFmpegFormats` opens them with dlopen on first use. The `FFmpeg` trait, on by default,
/// puts that tenant in the registry; `--disable-default-traits` builds without it.
///
/// A new decoder adds a system-library target and a tenant target (a dependency of
/// `AudioFiles`); a new resampler engine adds a system-library target to `Resampling`'s
/// dependencies. A new node kind needs nothing here, unless it wraps a C library of its own:
/// then a system-library target and a module holding the wrapper, as `TimeStretching` does.
let package = Package(
    name: "aurender",
    platforms: [.macOS(.v15)],
    products: [
        // The public API, three layers deep (ARCHITECTURE.md, "Public API"): the graph alone, the units
        // with their kernels and the files they read and write, and the jobs. Other modules are internal.
        .library(name: "AudioGraph", targets: ["AudioGraph"]),
        .library(name: "AudioNodes", targets: ["AudioNodes", "AudioDSP", "AudioFiles", "AudioFormats"]),
        .library(name: "Aurender", targets: ["Aurender"]),
        // TagLib through its C shim, as a library the binary opens only when it reads or writes tags.
        .library(name: "AurenderTagLib", type: .dynamic, targets: ["CTagShim"]),
        .executable(name: "aurender", targets: ["AurenderCLI"]),
    ],
    traits: [
        .trait(name: "FFmpeg", description: "FFmpeg's libraries as a second decoder and encoder, loaded on first use"),
        .default(enabledTraits: ["FFmpeg"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CSndfile",
            pkgConfig: "sndfile",
            providers: [.apt(["libsndfile1-dev"]), .brew(["libsndfile"])]
        ),
        .systemLibrary(
            name: "CFLAC",
            pkgConfig: "flac",
            providers: [.apt(["libflac-dev"]), .brew(["flac"])]
        ),
        .systemLibrary(
            name: "CMpg123",
            pkgConfig: "libmpg123",
            providers: [.apt(["libmpg123-dev"]), .brew(["mpg123"])]
        ),
        .systemLibrary(
            name: "CVorbisFile",
            pkgConfig: "vorbisfile",
            providers: [.apt(["libvorbis-dev"]), .brew(["libvorbis"])]
        ),
        .systemLibrary(
            name: "COpus",
            pkgConfig: "opus",
            providers: [.apt(["libopus-dev", "libogg-dev"]), .brew(["opus", "libogg"])]
        ),
        .systemLibrary(
            name: "CSamplerate",
            pkgConfig: "samplerate",
            providers: [.apt(["libsamplerate0-dev"]), .brew(["libsamplerate"])]
        ),
        .systemLibrary(
            name: "CSoxr",
            pkgConfig: "soxr",
            providers: [.apt(["libsoxr-dev"]), .brew(["libsoxr"])]
        ),
        .systemLibrary(
            name: "CFFmpeg",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev"]), .brew(["ffmpeg"])]
        ),
        .systemLibrary(
            name: "CEbur128",
            pkgConfig: "libebur128",
            providers: [.apt(["libebur128-dev"]), .brew(["libebur128"])]
        ),
        .systemLibrary(
            name: "CFFTW",
            pkgConfig: "fftw3f",
            providers: [.apt(["libfftw3-dev"]), .brew(["fftw"])]
        ),
        .systemLibrary(
            name: "CMysofa",
            pkgConfig: "libmysofa",
            providers: [.apt(["libmysofa-dev"])]
        ),
        .systemLibrary(name: "CLADSPA", providers: [.apt(["ladspa-sdk"])]),
        // WebRTC's audio processing module is C++: this carries its pkg-config flags to CVoiceShim, its C face.
        .systemLibrary(
            name: "CWebRTCAudioProcessing",
            pkgConfig: "webrtc-audio-processing",
            providers: [.apt(["libwebrtc-audio-processing-dev"])]
        ),
        // SwiftPM drops the -D flags of pkg-config files, so the two webrtc-audio-processing.pc states are repeated here.
        .target(name: "CVoiceShim", dependencies: ["CWebRTCAudioProcessing"],
                cxxSettings: [.define("WEBRTC_POSIX"), .define("WEBRTC_AUDIO_PROCESSING_ONLY_BUILD")]),
        // TagLib is C++: this carries its pkg-config flags to CTagShim, its C face.
        .systemLibrary(name: "CTagLib", pkgConfig: "taglib", providers: [.apt(["libtag1-dev"])]),
        .target(name: "CTagShim", dependencies: ["CTagLib"]),
        // SoundTouch's C interface, libSoundTouchDll; soundtouch.pc names the C++ library instead.
        .systemLibrary(name: "CSoundTouch", providers: [.apt(["libsoundtouch-dev"])]),
        .systemLibrary(
            name: "CLilv",
            pkgConfig: "lilv-0",
            providers: [.apt(["liblilv-dev"]), .brew(["lilv"])]
        ),
        .target(name: "AudioGraph"),
        .target(name: "CAudioKernels"),
        .target(name: "AudioDSP", dependencies: ["AudioGraph", "CAudioKernels"]),
        .target(name: "AudioFormats", dependencies: ["AudioGraph"]),
        .target(name: "SoundFile", dependencies: ["CSndfile", "AudioGraph", "AudioFormats"]),
        .target(name: "Mpg123Formats", dependencies: ["CMpg123", "AudioGraph", "AudioFormats"]),
        .target(name: "FLACFormats", dependencies: ["CFLAC", "AudioFormats"]),
        .target(name: "VorbisFormats", dependencies: ["CVorbisFile", "AudioGraph", "AudioFormats"]),
        .target(name: "OpusFormats", dependencies: ["COpus", "AudioGraph", "AudioFormats"]),
        .target(name: "FFmpegFormats", dependencies: ["CFFmpeg", "AudioGraph", "AudioFormats"]),
        .target(name: "Resampling", dependencies: ["CSamplerate", "CSoxr"]),
        .target(name: "TimeStretching", dependencies: ["CSoundTouch"]),
        .target(name: "Loudness", dependencies: ["CEbur128"]),
        .target(name: "FourierTransforms", dependencies: ["CFFTW", "CAudioKernels"]),
        .target(name: "SignalAnalysis", dependencies: ["AudioGraph", "AudioDSP", "CAudioKernels", "FourierTransforms"]),
        .target(name: "SpatialAudio", dependencies: ["CMysofa", "FourierTransforms"]),
        .target(name: "PluginHost", dependencies: ["AudioGraph", "CLADSPA", "CLilv"]),
        .target(name: "VoiceProcessing", dependencies: ["AudioGraph", "Resampling", "CVoiceShim"]),
        // The shim's declarations alone: AudioMetadata opens libAurenderTagLib.so on first use.
        .systemLibrary(name: "CTagShimInterface"),
        .target(name: "AudioMetadata", dependencies: ["CTagShimInterface"]),
        .executableTarget(name: "PresetEmbedder"),
        .executableTarget(name: "ManualPage"),
        // `bench/run.sh sketch`'s load: a minute of noise through a SignalSketcher, for callgrind.
        .executableTarget(name: "SketchBenchmark", dependencies: ["AudioGraph", "SignalAnalysis"], path: "bench/SketchBenchmark"),
        .plugin(name: "EmbedPresetsPlugin", capability: .buildTool(), dependencies: ["PresetEmbedder"],
                path: "Sources/EmbedPresetsPlugin"),
        .target(name: "AudioFiles", dependencies: ["AudioGraph", "AudioDSP", "AudioFormats", "SoundFile", "FLACFormats", "Mpg123Formats", "VorbisFormats",
                                                   "OpusFormats", .target(name: "FFmpegFormats", condition: .when(traits: ["FFmpeg"]))]),
        .target(
            name: "AudioNodes",
            dependencies: ["AudioGraph", "AudioDSP", "AudioFormats", "AudioFiles", "Resampling", "TimeStretching", "PluginHost", "VoiceProcessing",
                           "FourierTransforms", "SpatialAudio"],
            plugins: ["EmbedPresetsPlugin"]
        ),
        .target(name: "Aurender", dependencies: ["AudioGraph", "AudioDSP", "AudioFormats", "AudioFiles", "Resampling", "Loudness", "AudioNodes",
                                                 "PluginHost", "SignalAnalysis", "SpatialAudio", "AudioMetadata", "FourierTransforms"]),
        .executableTarget(
            name: "AurenderCLI",
            dependencies: ["Aurender", "PluginHost", "VoiceProcessing", "SpatialAudio", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .target(name: "MallocCounter", path: "Tests/MallocCounter"),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .target(name: "GraphTestSupport", dependencies: ["AudioGraph", "MallocCounter"], path: "Tests/GraphTestSupport"),
        .target(name: "PseudoTerminal", path: "Tests/PseudoTerminal"),
        .systemLibrary(name: "CZlib", path: "Tests/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .target(name: "BrowserSupport", dependencies: ["CZlib"], path: "Tests/BrowserSupport"),
        .testTarget(name: "AudioGraphTests", dependencies: ["AudioGraph", "MallocCounter", "GraphTestSupport"]),
        .testTarget(name: "AudioDSPTests", dependencies: ["AudioDSP", "MallocCounter", "TestSupport"]),
        .testTarget(name: "AudioFormatsTests", dependencies: ["AudioFormats", "AudioFiles", "SoundFile", "TestSupport"]),
        .testTarget(name: "SoundFileTests", dependencies: ["SoundFile", "TestSupport"]),
        .testTarget(name: "FLACFormatsTests", dependencies: ["FLACFormats", "AudioFormats", "SoundFile", "MallocCounter", "TestSupport"]),
        .testTarget(name: "VorbisFormatsTests", dependencies: ["VorbisFormats", "AudioFormats", "TestSupport"]),
        .testTarget(name: "OpusFormatsTests", dependencies: ["OpusFormats", "AudioFormats", "TestSupport"]),
        .testTarget(name: "Mpg123FormatsTests", dependencies: ["Mpg123Formats", "AudioFormats", "AudioFiles", "MallocCounter", "TestSupport"]),
        .testTarget(name: "FFmpegFormatsTests", dependencies: ["FFmpegFormats", "AudioFormats", "AudioFiles", "VorbisFormats", "TestSupport"]),
        .testTarget(name: "ResamplingTests", dependencies: ["Resampling", "TestSupport"]),
        .testTarget(name: "TimeStretchingTests", dependencies: ["TimeStretching", "MallocCounter", "TestSupport"]),
        .testTarget(name: "FourierTransformsTests", dependencies: ["FourierTransforms", "CAudioKernels", "MallocCounter", "TestSupport"]),
        .testTarget(name: "SpatialAudioTests", dependencies: ["SpatialAudio", "FourierTransforms", "MallocCounter", "TestSupport"]),
        .testTarget(name: "AudioMetadataTests", dependencies: ["AudioMetadata", "TestSupport"]),
        .testTarget(name: "LoudnessTests", dependencies: ["Loudness", "TestSupport"]),
        .testTarget(name: "SignalAnalysisTests", dependencies: ["SignalAnalysis", "AudioGraph", "CAudioKernels", "FourierTransforms", "Loudness",
                                                                "MallocCounter"]),
        .testTarget(name: "AudioFilesTests", dependencies: ["AudioFiles", "AudioFormats", "AudioGraph", "AudioDSP", "SoundFile", "MallocCounter", "TestSupport"]),
        .testTarget(name: "AudioNodesTests", dependencies: ["AudioNodes", "AudioFiles", "AudioDSP", "Resampling", "Loudness", "TimeStretching", "FourierTransforms", "MallocCounter", "TestSupport", "GraphTestSupport"]),
        .testTarget(name: "VoiceProcessingTests", dependencies: ["VoiceProcessing", "AudioGraph", "Resampling", "MallocCounter", "TestSupport",
                                                                  "GraphTestSupport"]),
        .testTarget(name: "PluginHostTests", dependencies: ["PluginHost", "AudioNodes", "AudioGraph", "TestSupport", "GraphTestSupport"]),
        .testTarget(name: "DocumentationTests", dependencies: ["Aurender", "TestSupport"]),
        .testTarget(name: "AurenderTests", dependencies: ["Aurender", "TestSupport"]),
        .testTarget(name: "AurenderCLITests", dependencies: ["AurenderCLI", "Aurender", "TestSupport", "PseudoTerminal", "BrowserSupport"]),
        .testTarget(name: "BrowserSupportTests", dependencies: ["BrowserSupport", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

/// The libFuzzer harnesses (`Sources/FuzzHarnesses`), only when `AURENDER_FUZZ` is set: `make fuzz`
/// builds them in their own build folder with every module instrumented, so `swift build` and
/// `swift test` neither build nor link them.
if ProcessInfo.processInfo.environment["AURENDER_FUZZ"] != nil {
    package.targets.append(.target(name: "FuzzSupport", path: "Sources/FuzzHarnesses/FuzzSupport"))
    for harness in ["FuzzDecoders", "FuzzGraphFiles", "FuzzPresets", "FuzzArguments", "FuzzMetadata"] {
        package.targets.append(.executableTarget(
            name: harness,
            dependencies: ["FuzzSupport", "Aurender", "AudioGraph", "AudioFiles", "AudioNodes", "AudioFormats", "AudioDSP", "AudioMetadata"],
            path: "Sources/FuzzHarnesses/\(harness)",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])],
            linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])]
        ))
    }
}
