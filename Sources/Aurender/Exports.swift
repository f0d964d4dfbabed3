// What `import Aurender` gives besides the jobs: the modules whose types Aurender's own public
// declarations use (a job's options, its errors, its summary), so that a program can name them.
// The rest (the format tenants, the resampler, tempo, plugin, voice and HRTF libraries) is
// imported by whoever uses it. The list is the compiler's: with these imports made `internal` in
// every file, it names each public declaration that needs one of them.
@_exported import AudioDSP
@_exported import AudioFiles
@_exported import AudioFormats
@_exported import AudioGraph
@_exported import AudioMetadata
@_exported import AudioNodes
@_exported import Loudness
@_exported import Resampling
@_exported import SignalAnalysis
