import Foundation
import TestSupport
import Testing

/// The invariants ARCHITECTURE.md states about the code's shape, checked on the sources: what
/// each module may import, every C library's calls in one file, and no command-line flag named
/// outside the command.
@Suite struct ArchitectureTests {
    /// What the operating system gives every module but the graph vocabulary.
    static let system: Set<String> = ["Glibc", "Darwin", "Dispatch", "Synchronization", "FoundationEssentials"]

    /// The package's modules each library module may import: the targets it depends on in
    /// `Package.swift`, which is the layer map, written there once and read here.
    static let allowedImports: [String: Set<String>] = {
        let targets = PackageTargets.read(packageRoot + "/Package.swift")
        let layered = targets.targets.filter { $0.isLibrary && !swiftFiles(of: $0.name).isEmpty }.map(\.name) + targets.executableProducts
        return Dictionary(uniqueKeysWithValues: layered.map { name in (name, targets.dependencies(of: name)) })
    }()

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

    /// A dependency no file imports is an edge of the map that the code does not have: the map
    /// would say more than is true, as it once did of `SpatialAudio` and `AudioDSP`.
    @Test(arguments: allowedImports.keys.sorted())
    func aModuleDependsOnlyOnWhatItImports(module: String) throws {
        var imported: Set<String> = []
        for file in Self.swiftFiles(of: module) {
            for line in try Self.lines(of: file) {
                if let match = line.firstMatch(of: /^(?:@_exported )?import (\w+)/) { imported.insert(String(match.output.1)) }
            }
        }
        let unused = Self.allowedImports[module, default: []].subtracting(imported)
        #expect(unused.isEmpty, "Package.swift says \(module) depends on \(unused.sorted()), which none of its files imports")
    }

    @Test func theLayerMapIsReadFromThePackage() throws {
        #expect(Self.allowedImports["AudioGraph"] == [])
        #expect(Self.allowedImports["AudioDSP"] == ["AudioGraph", "CAudioKernels"])
        #expect(Self.allowedImports["AudioFiles"]?.contains("FFmpegFormats") == true, "a dependency under a trait's condition counts")
        #expect(Self.allowedImports["AurenderCLI"] == ["Aurender", "PluginHost", "VoiceProcessing", "SpatialAudio", "ArgumentParser"])
        #expect(Self.allowedImports.keys.contains("Aurender") && !Self.allowedImports.keys.contains("TestSupport")
                && !Self.allowedImports.keys.contains("CAudioKernels") && !Self.allowedImports.keys.contains("ManualPage"))
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
