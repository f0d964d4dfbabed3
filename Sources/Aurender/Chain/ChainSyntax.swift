import AudioDSP
import AudioNodes

/// A chain written as text, `STAGE | STAGE | …`, each stage `KIND FIELD=VALUE …`: the kinds and
/// fields of graph files, in the order given, any kind any number of times.
///
/// Values are written as in graph files, with their units (`-3dB`, `80`, `500ms`); a value that
/// holds spaces or a `|` is quoted, with `"` or `'`. A plain number is a number, `true` and
/// `false` a switch, anything else (and anything quoted) text. A filter shape (`highpass`,
/// `lowpass`, `peak`, `lowshelf`, `highshelf`, `bandpass`, `bandstop`) is short for a `filter` of
/// that one band, whose fields it takes (`highpass frequency=80`). A kind given again gets a
/// numbered name (`eq`, `eq 2`), as names are unique in a graph.
public enum ChainSyntax {
    /// The stages `text` states, checked against their kinds; a mistake is a `ChainError`
    /// naming the stage's position, its kind and the field.
    public static func parse(_ text: String) throws(ChainError) -> [ChainStage] {
        let written = try split(text)
        var stages: [ChainStage] = []
        for (index, words) in written.enumerated() {
            let position = index + 1
            guard let kind = words.first else {
                throw ChainError(position: position, kind: "", field: nil, problem: "empty: write KIND FIELD=VALUE …, as 'eq preset=Rock'")
            }
            var fields: [String: SettingValue] = [:]
            for word in words.dropFirst() {
                guard let equals = word.text.firstIndex(of: "="), equals != word.text.startIndex else {
                    throw ChainError(position: position, kind: kind.text, field: nil, problem: "expected FIELD=VALUE, not '\(word.text)'")
                }
                let field = String(word.text[..<equals])
                guard fields[field] == nil else { throw ChainError(position: position, kind: kind.text, field: field, problem: "given twice") }
                let value = String(word.text[word.text.index(after: equals)...])
                fields[field] = word.valueQuoted ? .text(value) : Self.value(value)
            }
            if let shape = FilterShape(rawValue: kind.text) {
                fields["type"] = .text(shape.rawValue)
                stages.append(ChainStage("filter", name: shape.rawValue, fields: ["bands": .list([.object(fields)])]))
            } else {
                stages.append(ChainStage(kind.text, fields: fields))
            }
        }
        return try Chain(stages).stages
    }

    /// An unquoted value: a number, a switch, or text.
    private static func value(_ text: String) -> SettingValue {
        if text == "true" || text == "false" { return .flag(text == "true") }
        if let number = Double(text), number.isFinite { return .number(number) }
        return .text(text)
    }

    /// One word of a stage: its text without quotes, and whether the part after its `=` was quoted.
    private struct Word {
        var text = ""
        var valueQuoted = false
    }

    /// The stages' words: split at `|` and spaces outside quotes.
    private static func split(_ text: String) throws(ChainError) -> [[Word]] {
        var stages: [[Word]] = [[]]
        var word: Word?
        var quote: Character?
        func finish() {
            if let done = word { stages[stages.count - 1].append(done) }
            word = nil
        }
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { word!.text.append(character) }
                continue
            }
            switch character {
            case "\"", "'":
                quote = character
                if word == nil { word = Word() }
                if word!.text.hasSuffix("=") { word!.valueQuoted = true }
            case "|":
                finish()
                stages.append([])
            case _ where character.isWhitespace:
                finish()
            default:
                if word == nil { word = Word() }
                word!.text.append(character)
            }
        }
        if let quote {
            throw ChainError(position: stages.count, kind: stages.last?.first?.text ?? "", field: nil, problem: "a \(quote) is not closed")
        }
        finish()
        return stages
    }
}
