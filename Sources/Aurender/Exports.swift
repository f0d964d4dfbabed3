@_exported import AudioDSP
@_exported import AudioFormats
@_exported import AudioGraph
@_exported import AudioNodes
@_exported import Loudness
@_exported import PluginHost
@_exported import Resampling
@_exported import TimeStretching
