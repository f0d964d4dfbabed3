@testable import AudioFiles
import AudioFormats
import Foundation
import TestSupport
import Testing

/// How `OutputFile` holds an unfinished output and puts it in place: unnamed where the file
/// system allows, named otherwise, keeping a replaced file's permissions and owner.
@Suite struct OutputFileTests {
    private func write(_ text: String, to file: OutputFile) {
        let bytes = Array(text.utf8)
        #expect(bytes.withUnsafeBytes { Glibc.write(file.fileDescriptor, $0.baseAddress, $0.count) } == bytes.count)
        close(file.fileDescriptor)
    }

    private func text(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    private func mode(_ path: String) -> mode_t {
        var status = stat()
        #expect(stat(path, &status) == 0)
        return status.st_mode & 0o7777
    }

    @Test func anUnnamedFileReplacesAnExistingOneOnlyOnCommit() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("out.txt")
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        let file = try OutputFile(path: path)
        write("new", to: file)
        #expect(folder.contents() == ["out.txt"] && text(path) == "old", "nothing named until commit")
        #expect(unnamedFiles(openBy: getpid(), in: folder.path) == 1)
        try file.commit()
        #expect(folder.contents() == ["out.txt"] && text(path) == "new", "no hidden name left after the rename")
        #expect(unnamedFiles(openBy: getpid(), in: folder.path) == 0)
    }

    @Test func aDiscardedUnnamedFileLeavesNothing() throws {
        let folder = try TemporaryFolder()
        try "old".write(toFile: folder.file("old.txt"), atomically: false, encoding: .utf8)
        let fresh = try OutputFile(path: folder.file("new.txt"))
        let replacing = try OutputFile(path: folder.file("old.txt"))
        write("new", to: fresh)
        write("new", to: replacing)
        fresh.discard()
        replacing.discard()
        #expect(folder.contents() == ["old.txt"] && text(folder.file("old.txt")) == "old")
        #expect(unnamedFiles(openBy: getpid(), in: folder.path) == 0, "the unnamed files are gone with their descriptors")
    }

    @Test func theNamedFallbackIsHiddenBesideTheDestinationUntilCommit() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("out.txt")
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        let file = try OutputFile(destination: .file(path), durability: .committed, unnamed: false)
        write("new", to: file)
        let during = folder.contents()
        #expect(during.count == 2 && during[0].hasPrefix(".out.txt.aurender-") && during[1] == "out.txt", "\(during)")
        try file.commit()
        #expect(folder.contents() == ["out.txt"] && text(path) == "new")
        let discarded = try OutputFile(destination: .file(folder.file("other.txt")), durability: .committed, unnamed: false)
        write("other", to: discarded)
        #expect(folder.contents().count == 2)
        discarded.discard()
        #expect(folder.contents() == ["out.txt"])
    }

    @Test(arguments: [true, false])
    func aReplacedFileKeepsItsPermissionBits(unnamed: Bool) throws {
        let folder = try TemporaryFolder()
        for bits: mode_t in [0o640, 0o600, 0o664, 0o2750] {
            let path = folder.file("out-\(String(bits, radix: 8)).txt")
            try "old".write(toFile: path, atomically: false, encoding: .utf8)
            #expect(chmod(path, bits) == 0)
            let file = try OutputFile(destination: .file(path), durability: .committed, unnamed: unnamed)
            write("new", to: file)
            try file.commit()
            #expect(text(path) == "new")
            #expect(mode(path) == bits, "\(String(mode(path), radix: 8)) instead of \(String(bits, radix: 8))")
        }
    }

    @Test(.enabled(if: geteuid() == 0, "giving a file to another owner needs root"), arguments: [true, false])
    func aReplacedFileKeepsItsOwnerAndGroup(unnamed: Bool) throws {
        let folder = try TemporaryFolder()
        let path = folder.file("out.txt")
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chown(path, 4321, 8765) == 0)
        #expect(chmod(path, 0o640) == 0)
        let file = try OutputFile(destination: .file(path), durability: .committed, unnamed: unnamed)
        write("new", to: file)
        try file.commit()
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect(status.st_uid == 4321 && status.st_gid == 8765 && status.st_mode & 0o7777 == 0o640)
    }

    @Test func aSynchronizedFileIsCommittedLikeAnyOther() throws {
        let folder = try TemporaryFolder()
        for unnamed in [true, false] {
            let path = folder.file("out-\(unnamed).txt")
            let file = try OutputFile(destination: .file(path), durability: .synchronized, unnamed: unnamed)
            write("flushed", to: file)
            try file.commit()
            #expect(text(path) == "flushed")
        }
        #expect(folder.contents() == ["out-false.txt", "out-true.txt"])
    }

    @Test func onlyARegularFileCanBeSynchronized() throws {
        for (destination, what) in [(OutputDestination.standardOutput, "standard output"), (.device("/dev/null"), "a device or pipe")] {
            let error = #expect(throws: AudioFormatError.self) { try OutputFile(destination: destination, durability: .synchronized) }
            #expect(error?.kind == .unsupportedFormat)
            #expect(error?.description == "\(destination.path): only a regular file can be synchronized to storage, not \(what)")
        }
    }

    @Test func aMissingFolderIsNamedInTheError() throws {
        let folder = try TemporaryFolder()
        let error = #expect(throws: AudioFormatError.self) { try OutputFile(path: folder.file("no/such/out.txt")) }
        #expect(error?.description == "\(folder.file("no/such/out.txt")): cannot create output: No such file or directory")
    }
}
