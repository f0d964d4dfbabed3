import Foundation

/// aurender's LV2 test plugin (`Tests/PluginFixtures/aurender-test.lv2`), compiled once per
/// process into a temporary folder that can go on `LV2_PATH`.
///
/// The plugin (`urn:aurender:test:latency`) delays by 100 frames and reports it, needs
/// `options:options`, `urid:map`, the worker and a fixed block length.
public enum TestPluginBundle {
    /// The URI of the test plugin.
    public static let uri = "urn:aurender:test:latency"

    private static let built: Result<String, Error> = Result { try build() }

    /// The folder holding `aurender-test.lv2`, compiled with the system's C compiler against
    /// the LV2 headers (`make deps` installs them with liblilv-dev).
    public static func folder() throws -> String { try built.get() }

    private static func build() throws -> String {
        let folder = NSTemporaryDirectory() + "aurender-lv2-\(getpid())"
        let bundle = folder + "/aurender-test.lv2"
        let source = packageRoot + "/Tests/PluginFixtures/aurender-test.lv2"
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        for file in ["manifest.ttl", "latency.ttl"] {
            try FileManager.default.copyItem(atPath: source + "/" + file, toPath: bundle + "/" + file)
        }
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        compiler.arguments = ["cc", "-shared", "-fPIC", "-O2", "-o", bundle + "/latency.so", source + "/latency.c"]
        try compiler.run()
        compiler.waitUntilExit()
        guard compiler.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cc could not build the LV2 test plugin"])
        }
        return folder
    }
}
