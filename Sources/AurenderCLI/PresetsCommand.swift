import ArgumentParser
import Aurender
import FoundationEssentials

/// `aurender presets`: lists the EQ presets, as a table, as JSON, or drawn as an SVG plot.
struct PresetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presets",
        abstract: "List the EQ presets with their band gains, or plot their responses.",
        discussion: """
            Lists the built-in iPod presets and the user's presets (from the folder named by \
            AURENDER_PRESETS, else ~/.config/aurender/presets: *.json files and *.tsv tables); \
            'aurender presets Rock' prints only the presets named.

            --plot draws the magnitude responses computed from the actual filter coefficients at \
            44.1 kHz (20 Hz to 20 kHz, log frequency), with each preset's gains marked at the band \
            centres.
            """
    )

    @Flag(help: "Print the presets as JSON on standard output.")
    var json = false

    @Option(help: ArgumentHelp("Draw the responses of NAME... (all presets when none is named) into an SVG file.",
                               valueName: "file.svg"))
    var plot: String?

    @Option(help: ArgumentHelp("The design to plot: accurate or classic.", valueName: "mode"))
    var eqMode: GraphicEQDesign.Mode = .accurate

    @Argument(help: "Presets to print or plot (all when none is named); user preset names and aliases work too.",
              completion: CompletionValues.presets)
    var names: [String] = []

    /// One preset as printed with `--json`.
    struct PresetInfo: Codable {
        var name: String
        var aliases: [String]
        var frequencies: [Double]
        var gains: [Double]
        var preamp: Double
    }

    func validate() throws {
        if plot != nil, json { throw ValidationError("--plot and --json do not go together") }
    }

    func run() throws {
        let presets: [EQPreset]
        do {
            let lookup = PresetLookup(environment: ProcessInfo.processInfo.environment)
            do throws(PresetLookupError) {
                presets = try names.isEmpty ? lookup.available() : names.map { name throws(PresetLookupError) in try lookup.preset(named: name) }
            } catch {
                throw RenderError.usage(EqualizerOptions.hint(for: error))
            }
        } catch let error as RenderError {
            throw fail(error.description, ExitStatus(error))
        }
        if let plot {
            let svg = try ResponsePlot(presets: presets, mode: eqMode, sampleRate: 44100).svg()
            do { try OutputFile.write(text: svg, to: plot) } catch { throw fail(error.description, ExitStatus(RenderError.output(error))) }
        } else if json {
            let infos = presets.map { PresetInfo(name: $0.name, aliases: $0.aliases, frequencies: $0.bands.map(\.frequency), gains: $0.gains, preamp: $0.preamp) }
            print(try ReportJSON.text(infos))
        } else {
            print(table(presets))
        }
    }

    /// The presets as an aligned text table, one row per preset, one column per band.
    func table(_ presets: [EQPreset]) -> String {
        let width = max(16, (presets.map(\.name.count).max() ?? 0) + 2)
        func hertz(_ frequency: Double) -> String {
            frequency >= 1000 ? "\(frequency / 1000 == (frequency / 1000).rounded() ? String(Int(frequency / 1000)) : String(frequency / 1000))k"
                : String(Int(frequency))
        }
        var lines: [String] = []
        var lastBands: [GraphicEQDesign.Band]?
        for preset in presets {
            if preset.bands != lastBands {
                lines.append("preset (dB)".padded(to: width) + preset.bands.map { hertz($0.frequency).padded(to: 7, alignedRight: true) }.joined())
                lastBands = preset.bands
            }
            lines.append(preset.name.padded(to: width) + preset.gains.map { decibels($0).padded(to: 7, alignedRight: true) }.joined()
                         + (preset.preamp != 0 ? "   preamp \(decibels(preset.preamp))" : ""))
        }
        return lines.joined(separator: "\n")
    }
}
