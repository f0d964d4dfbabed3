import Aurender

/// `aurender diff APPROVED/ RENDERED/ --junit FILE.xml`: one test case per pair, named by its
/// relative path and timed by its comparison; a failure carries the figures that broke their
/// tolerances (a missing, extra or unreadable file, its reason), so CI shows the pairs as tests.
struct DiffJUnit {
    let pairs: [FolderComparison.Pair]
    let commandLine: String

    /// The XML document.
    var xml: String {
        let failures = pairs.filter { !$0.passed }.count
        let seconds = pairs.reduce(0) { $0 + $1.seconds }
        let counts = "tests=\"\(pairs.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\" time=\"\(Self.seconds(seconds))\""
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"aurender\" \(counts)>\n"
        xml += "  <testsuite name=\"aurender diff\" \(counts)>\n"
        xml += "    <properties>\n"
        xml += "      <property name=\"command\" value=\"\(e(commandLine))\"/>\n"
        xml += "    </properties>\n"
        for pair in pairs {
            xml += "    <testcase name=\"\(e(pair.path))\" classname=\"aurender.diff\" time=\"\(Self.seconds(pair.seconds))\">\n"
            if let message = Self.failure(pair) {
                xml += "      <failure message=\"\(e(message))\" type=\"\(pair.status.rawValue)\">\(e(message))</failure>\n"
            } else if let figures = pair.outcome?.figures {
                xml += "      <system-out>\(e(Self.summary(figures)))</system-out>\n"
            }
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    /// Why a pair failed, one sentence per broken tolerance; nil when it passed.
    static func failure(_ pair: FolderComparison.Pair) -> String? {
        switch pair.status {
        case .passed: nil
        case .missing: "approved, but not rendered"
        case .extra: "rendered, but not approved"
        case .unreadable: pair.error ?? "cannot be read"
        case .failed: pair.outcome?.failures.map(\.description).joined(separator: "; ")
        }
    }

    /// What a passing pair measured.
    private static func summary(_ figures: RenderComparison.Figures) -> String {
        "\(figures.framesA) frames; max difference \(DiffCommand.dBFS(Double(figures.largest))), rms difference \(DiffCommand.dBFS(figures.rms))"
    }

    private static func seconds(_ value: Double) -> String { String((value * 1000).rounded() / 1000) }

    private func e(_ text: String) -> String { JUnitReport.escaped(text) }
}
