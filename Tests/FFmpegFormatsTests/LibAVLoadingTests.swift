import AudioFormats
@testable import FFmpegFormats
import Testing
import TestSupport

/// FFmpeg's libraries are loaded on first use, by the names of the headers' major versions, and
/// their absence refuses FFmpeg's formats by name instead of stopping the program.
@Suite struct LibAVLoadingTests {
    @Test func theLibrariesAreNamedByTheHeadersMajorVersions() {
        let names = [LibAVLibraries.headers.avutil, LibAVLibraries.headers.avcodec, LibAVLibraries.headers.avformat]
        #expect(names.allSatisfy { $0.wholeMatch(of: #/libav(util|codec|format)\.so\.[0-9]+/#) != nil }, "\(names)")
        #expect(throws: Never.self) { try LibAVLibraries.loaded.get() }
    }

    @Test func anM4aIsRefusedByNameWhenALibraryIsMissing() throws {
        var missing = LibAVLibraries.headers
        missing.avcodec = "libavcodec.so.999"
        let registry = FormatRegistry(kinds: [FFmpegFormats(libraries: missing)])
        let path = fixture("ffmpeg/aac.m4a")
        #expect(throws: AudioFormatError(path: path, kind: .unsupportedInput,
                                         reason: "MPEG-4 audio (AAC) is not supported here: FFmpeg's library libavcodec.so.999 could not be loaded")) {
            try registry.openDecoder(path: path)
        }
    }
}
