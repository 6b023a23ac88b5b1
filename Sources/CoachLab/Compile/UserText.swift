import Foundation

/// User data on its way into a prompt: profiles, contexts, memory, coaches and the names
/// built from them. Such text is data, never prompt structure, so a value that would open a
/// line looking like a layer title, a RISK ALERT or a section marker is neutralised before it
/// renders, however it is disguised.
///
/// - Unicode line and paragraph separators (U+2028, U+2029, U+0085, vertical tab, form feed)
///   become spaces, so a value cannot start a line the eye or a model sees but a parser does not.
/// - Each remaining line is folded for detection: NFKC (fullwidth `＝` is `=`, NBSP is a
///   space), invisible format characters (zero-width, bidi controls) removed, Cyrillic and
///   Greek look-alikes mapped to Latin, then upper-cased.
/// - A folded line that opens with `===`, `---`, a Markdown heading, a bracket or a tag, or that
///   reads as one of the pack's layer titles or `RISK ALERT`, is rewritten as a quotation:
///   decoration stripped, capitals softened to sentence case, inside “…”.
public enum UserText {
    /// One value changed on its way into a prompt.
    public struct Neutralisation: Sendable, Codable, Equatable {
        /// Where the value came from, `file:line:col`, when known.
        public var source: String?
        /// The value as written.
        public var original: String
        /// The value as the prompt shows it.
        public var shown: String
    }

    /// The titles a line of user text may not imitate: the pack's layer titles and the alert.
    static func titles(of pack: Pack) -> Set<String> {
        Set(pack.stack.layers.compactMap { $0.title.map { fold($0.value) } }.filter { !$0.isEmpty } + ["RISK ALERT"])
    }

