import Foundation
import TestSupport
import Testing

/// Outputs keep a replaced file's permissions, follow the umask when new, and `--fsync` flushes
/// them on every kind of render (and is refused where there is no file to flush).
@Suite struct DurableOutputTests {
    /// Runs `aurender` with `arguments` from a shell that first sets `umask`.
    func aurenderWithUmask(_ umask: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "umask \(umask) && exec \"$0\" \"$@\"", aurenderPath] + arguments
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    func mode(_ path: String) -> mode_t {
        var status = stat()
        #expect(stat(path, &status) == 0, "\(path) exists")
        return status.st_mode & 0o7777
    }

    @Test func aReplacedOutputKeepsItsPermissionBits() throws {
        let folder = try TemporaryFolder()
        let output = folder.file("out.wav")
        #expect(try aurender([fixture("music.wav"), output]).status == 0)
        let first = bytes(output)
        #expect(chmod(output, 0o640) == 0)
        #expect(try aurender([fixture("music.wav"), output, "--gain", "-3"]).status == 0)
        #expect(bytes(output) != first, "replaced")
        #expect(mode(output) == 0o640)
        #expect(chmod(output, 0o604) == 0)
        #expect(try aurender(["mix", fixture("music.wav"), "-o", output]).status == 0)
        #expect(mode(output) == 0o604, "a mix's output too")
        #expect(try aurender(["-o", folder.path, fixture("speech.wav")]).status == 0)
        #expect(chmod(folder.file("speech.wav"), 0o600) == 0)
        #expect(try aurender(["-o", folder.path, fixture("speech.wav"), "--gain", "-1"]).status == 0)
        #expect(mode(folder.file("speech.wav")) == 0o600, "a batch's outputs too")
        #expect(folder.contents() == ["out.wav", "speech.wav"])
    }

