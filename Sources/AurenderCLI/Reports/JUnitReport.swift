import Aurender

/// A run as JUnit XML (`--junit FILE.xml`), the form CI systems (GitLab, Jenkins, GitHub's test
/// reporters) show as tests: one test case per input, named by its path and timed by its render,
/// a failure with its one-line error, a skipped input with its reason, and the options used
/// as the suite's properties.
struct JUnitReport {
    let run: ReportedRun

    /// The XML document.
    var xml: String {
        let outcomes = run.outcomes
        let tests = outcomes.rendered.count + outcomes.skipped.count + outcomes.failed.count
        let counts = "tests=\"\(tests)\" failures=\"\(outcomes.failed.count)\" errors=\"0\" skipped=\"\(outcomes.skipped.count)\" "
            + "time=\"\(Self.seconds(run.seconds))\""
        let suite = run.isBatch ? "aurender batch" : "aurender render"
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"aurender\" \(counts)>\n"
        xml += "  <testsuite name=\"\(suite)\" \(counts)>\n"
        xml += "    <properties>\n"
        for (name, value) in [("aurender", outcomes.aurender), ("command", run.commandLine)] + run.optionProperties {
            xml += "      <property name=\"\(Self.escaped(name))\" value=\"\(Self.escaped(value))\"/>\n"
        }
        xml += "    </properties>\n"
        let classname = run.isBatch ? "aurender.batch" : "aurender.render"
        for report in outcomes.rendered {
            let name = report.inputs.joined(separator: " + ")
            xml += "    <testcase name=\"\(Self.escaped(name))\" classname=\"\(classname)\" time=\"\(Self.seconds(report.renderSeconds))\">\n"
            xml += "      <system-out>\(Self.escaped(Self.summary(report)))</system-out>\n"
            xml += "    </testcase>\n"
        }
        for skipped in outcomes.skipped {
            xml += "    <testcase name=\"\(Self.escaped(skipped.input))\" classname=\"\(classname)\" time=\"0\">\n"
            xml += "      <skipped message=\"\(Self.escaped(skipped.reason ?? "skipped"))\"/>\n"
            xml += "    </testcase>\n"
        }
        for failed in outcomes.failed {
            let message = failed.error ?? "failed"
            xml += "    <testcase name=\"\(Self.escaped(failed.input))\" classname=\"\(classname)\" time=\"0\">\n"
            xml += "      <failure message=\"\(Self.escaped(message))\" type=\"exit \(failed.exitStatus ?? 1)\">\(Self.escaped(message))</failure>\n"
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    /// What a rendered file's case says: where it went and what it measured.
    private static func summary(_ report: RenderReport) -> String {
        var parts = ["\(report.output): \(report.frames) frames, \(report.durationSeconds) s"]
        if let peak = report.peakDBFS { parts.append("peak \(peak) dBFS") }
        if report.clippedSamples > 0 { parts.append("\(report.clippedSamples) samples clipped") }
        return parts.joined(separator: ", ")
    }

    /// Seconds as JUnit gives them, to the millisecond.
    private static func seconds(_ value: Double) -> String {
        String((value * 1000).rounded() / 1000)
    }

    /// `text` with XML's special characters escaped, and control characters XML 1.0 cannot hold replaced.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value): result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
