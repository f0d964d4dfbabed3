import ArgumentParser
import Aurender

/// An output container named on the command line (`--type wav`).
struct ContainerArgument: ExpressibleByArgument {
    let type: AudioContainer
    let encoding: AudioEncoding?

    init?(argument: String) {
        guard let named = AudioContainer.named(argument) else { return nil }
        type = named.container
        encoding = named.encoding
    }

    static var allValueStrings: [String] { AudioContainer.knownNames }
}

/// A sample encoding named by bit depth on the command line (`--bits 24`).
struct BitsArgument: ExpressibleByArgument {
    let encoding: AudioEncoding

    init?(argument: String) {
        guard let encoding = AudioEncoding.forBits(argument) else { return nil }
        self.encoding = encoding
    }

    static var allValueStrings: [String] { ["8", "16", "24", "32", "float", "double"] }
}

extension RenderJob.ClipPolicy: ExpressibleByArgument {}

/// A gain in dB with a sign and two decimals: `+3.50`, `-0.25`.
func decibels(_ value: Double) -> String {
    let hundredths = Int((abs(value) * 100).rounded())
    let fraction = hundredths % 100
    return (value < 0 && hundredths > 0 ? "-" : "+") + "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
}

/// A time on the command line: seconds (`2.5`, `2.5s`), milliseconds (`150ms`) or frames (`44100f`).
enum TimeArgument: Equatable, ExpressibleByArgument {
    case seconds(Double)
    case frames(Int64)

    init?(argument: String) {
        let text = argument.lowercased()
        if text.hasSuffix("ms"), let value = Double(text.dropLast(2)), value >= 0, value.isFinite {
            self = .seconds(value / 1000)
        } else if text.hasSuffix("s"), let value = Double(text.dropLast()), value >= 0, value.isFinite {
            self = .seconds(value)
        } else if text.hasSuffix("f"), let value = Int64(text.dropLast()), value >= 0 {
            self = .frames(value)
        } else if let value = Double(text), value >= 0, value.isFinite {
            self = .seconds(value)
        } else {
            return nil
        }
    }

    /// The time in seconds at `sampleRate`.
    func seconds(at sampleRate: Double) -> Double {
        switch self {
        case .seconds(let value): value
        case .frames(let value): Double(value) / sampleRate
        }
    }

    /// The time in frames at `sampleRate`.
    func frames(at sampleRate: Double) -> Int64 {
        switch self {
        case .seconds(let value): Int64((value * sampleRate).rounded())
        case .frames(let value): value
        }
    }
}