    /// Runs `aurender` with `arguments` as the user nobody (the caller is root).
    func aurenderAsNobody(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
        process.arguments = ["-u", "nobody", "--", aurenderPath] + arguments
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    static let canRunAsNobody = geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser")

    @Test(.enabled(if: canRunAsNobody, "running as another user needs root and runuser"))
    func anotherUserKeepsTheGroupAndPermissionsItMaySet() throws {
        let folder = try TemporaryFolder()
        #expect(chmod(folder.path, 0o777) == 0)
        try FileManager.default.copyItem(atPath: fixture("music.wav"), toPath: folder.file("in.wav"))
        #expect(try aurender([folder.file("in.wav"), folder.file("out.wav"), "--gain", "-1"]).status == 0)
        #expect(chown(folder.file("out.wav"), 0, 65534) == 0 && chmod(folder.file("out.wav"), 0o640) == 0)
        #expect(try aurenderAsNobody([folder.file("in.wav"), folder.file("out.wav")]) == 0)
        var status = stat()
        #expect(stat(folder.file("out.wav"), &status) == 0)
        #expect(status.st_uid == 65534, "root's file cannot stay root's: it becomes nobody's")
        #expect(status.st_gid == 65534 && status.st_mode & 0o7777 == 0o640, "the group nobody belongs to and the bits are kept")
        #expect(bytes(folder.file("out.wav")) == bytes(folder.file("in.wav")), "replaced")
        #expect(folder.contents() == ["in.wav", "out.wav"])
    }

    @Test(.enabled(if: canRunAsNobody, "running as another user needs root and runuser"))
    func aFolderThatMayBeWrittenButNotReadTakesOutputsButCannotBeFlushed() throws {
        let folder = try TemporaryFolder()
        #expect(chmod(folder.path, 0o733) == 0)
        try FileManager.default.copyItem(atPath: fixture("music.wav"), toPath: folder.file("in.wav"))
        #expect(chmod(folder.file("in.wav"), 0o644) == 0)
        #expect(try aurenderAsNobody([folder.file("in.wav"), folder.file("out.wav")]) == 0)
        #expect(try aurenderAsNobody([folder.file("in.wav"), folder.file("out.wav"), "--gain", "-1"]) == 0, "replaced too")
        #expect(try aurenderAsNobody([folder.file("in.wav"), folder.file("synced.wav"), "--fsync"]) == 73)
        #expect(folder.contents() == ["in.wav", "out.wav"])
        #expect(try samples(of: folder.file("out.wav")).samples != samples(of: folder.file("in.wav")).samples)
    }

    @Test func aNewOutputFollowsTheUmask() throws {
        let folder = try TemporaryFolder()
        #expect(try aurenderWithUmask("027", [fixture("music.wav"), folder.file("a.wav")]) == 0)
        #expect(mode(folder.file("a.wav")) == 0o640)
        #expect(try aurenderWithUmask("077", ["mix", fixture("music.wav"), "-o", folder.file("b.wav")]) == 0)
        #expect(mode(folder.file("b.wav")) == 0o600)
        #expect(try aurenderWithUmask("002", ["-o", folder.file("batch"), fixture("music.wav"), fixture("speech.wav")]) == 0)
        #expect(mode(folder.file("batch/music.wav")) == 0o664 && mode(folder.file("batch/speech.wav")) == 0o664)
    }

    @Test func fsyncIsTakenByEveryKindOfRenderAndChangesNoByte() throws {
        let folder = try TemporaryFolder()
        for flags in [["--fsync"], []] {
            let name = flags.isEmpty ? "plain" : "synced"
            let render = try aurender([fixture("music.wav"), folder.file("\(name)-render.flac"), "--eq", "Rock"] + flags)
            #expect(render.status == 0, "\(render.standardError)")
            let mix = try aurender(["mix", fixture("music.wav"), fixture("speech.wav") + "@start=1s", "-o", folder.file("\(name)-mix.wav")] + flags)
            #expect(mix.status == 0, "\(mix.standardError)")
            let batch = try aurender(["-o", folder.file("\(name)-batch"), fixture("music.wav"), fixture("speech.wav"), "--type", "aiff"] + flags)
            #expect(batch.status == 0, "\(batch.standardError)")
            let graph = #"{"nodes": [{"name": "in", "type": "file", "path": "\#(fixture("music.wav"))"}, "#
                + #"{"name": "out", "type": "output", "path": "\#(name)-graph.wav"}], "connections": [{"from": "in", "to": "out"}]}"#
            try Data(graph.utf8).write(to: URL(fileURLWithPath: folder.file("\(name).json")))
            let graphRun = try aurender([folder.file("\(name).json"), "--allow-path", packageRoot + "/fixtures"] + flags)
            #expect(graphRun.status == 0, "\(graphRun.standardError)")
        }
        for output in ["render.flac", "mix.wav", "batch/music.aif", "batch/speech.aif", "graph.wav"] {
            let synced = bytes(folder.file("synced-" + output)), plain = bytes(folder.file("plain-" + output))
            #expect(synced != nil && synced == plain, "\(output): the same bytes with --fsync")
        }
        #expect(try samples(of: folder.file("synced-graph.wav")).samples == samples(of: fixture("music.wav")).samples)
    }

    @Test func fsyncIsRefusedWhereThereIsNoFileToFlush() throws {
        let folder = try TemporaryFolder()
        for arguments in [[fixture("music.wav"), "-", "--type", "au", "--fsync"], ["mix", fixture("music.wav"), "-o", "-", "--type", "au", "--fsync"]] {
            let result = try aurender(arguments)
            #expect(result.status == 64)
            #expect(result.standardError.hasPrefix("Error: --fsync applies to files; standard output has no storage to flush\n"))
            #expect(result.standardOutput.isEmpty)
        }
        let device = try aurender([fixture("music.wav"), "/dev/null", "--type", "au", "--fsync"])
        #expect(device.status == 64)
        #expect(device.standardError == "aurender: /dev/null: only a regular file can be synchronized to storage, not a device or pipe\n")
        let graph = #"{"nodes": [{"name": "in", "type": "file", "path": "\#(fixture("music.wav"))"}, "#
            + #"{"name": "out", "type": "output", "path": "-", "container": "au"}], "connections": [{"from": "in", "to": "out"}]}"#
        try Data(graph.utf8).write(to: URL(fileURLWithPath: folder.file("g.json")))
        let graphRun = try aurender([folder.file("g.json"), "--allow-path", packageRoot + "/fixtures", "--fsync"])
        #expect(graphRun.status == 64)
        #expect(graphRun.standardError == "aurender: -: only a regular file can be synchronized to storage, not standard output\n")
        #expect(graphRun.standardOutput.isEmpty)
        #expect(folder.contents() == ["g.json"])
    }

    @Test func helpDescribesFsync() throws {
        for command in ["render", "mix"] {
            let help = try aurender([command, "--help"])
            #expect(help.output.contains("--fsync"), "\(command) --help")
        }
        #expect(try aurender(["render", "--help"]).output.contains("even kill -9"))
    }
}
