import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import TestSupport
import Testing

/// An XML element as parsed: its name, attributes, text and children.
final class XMLElementNode {
    let name: String
    let attributes: [String: String]
    var text = ""
    var children: [XMLElementNode] = []

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    func children(named name: String) -> [XMLElementNode] { children.filter { $0.name == name } }

    /// The document at `path`, parsed; fails the test when it is not well-formed XML.
    static func parse(_ path: String) throws -> XMLElementNode {
        let parser = XMLParser(data: try Data(contentsOf: URL(fileURLWithPath: path)))
        let builder = Builder()
        parser.delegate = builder
        let parsed = parser.parse()
        #expect(parsed, "\(path) is not well-formed: \(parser.parserError.map { "\($0)" } ?? "")")
        return try #require(builder.root)
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var root: XMLElementNode?
        var open: [XMLElementNode] = []

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            let element = XMLElementNode(name: name, attributes: attributes)
            if let parent = open.last { parent.children.append(element) } else { root = element }
            open.append(element)
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { open.last?.text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) { open.removeLast() }
    }
}

/// `--junit FILE.xml`: the run as the JUnit XML CI systems read (testsuites, testsuite with
/// properties, a test case per input, failures and skips with their reasons).
@Suite struct JUnitReportTests {
    /// The elements and attributes JUnit readers (the Jenkins/Ant schema) allow where they appear.
    func checkStructure(_ root: XMLElementNode) throws -> XMLElementNode {
        #expect(root.name == "testsuites")
        let suites = root.children(named: "testsuite")
        #expect(suites.count == 1)
        let suite = try #require(suites.first)
        #expect(suite.children.first?.name == "properties", "properties come first")
        for element in suite.children.dropFirst() { #expect(element.name == "testcase") }
        for attribute in ["name", "tests", "failures", "errors", "skipped", "time"] {
            #expect(suite.attributes[attribute] != nil, "testsuite has \(attribute)")
            if attribute != "name" { #expect(root.attributes[attribute] == suite.attributes[attribute], "testsuites' \(attribute) sums its one suite's") }
        }
        for testCase in suite.children(named: "testcase") {
            #expect(testCase.attributes["name"]?.isEmpty == false)
            #expect(testCase.attributes["classname"]?.isEmpty == false)
            #expect(Double(testCase.attributes["time"] ?? "") != nil, "time is a number of seconds")
            #expect(testCase.children.allSatisfy { ["failure", "skipped", "system-out"].contains($0.name) })
        }
        return suite
    }

    @Test func aBatchGivesACasePerInputWithItsFailuresSkipsAndOptions() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("in"), withIntermediateDirectories: true)
        for name in ["music.wav", "speech.flac"] { try FileManager.default.copyItem(atPath: fixture(name), toPath: folder.file("in/\(name)")) }
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: folder.file("in/bad.wav")))
        try FileManager.default.createDirectory(atPath: folder.file("out"), withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: folder.file("out/speech.flac")))

        let result = try aurender(["--eq", "Rock", "-o", folder.file("out"), folder.file("in"), "--skip-existing",
                                   "--junit", folder.file("junit.xml")])
        #expect(result.status == 65)
        let suite = try checkStructure(try XMLElementNode.parse(folder.file("junit.xml")))
        #expect(suite.attributes["tests"] == "3")
        #expect(suite.attributes["failures"] == "1")
        #expect(suite.attributes["skipped"] == "1")
        #expect(suite.attributes["errors"] == "0")
        let cases = Dictionary(uniqueKeysWithValues: suite.children(named: "testcase").map { ($0.attributes["name"] ?? "", $0) })
        #expect(Set(cases.keys) == [folder.file("in/music.wav"), folder.file("in/speech.flac"), folder.file("in/bad.wav")])

        let failure = try #require(cases[folder.file("in/bad.wav")]?.children(named: "failure").first)
        let printed = result.standardError.split(separator: "\n").first { $0.contains("bad.wav") }.map { String($0.dropFirst("aurender: ".count)) }
        #expect(failure.attributes["message"] == printed, "the failure is the line the batch printed")
        #expect(failure.attributes["type"] == "exit 65")
        let skipped = try #require(cases[folder.file("in/speech.flac")]?.children(named: "skipped").first)
        #expect(skipped.attributes["message"] == "\(folder.file("out/speech.flac")) exists")
        let rendered = try #require(cases[folder.file("in/music.wav")])
        #expect(rendered.children(named: "failure").isEmpty && rendered.children(named: "skipped").isEmpty)
        #expect((Double(rendered.attributes["time"] ?? "") ?? 0) > 0, "a rendered file is timed")
        #expect(rendered.children(named: "system-out").first?.text.hasPrefix(folder.file("out/music.wav") + ": 132300 frames") == true)

        let properties = Dictionary(uniqueKeysWithValues: try #require(suite.children(named: "properties").first).children(named: "property")
            .map { ($0.attributes["name"] ?? "", $0.attributes["value"] ?? "") })
        #expect(properties["eqPreset"] == "Rock")
        #expect(properties["command"]?.hasPrefix("aurender --eq Rock -o ") == true)
        #expect(properties["aurender"]?.isEmpty == false)
    }

    @Test func aFailedSingleRenderStillWritesItsCaseAndExitsWithTheFailure() throws {
        let folder = try TemporaryFolder()
        try Data("RIFF\u{0}\u{0}".utf8).write(to: URL(fileURLWithPath: folder.file("cut.wav")))
        let result = try aurender([folder.file("cut.wav"), folder.file("out.wav"), "--junit", folder.file("junit.xml")])
        #expect(result.status == 65)
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
        let suite = try checkStructure(try XMLElementNode.parse(folder.file("junit.xml")))
        #expect(suite.attributes["tests"] == "1" && suite.attributes["failures"] == "1")
        let failure = try #require(suite.children(named: "testcase").first?.children(named: "failure").first)
        #expect("aurender: " + (failure.attributes["message"] ?? "") + "\n" == result.standardError)
    }

    @Test func namesThatXMLHoldsOnlyEscapedAreEscaped() throws {
        let folder = try TemporaryFolder()
        let input = folder.file("a & <b> \"c\".wav")
        try FileManager.default.copyItem(atPath: fixture("music.wav"), toPath: input)
        let result = try aurender([input, folder.file("out.wav"), "--junit", folder.file("junit.xml")])
        #expect(result.status == 0, "\(result.standardError)")
        let suite = try checkStructure(try XMLElementNode.parse(folder.file("junit.xml")))
        #expect(suite.children(named: "testcase").first?.attributes["name"] == input)
    }

    @Test func reportsThatWouldWriteNothingAreRefused() throws {
        let folder = try TemporaryFolder()
        let result = try aurender([fixture("music.wav"), folder.file("out.wav"), "--dry-run", "--junit", folder.file("junit.xml")])
        #expect(result.status == 64)
        #expect(result.standardError.contains("--junit does not apply to --dry-run, which renders nothing"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("junit.xml")))
    }
}
