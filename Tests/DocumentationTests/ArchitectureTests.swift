import Foundation
import TestSupport
import Testing

/// The invariants ARCHITECTURE.md states about the code's shape, checked on the sources: what
/// each module may import, every C library's calls in one file, and no command-line flag named
/// outside the command.
@Suite struct ArchitectureTests {
    /// What the operating system gives every module but the graph vocabulary.
    static let system: Set<String> = ["Glibc", "Darwin", "Dispatch", "Synchronization", "FoundationEssentials"]

    /// The package's modules each library module may import, bottom up (ARCHITECTURE.md's code map).
    static let allowedImports: [String: Set<String>] = [
        "AudioGraph": [],
        "AudioDSP": ["AudioGraph", "CAudioKernels"],
        "AudioFormats": ["AudioGraph"],
        "SoundFile": ["AudioGraph", "AudioFormats", "CSndfile"],
        "FLACFormats": ["AudioFormats", "CFLAC"],
        "Mpg123Formats": ["AudioGraph", "AudioFormats", "CMpg123"],
        "VorbisFormats": ["AudioGraph", "AudioFormats", "CVorbisFile"],
        "OpusFormats": ["AudioGraph", "AudioFormats", "COpus"],
        "FFmpegFormats": ["AudioGraph", "AudioFormats", "CFFmpeg"],
        "Resampling": ["CSamplerate", "CSoxr"],
        "TimeStretching": ["CSoundTouch"],
        "Loudness": ["CEbur128"],
        "FourierTransforms": ["CFFTW", "CAudioKernels"],
        "SignalAnalysis": ["AudioGraph", "AudioDSP", "CAudioKernels", "FourierTransforms"],
        "SpatialAudio": ["CMysofa", "FourierTransforms", "AudioDSP"],
        "PluginHost": ["AudioGraph", "CLADSPA", "CLilv"],
        "VoiceProcessing": ["AudioGraph", "Resampling", "CVoiceShim"],
        "AudioMetadata": ["CTagShim"],
        "AudioNodes": ["AudioGraph", "AudioDSP", "AudioFormats", "SoundFile", "FLACFormats", "Mpg123Formats", "VorbisFormats", "OpusFormats", "FFmpegFormats", "Resampling", "TimeStretching",
                       "PluginHost", "VoiceProcessing", "FourierTransforms", "SpatialAudio"],
        "Aurender": ["AudioGraph", "AudioDSP", "AudioFormats", "AudioNodes", "Resampling", "TimeStretching", "Loudness", "PluginHost", "SignalAnalysis",
                     "VoiceProcessing", "SpatialAudio", "AudioMetadata"],
        "AurenderCLI": ["Aurender", "ArgumentParser"],
    ]

    /// Each C library's functions, by prefix, and the one file that calls them.
    static let cLibraryFiles: [(library: String, prefix: String, file: String)] = [
        ("libsndfile", "sf_", "Sources/SoundFile/LibSndfile.swift"),
        ("libFLAC", "FLAC__", "Sources/FLACFormats/LibFLAC.swift"),
        ("libsamplerate", "src_", "Sources/Resampling/LibSamplerate.swift"),
        ("libsoxr", "soxr_", "Sources/Resampling/LibSoxr.swift"),
        ("SoundTouch", "soundtouch_", "Sources/TimeStretching/LibSoundTouch.swift"),
        ("libebur128", "ebur128_", "Sources/Loudness/LibEbur128.swift"),
        ("FFTW", "fftwf?_", "Sources/FourierTransforms/LibFFTW.swift"),
        ("libmpg123", "mpg123_", "Sources/Mpg123Formats/LibMpg123.swift"),
        ("libvorbisfile", "ov_", "Sources/VorbisFormats/LibVorbisFile.swift"),
        ("libopus", "opus_", "Sources/OpusFormats/LibOpus.swift"),
        ("libogg", "ogg_", "Sources/OpusFormats/LibOpus.swift"),
        ("libmysofa", "mysofa_", "Sources/SpatialAudio/HRTFSet.swift"),
        ("lilv", "lilv_", "Sources/PluginHost/LilvPlugins.swift"),
        ("FFmpeg", "av(?:format|codec|io|util)?_", "Sources/FFmpegFormats/LibAV.swift"),
        ("WebRTC audio processing (through CVoiceShim)", "apm_", "Sources/VoiceProcessing/WebRTCAudioProcessing.swift"),
        ("TagLib (through CTagShim)", "tagshim_", "Sources/AudioMetadata/TagLibFile.swift"),
    ]

    /// The Swift files of `module`, relative to the package root.
    static func swiftFiles(of module: String) -> [String] {
        let folder = "Sources/" + module
        let found = FileManager.default.enumerator(atPath: packageRoot + "/" + folder)?.compactMap { $0 as? String } ?? []
        return found.filter { $0.hasSuffix(".swift") }.sorted().map { folder + "/" + $0 }
    }

    static func lines(of file: String) throws -> [String] {
        try String(contentsOfFile: packageRoot + "/" + file, encoding: .utf8).components(separatedBy: "\n")
    }

    @Test(arguments: allowedImports.keys.sorted())
    func aModuleImportsOnlyTheLayersBelowIt(module: String) throws {
        let allowed = Self.allowedImports[module, default: []].union(module == "AudioGraph" ? [] : Self.system)
        let files = Self.swiftFiles(of: module)
        #expect(!files.isEmpty)
        for file in files {
            for line in try Self.lines(of: file) {
                guard let match = line.firstMatch(of: /^(?:@_exported )?import (\w+)/) else { continue }
                let imported = String(match.output.1)
                #expect(allowed.contains(imported), "\(file) imports \(imported), which \(module) may not depend on")
            }
        }
    }

    @Test(arguments: cLibraryFiles.map(\.library))
    func eachCLibrarysCallsStayInOneFile(library: String) throws {
        let entry = try #require(Self.cLibraryFiles.first { $0.library == library })
        let call = try Regex("(?:^|[^\\w])\(entry.prefix)[a-z0-9_]+\\(")
        var callers: Set<String> = []
        for module in Self.allowedImports.keys {
            for file in Self.swiftFiles(of: module) where try Self.lines(of: file).contains(where: { $0.contains(call) && !Self.isComment($0) }) {
                callers.insert(file)
            }
        }
        #expect(callers == [entry.file], "\(library) is called from \(callers.sorted())")
    }

    @Test(arguments: allowedImports.keys.sorted().filter { $0 != "AurenderCLI" })
    func theLibraryNamesNoCommandLineFlag(module: String) throws {
        for file in Self.swiftFiles(of: module) {
            for line in try Self.lines(of: file) where !Self.isComment(line) && line.contains(/"(?:[^"]*[^\w"-])?--[a-z][a-z-]+[^"]*"/) {
                Issue.record("\(file) names a flag; the library throws typed errors and the command adds hints: \(line)")
            }
        }
    }

    static func isComment(_ line: String) -> Bool {
        line.trimmingCharacters(in: .whitespaces).hasPrefix("//")
    }
}
