// swift-tools-version:6.1
import PackageDescription
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Layers, bottom up: the graph vocabulary (`AudioGraph`: formats, buffers, nodes, named
/// parameters, the graph and its generic output, and `BlockEffectNode`, the frame that hides a
/// kernel's blocks, latency and tail), then the DSP kernels (`AudioDSP`, with the
/// sample conversions in C in `CAudioKernels`, where they vectorize), neither of which uses a C
/// library. Two seams come next. `AudioFormats` is aurender's own vocabulary for files:
/// containers, encodings, the `AudioDecoder`/`AudioEncoder` protocols and `FormatRegistry`,
/// which chooses a decoder by the input's content and refuses by name the formats none reads;
/// `SoundFile` (libsndfile) is its main tenant; `FLACFormats` (libFLAC) encodes FLAC before it,
/// on every core, leaving FLAC's decoding to libsndfile; `VorbisFormats` (libvorbisfile) decodes Ogg Vorbis
/// and `OpusFormats` (libopus and libogg) whole, plain Ogg Opus files before it, and `Mpg123Formats` (libmpg123) MPEG audio after it; `FFmpegFormats` (FFmpeg's
/// libavformat, libavcodec, libavutil) comes last, for what libsndfile cannot read; a tenant that refuses an input at open hands it to the next. `Resampling` holds the `ResamplerEngine`
/// protocol, `ResamplerQuality` and `ResamplerRegistry`, with libsoxr (the default) and
/// libsamplerate as its engines. `TimeStretching` wraps SoundTouch's C interface (`CSoundTouch`) as a
/// `TimeStretcher` that changes tempo, keeping pitch; like `Resampling`, it knows nothing of graphs.
/// `Loudness` wraps libebur128 (BS.1770 metering). `SpatialAudio` reads head-related transfer
/// functions from SOFA files (libmysofa, `CMysofa`) and renders sources to two ears through them
/// with the partitioned convolver. `FourierTransforms` wraps FFTW's
/// single-precision real transforms (`CFFTW`) as `RealFFT` and `InverseRealFFT`, and builds on them
/// the one partitioned convolution engine (`PartitionedConvolver`, its hot loop in `CAudioKernels`). `SignalAnalysis`, on the DSP kernels
/// and `FourierTransforms`, keeps the sketch a report draws of a stream as it goes by
/// (`SignalSketcher`: waveform outline, average spectrum, integrated loudness, true peak). `PluginHost` hosts LADSPA plugins (dlopen,
/// `ladspa.h` from `CLADSPA`) and LV2 plugins (lilv, `CLilv`) as one `PluginNode`. Each C library's calls stay in one file.
/// `AudioNodes` builds the units on all of them, with the node catalogue (`NodeKind`,
/// `NodeCatalogue.kinds`) that graph files are built from and the format registry's
/// tenant list (`Files/RegisteredFormats.swift`); its presets are embedded from `presets/` at
/// build time by `EmbedPresetsPlugin`. `Aurender` is the umbrella a library user imports: the
/// jobs (`RenderJob`, `MixJob`, `GraphJob`, sharing `RenderSettings`), `GraphDescription` and
/// `PresetLookup`. `AurenderCLI` is the `aurender` command.
///
/// `VoiceProcessing` is the voice node over WebRTC's audio processing module, which is C++:
/// `CVoiceShim` is its C face and `CWebRTCAudioProcessing` carries its pkg-config flags.
/// `AudioMetadata` holds what a file carries besides samples (tags and pictures, as TagLib's
/// property map names them) and reads and writes it through TagLib, which is C++ too: `CTagShim`
/// is its C face and `CTagLib` carries its pkg-config flags. It knows no graph; `Aurender` reads
/// an input's metadata before a render and writes it into the finished output.
///
/// FFmpeg's libraries are not linked: `CFFmpeg` gives their headers only (from the compiler's
/// default include path, Debian's multiarch one, where pkg-config would also add `-l` flags),
/// and `FFmpegFormats` opens them with dlopen on first use. The `FFmpeg` trait, on by default,
/// puts that tenant in the registry; `--disable-default-traits` builds without it.
///
/// A new decoder adds a system-library target and a tenant target (a dependency of
/// `AudioNodes`); a new resampler engine adds a system-library target to `Resampling`'s
/// dependencies. A new node kind needs nothing here, unless it wraps a C library of its own:
/// then a system-library target and a module holding the wrapper, as `TimeStretching` does.
let package = Package(
    name: "aurender",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Aurender", targets: ["Aurender"]),
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
        .target(name: "SpatialAudio", dependencies: ["CMysofa", "FourierTransforms", "AudioDSP"]),
        .target(name: "PluginHost", dependencies: ["AudioGraph", "CLADSPA", "CLilv"]),
        .target(name: "VoiceProcessing", dependencies: ["AudioGraph", "Resampling", "CVoiceShim"]),
        .target(name: "AudioMetadata", dependencies: ["CTagShim"]),
        .executableTarget(name: "PresetEmbedder"),
        .executableTarget(name: "ManualPage"),
        // `bench/run.sh sketch`'s load: a minute of noise through a SignalSketcher, for callgrind.
        .executableTarget(name: "SketchBenchmark", dependencies: ["AudioGraph", "SignalAnalysis"], path: "bench/SketchBenchmark"),
        .plugin(name: "EmbedPresetsPlugin", capability: .buildTool(), dependencies: ["PresetEmbedder"],
                path: "Sources/EmbedPresetsPlugin"),
        .target(
            name: "AudioNodes",
            dependencies: ["AudioGraph", "AudioDSP", "AudioFormats", "SoundFile", "FLACFormats", "Mpg123Formats", "VorbisFormats", "OpusFormats", "Resampling",
                           "TimeStretching", "PluginHost", "VoiceProcessing", "FourierTransforms", "SpatialAudio", .target(name: "FFmpegFormats", condition: .when(traits: ["FFmpeg"]))],
            plugins: ["EmbedPresetsPlugin"]
        ),
        .target(name: "Aurender", dependencies: ["AudioGraph", "AudioDSP", "AudioFormats", "Resampling", "TimeStretching", "Loudness", "AudioNodes",
                                                 "PluginHost", "SignalAnalysis", "VoiceProcessing", "SpatialAudio", "AudioMetadata"]),
        .executableTarget(
            name: "AurenderCLI",
            dependencies: ["Aurender", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .target(name: "MallocCounter", path: "Tests/MallocCounter"),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .target(name: "GraphTestSupport", dependencies: ["AudioGraph", "MallocCounter"], path: "Tests/GraphTestSupport"),
        .target(name: "PseudoTerminal", path: "Tests/PseudoTerminal"),
        .systemLibrary(name: "CZlib", path: "Tests/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .target(name: "BrowserSupport", dependencies: ["CZlib"], path: "Tests/BrowserSupport"),
        .testTarget(name: "AudioGraphTests", dependencies: ["AudioGraph", "MallocCounter", "GraphTestSupport"]),
        .testTarget(name: "AudioDSPTests", dependencies: ["AudioDSP", "MallocCounter", "TestSupport"]),
        .testTarget(name: "AudioFormatsTests", dependencies: ["AudioFormats", "AudioNodes", "SoundFile", "TestSupport"]),
        .testTarget(name: "SoundFileTests", dependencies: ["SoundFile", "TestSupport"]),
        .testTarget(name: "FLACFormatsTests", dependencies: ["FLACFormats", "AudioFormats", "SoundFile", "MallocCounter", "TestSupport"]),
        .testTarget(name: "VorbisFormatsTests", dependencies: ["VorbisFormats", "AudioFormats", "TestSupport"]),
        .testTarget(name: "OpusFormatsTests", dependencies: ["OpusFormats", "AudioFormats", "TestSupport"]),
        .testTarget(name: "Mpg123FormatsTests", dependencies: ["Mpg123Formats", "AudioFormats", "AudioNodes", "MallocCounter", "TestSupport"]),
        .testTarget(name: "FFmpegFormatsTests", dependencies: ["FFmpegFormats", "AudioFormats", "AudioNodes", "VorbisFormats", "TestSupport"]),
        .testTarget(name: "ResamplingTests", dependencies: ["Resampling", "TestSupport"]),
        .testTarget(name: "TimeStretchingTests", dependencies: ["TimeStretching", "MallocCounter", "TestSupport"]),
        .testTarget(name: "FourierTransformsTests", dependencies: ["FourierTransforms", "CAudioKernels", "MallocCounter", "TestSupport"]),
        .testTarget(name: "SpatialAudioTests", dependencies: ["SpatialAudio", "FourierTransforms", "MallocCounter", "TestSupport"]),
        .testTarget(name: "AudioMetadataTests", dependencies: ["AudioMetadata", "TestSupport"]),
        .testTarget(name: "LoudnessTests", dependencies: ["Loudness", "TestSupport"]),
        .testTarget(name: "SignalAnalysisTests", dependencies: ["SignalAnalysis", "AudioGraph", "CAudioKernels", "FourierTransforms", "Loudness",
                                                                "MallocCounter"]),
        .testTarget(name: "AudioNodesTests", dependencies: ["AudioNodes", "AudioDSP", "Resampling", "Loudness", "TimeStretching", "FourierTransforms", "MallocCounter", "TestSupport", "GraphTestSupport"]),
        .testTarget(name: "VoiceProcessingTests", dependencies: ["VoiceProcessing", "AudioGraph", "Resampling", "MallocCounter", "TestSupport",
                                                                  "GraphTestSupport"]),
        .testTarget(name: "PluginHostTests", dependencies: ["PluginHost", "AudioNodes", "AudioGraph", "TestSupport", "GraphTestSupport"]),
        .testTarget(name: "DocumentationTests", dependencies: ["Aurender", "TestSupport"]),
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
    for harness in ["FuzzDecoders", "FuzzGraphFiles", "FuzzPresets", "FuzzArguments"] {
        package.targets.append(.executableTarget(
            name: harness,
            dependencies: ["FuzzSupport", "Aurender", "AudioGraph", "AudioNodes", "AudioFormats", "AudioDSP"],
            path: "Sources/FuzzHarnesses/\(harness)",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])],
            linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])]
        ))
    }
}
