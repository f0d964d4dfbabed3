import ArgumentParser
import Aurender

/// `--fsync`: every output flushed to storage before the command exits.
struct DurabilityOptions: ParsableArguments {
    @Flag(help: """
        Flush each output and its folder to storage (fsync) before exiting, so a power cut after \
        exit loses nothing; files only, not standard output or devices.
        """)
    var fsync = false

    /// The durability asked for, in `settings`.
    func apply(to settings: inout RenderSettings) {
        settings.durability = fsync ? .synchronized : .committed
    }

    /// Refuses `--fsync` for standard output (`-`), which has no storage to flush.
    func validate(output: String?) throws {
        if fsync, output == "-" { throw ValidationError("--fsync applies to files; standard output has no storage to flush") }
    }
}