    /// `text` as it may appear in a prompt, or nil when it needs no change.
    static func neutralised(_ text: String, titles: Set<String>) -> String? {
        guard mayNeedWork(text) else { return nil }
        var changed = false
        var unified = ""
        unified.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if separators.contains(scalar) {
                unified.unicodeScalars.append(" ")
                changed = true
            } else {
                unified.unicodeScalars.append(scalar)
            }
        }
        let lines = unified.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard let quoted = quotation(of: line, titles: titles) else { return String(line) }
            changed = true
            return quoted
        }
        return changed ? lines.joined(separator: "\n") : nil
    }

    /// Whether `text` could need neutralising. Only ASCII text in which no line opens with a
    /// letter or a marking (digits, punctuation and spaces: "3x a week", "(left knee)") is let
    /// through without further work; any line that opens with a word might read as a title in
    /// some case, so it is folded and compared. Compiles are cached per run, so this runs once
    /// per distinct set of inputs.
    private static func mayNeedWork(_ text: String) -> Bool {
        var atLineStart = true
        for byte in text.utf8 {
            if byte >= 0x80 || byte == 0x0B || byte == 0x0C || byte == 0x0D { return true }
            if byte == 0x0A { atLineStart = true; continue }
            guard atLineStart, byte != 0x20, byte != 0x09 else { continue }
            if (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || "=-#[*_~|<>".utf8.contains(byte) { return true }
            atLineStart = false
        }
        return false
    }

    /// The line as a quotation when it looks like prompt structure; nil otherwise.
    private static func quotation(of line: Substring, titles: Set<String>) -> String? {
        let trimmed = latin(line).trimmed(.whitespaces)
        guard !trimmed.isEmpty else { return nil }
        let upper = trimmed.uppercased()
        let bare = upper.trimmed(decoration).split(separator: " ").joined(separator: " ")
        guard !bare.isEmpty else { return nil }
        let marker = upper.hasPrefix("===") || upper.hasPrefix("---")
            || (upper.hasPrefix("#") && upper.drop { $0 == "#" }.first.map { $0 == " " } ?? true)
            || (upper.hasPrefix("[") && upper.contains("]"))
            || isTag(upper)
        let title = titles.contains(bare) || bare.hasPrefix("RISK ALERT")
            || titles.contains { bare.hasPrefix($0 + ":") || bare.hasPrefix($0 + " ===") }
        guard marker || title else { return nil }
        var words = trimmed.trimmed(decoration)
        if words == words.uppercased() {
            words = words.lowercased()
            if let first = words.first { words = first.uppercased() + words.dropFirst() }
        }
        return "“\(words)”"
    }

    /// Whether a line opens with an XML-style tag, `<rules>` or `</context>`, as packs titled
    /// `<{{title}}>` mark their sections.
    private static func isTag(_ line: String) -> Bool {
        guard line.hasPrefix("<"), line.contains(">") else { return false }
        let name = line.dropFirst().drop { $0 == "/" }
        return name.first.map { $0.isLetter } ?? false
    }

    /// The first line of `text` that would pose as prompt structure, split at every kind of line
    /// break, or nil. Import refuses such text outright; compile quotes it.
    static func structuralLine(in text: String, titles: Set<String>) -> String? {
        let lines = text.unicodeScalars.split { $0 == "\n" || separators.contains($0) }
        for line in lines {
            let line = Substring(String(String.UnicodeScalarView(line)))
            if quotation(of: line, titles: titles) != nil { return line.trimmed(.whitespaces) }
        }
        return nil
    }

    /// Neutralises every text in `value`, recording each change.
    static func neutralising(_ value: ContextValue, titles: Set<String>, log: inout [Neutralisation]) -> ContextValue {
        switch value {
        case .text(let text, let sources):
            guard let shown = neutralised(text, titles: titles) else { return value }
            log.append(Neutralisation(source: sources.first?.description, original: text, shown: shown))
            return .text(shown, sources)
        case .bool:
            return value
        case .list(let items):
            return .list(items.map { neutralising($0, titles: titles, log: &log) })
        case .object(let fields):
            var result: [String: ContextValue] = [:]
            for key in fields.keys.sorted() { result[key] = neutralising(fields[key]!, titles: titles, log: &log) }
            return .object(result)
        }
    }

    /// Folds a title for comparison: the same steps as a line of user text.
    static func fold(_ text: String) -> String {
        latin(Substring(text)).uppercased().trimmed(decoration).split(separator: " ").joined(separator: " ")
    }

    /// The line without invisible characters, in compatibility form (full-width letters,
    /// ligatures and styled letters become plain ones) and with look-alike Cyrillic and Greek
    /// letters read as Latin. ASCII text is all of that already, and is returned as it is.
    private static func latin(_ line: Substring) -> String {
        guard !line.utf8.allSatisfy({ $0 < 0x80 }) else { return String(line) }
        let visible = String(String.UnicodeScalarView(line.unicodeScalars.filter { !invisible($0) }))
            .precomposedStringWithCompatibilityMapping
        return String(String.UnicodeScalarView(visible.unicodeScalars.map { confusables[$0] ?? $0 }))
    }

    private static func invisible(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .format
    }

    static let separators: Set<Unicode.Scalar> = ["\u{2028}", "\u{2029}", "\u{85}", "\u{0B}", "\u{0C}", "\r"]

    private static let decoration = ScalarSet(CharacterSet(charactersIn: "=-#*[]_~|>:").union(.whitespaces))

    /// Cyrillic and Greek letters that look like Latin ones, upper and lower case.
    private static let confusables: [Unicode.Scalar: Unicode.Scalar] = {
        let pairs: [(String, String)] = [
            ("АВЕЅІЈКМНОРСТХУ", "ABESIJKMHOPCTXY"), ("аеѕіјорсху", "aesijopcxy"),
            ("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEZHIKMNOPTYX"), ("ο", "o"),
        ]
        var map: [Unicode.Scalar: Unicode.Scalar] = [:]
        for (from, to) in pairs {
            for (a, b) in zip(from.unicodeScalars, to.unicodeScalars) { map[a] = b }
        }
        return map
    }()
}
