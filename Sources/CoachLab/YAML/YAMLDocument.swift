import Foundation
import Yams

/// Parses YAML text into a located ``YAMLValue``, turning every kind of bad input (binary
/// junk, tabs, syntax errors, duplicate keys, anchors gone wrong) into a diagnostic at the
/// right line and column.
public enum YAMLDocument {
    /// The largest content file accepted. Packs are small; anything bigger is a mistake.
    public static let maximumSize = 2 * 1024 * 1024

    /// Parses one YAML document.
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - file: The path used in locations.
    /// - Returns: The root value.
    /// - Throws: ``CoachLabError`` of kind `.content` with a located diagnostic.
    public static func parse(_ data: Data, file: String) throws -> YAMLValue {
        let start = SourceLocation(file: file, line: 1, column: 1)
        guard data.count <= maximumSize else {
            throw CoachLabError(.content, "file is \(data.count) bytes; content files may be at most \(maximumSize) bytes",
                                at: start, hint: "split it into several files and list them under 'include'")
        }
        if let nul = data.withUnsafeBytes({ $0.firstIndex(of: 0) }) {
            throw CoachLabError(.content, "file contains a NUL byte; it looks binary, not YAML",
                                at: location(ofByte: nul, in: data, file: file))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            let offset = firstInvalidUTF8Offset(data)
            throw CoachLabError(.content, "file is not valid UTF-8", at: location(ofByte: offset, in: data, file: file),
                                hint: "save the file as UTF-8")
        }
        return try parse(text, file: file)
    }

    /// Parses YAML text. See ``parse(_:file:)-(Data,String)``.
    public static func parse(_ text: String, file: String) throws -> YAMLValue {
        let start = SourceLocation(file: file, line: 1, column: 1)
        if hasNoContent(text) {
            throw CoachLabError(.content, "file is empty", at: start, hint: "an empty file defines nothing; delete it or add content")
        }
        if let tab = firstIndentingTab(in: text) {
            throw CoachLabError(.content, "tab character used for indentation",
                                at: SourceLocation(file: file, line: tab.line, column: tab.column),
                                hint: "YAML indents with spaces only; replace the tab with spaces")
        }
        let node: Node?
        do {
            // Content is text: no scalar is resolved to a number, a date or a merge key, so the
            // basic resolver saves a dozen regular expressions per scalar, and keys that differ
            // only in quoting are duplicates.
            // The encoding is given because Yams' default reads the whole process environment
            // on every parse.
            let parser = try Parser(yaml: text, resolver: .basic, encoding: .utf8)
            node = try parser.singleRoot()
        } catch let error as YamlError {
            throw CoachLabError(.content, [diagnostic(for: error, text: text, file: file)])
        } catch {
            throw CoachLabError(.content, "cannot parse YAML: \(error)", at: start)
        }
        guard let node else {
            throw CoachLabError(.content, "file is empty", at: start)
        }
        // Lines are needed only to find anchors and aliases (`&`, `*`) and where a block scalar
        // (`|`, `>`) starts; most fixtures have none of the four bytes.
        let needsLines = text.utf8.contains { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "*")
            || $0 == UInt8(ascii: "|") || $0 == UInt8(ascii: ">") }
        let lines = needsLines ? Lines(text) : Lines()
        if needsLines, let anchored = firstAnchoredNode(in: node, lines: lines) {
            let mark = anchored.mark.map { SourceLocation(file: file, line: $0.line, column: $0.column) } ?? start
            throw CoachLabError(.content, "YAML anchors and aliases are not supported in CoachLab content", at: mark,
                                hint: "write the value out, or share it through 'include'")
        }
        var diagnostics = Diagnostics()
        let value = convert(node, file: file, lines: lines, diagnostics: &diagnostics)
        if diagnostics.hasErrors { throw CoachLabError(.content, diagnostics.sorted) }
        return value
    }

    private static func convert(_ node: Node, file: String, lines: Lines, diagnostics: inout Diagnostics) -> YAMLValue {
        let location = node.mark.map { SourceLocation(file: file, line: $0.line, column: $0.column) }
            ?? SourceLocation(file: file, line: 1, column: 1)
        switch node {
        case .scalar(let scalar):
            let style: YAMLValue.Scalar.Style
            switch scalar.style {
            case .singleQuoted, .doubleQuoted: style = .quoted
            case .literal, .folded: style = .block
            default: style = .plain
            }
            var start = location
            switch style {
            case .block: start = blockContentStart(after: location, lines: lines)
            case .quoted: start.column += 1  // the text starts after the opening quote
            case .plain: break
            }
            return .scalar(.init(text: scalar.string, style: style, location: start))
        case .sequence(let sequence):
            return .sequence(sequence.map { convert($0, file: file, lines: lines, diagnostics: &diagnostics) }, location)
        case .mapping(let mapping):
            var entries: [YAMLValue.Entry] = []
            for (key, value) in mapping {
                let keyLocation = key.mark.map { SourceLocation(file: file, line: $0.line, column: $0.column) } ?? location
                guard case .scalar(let keyScalar) = key else {
                    diagnostics.error("mapping keys must be plain text, not a list or mapping", at: keyLocation)
                    continue
                }
                entries.append(.init(key: keyScalar.string, keyLocation: keyLocation,
                                     value: convert(value, file: file, lines: lines, diagnostics: &diagnostics)))
            }
            return .mapping(entries, location)
        case .alias:
            diagnostics.error("YAML aliases are not supported in CoachLab content", at: location,
                              hint: "write the value out, or share it through 'include'")
            return .scalar(.init(text: "", style: .plain, location: location))
        }
    }

    /// The first node, in document order, that is anchored (`&name`) or repeated by an alias
    /// (`*name`). Yams resolves an alias to the anchored node itself and does not keep the
    /// anchor's name, so both are found from marks: an anchored node's mark is its `&` (or a tag before it), and an
    /// alias shows up as a node whose mark lies before one already walked. The walk stops at the
    /// first of either, so an alias bomb is refused after its first line, never expanded.
    private static func firstAnchoredNode(in root: Node, lines: Lines) -> Node? {
        var pending = [root]
        var furthest = (line: 0, column: 0)
        while let node = pending.popLast() {
            if let mark = node.mark {
                if (mark.line, mark.column) < furthest { return node }
                furthest = (mark.line, mark.column)
                if mark.line >= 1, mark.line <= lines.count, mark.column >= 1 {
                    // A node's properties come first: an optional tag (`!!map`), then the anchor.
                    var rest = lines.bytes(ofLine: mark.line - 1).droppingScalars(mark.column - 1)
                    if rest.first == UInt8(ascii: "!") {
                        rest = rest.drop { $0 != UInt8(ascii: " ") }.drop { $0 == UInt8(ascii: " ") }
                    }
                    if rest.first == UInt8(ascii: "&") { return node }
                }
            }
            switch node {
            case .scalar, .alias: break
            case .sequence(let sequence): pending.append(contentsOf: sequence.reversed())
            case .mapping(let mapping):
                for (key, value) in mapping.reversed() { pending.append(value); pending.append(key) }
            }
        }
        return nil
    }

    /// A block scalar's mark is its `|` or `>` indicator; its text starts on the next
    /// non-blank line, at that line's indentation. Locations point at the text itself.
    private static func blockContentStart(after indicator: SourceLocation, lines: Lines) -> SourceLocation {
        var index = indicator.line
        while index < lines.count {
            let line = lines.bytes(ofLine: index)
            if !line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) {
                let indent = line.prefix { $0 == UInt8(ascii: " ") }.count
                return SourceLocation(file: indicator.file, line: index + 1, column: indent + 1)
            }
            index += 1
        }
        return indicator
    }

    /// The lines of a document as byte ranges, found once: marks name a line and a column, and
    /// only a few nodes need to look at the text there. Lines end at LF, so a CRLF line keeps
    /// its CR.
    struct Lines {
        private let utf8: [UInt8]
        private let starts: [Int]

        init() {
            utf8 = []
            starts = []
        }

        init(_ text: String) {
            utf8 = Array(text.utf8)
            var starts = [0]
            for (offset, byte) in utf8.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
            self.starts = starts
        }

        var count: Int { starts.count }

        /// The bytes of line `index` (from 0), without its line feed.
        func bytes(ofLine index: Int) -> ArraySlice<UInt8> {
            let end = index + 1 < starts.count ? starts[index + 1] - 1 : utf8.count
            return utf8[starts[index]..<end]
        }
    }

    private static func diagnostic(for error: YamlError, text: String, file: String) -> Diagnostic {
        func place(_ line: Int, _ column: Int) -> SourceLocation {
            SourceLocation(file: file, line: max(line, 1), column: max(column, 1))
        }
        switch error {
        case .scanner(let context, let problem, let mark, _),
             .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            var message = "invalid YAML: \(problem)"
            if let context { message += " (\(context.text) at line \(context.mark.line))" }
            return .error(message, at: place(mark.line, mark.column), hint: hint(forProblem: problem))
        case .reader(let problem, let offset, _, _):
            let where_ = offset.map { Self.location(ofCharacter: $0, in: text, file: file) } ?? place(1, 1)
            return .error("cannot read YAML: \(problem)", at: where_)
        case .duplicatedKeysInMapping(let duplicates, let context):
            let key = duplicates.first ?? "?"
            let repeatAt = secondOccurrence(ofKey: key, after: context.mark, in: text)
                ?? (context.mark.line, context.mark.column)
            return .error("duplicate key '\(key)' in mapping (first defined at line \(context.mark.line))",
                          at: place(repeatAt.0, repeatAt.1),
                          hint: "each key may appear once; remove or rename one of them")
        default:
            return .error("cannot parse YAML: \(error)", at: SourceLocation(file: file, line: 1, column: 1))
        }
    }

    private static func hint(forProblem problem: String) -> String? {
        if problem.contains("mapping values are not allowed") {
            return "a value containing ': ' must be quoted, or the indentation is off"
        }
        if problem.contains("did not find expected key") || problem.contains("did not find expected '-'") {
            return "check the indentation of this line against its siblings"
        }
        if problem.contains("found unexpected end of stream") || problem.contains("found unknown escape") {
            return "check for an unclosed quote"
        }
        return nil
    }

    /// Finds the line where a duplicated key appears again, at the same column as the first.
    private static func secondOccurrence(ofKey key: String, after first: Mark, in text: String) -> (Int, Int)? {
        let lines = characterLines(text)
        guard first.line >= 1, first.line <= lines.count else { return nil }
        let indent = first.column - 1
        for index in first.line..<lines.count {
            let line = Array(lines[index].unicodeScalars)
            guard line.count > indent else { continue }
            let prefix = String(String.UnicodeScalarView(line[..<indent]))
            if !prefix.allSatisfy({ $0 == " " || $0 == "-" }) { continue }
            let rest = String(String.UnicodeScalarView(line[indent...]))
            for candidate in [key, "\"\(key)\"", "'\(key)'"] where rest.hasPrefix(candidate + ":") {
                return (index + 1, first.column)
            }
        }
        return nil
    }

    /// Whether every line is blank or a comment (the first line with content decides). Scans
    /// bytes; text with anything outside ASCII before its first content is judged by
    /// `Character`'s whitespace and newline rules instead.
    static func hasNoContent(_ text: String) -> Bool {
        var inComment = false
        for byte in text.utf8 {
            switch byte {
            case 0x80...:  // possibly a Unicode space or line break, even inside a comment
                return text.split(whereSeparator: \.isNewline).allSatisfy { line in
                    line.first { !$0.isWhitespace }.map { $0 == "#" } ?? true
                }
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0B, 0x0C: inComment = false
            case _ where inComment: continue
            case UInt8(ascii: " "), UInt8(ascii: "\t"): continue
            case UInt8(ascii: "#"): inComment = true
            default: return false
            }
        }
        return true
    }

    private static func firstIndentingTab(in text: String) -> (line: Int, column: Int)? {
        guard text.utf8.contains(UInt8(ascii: "\t")) else { return nil }
        var lineNumber = 0
        var inBlockScalar = false
        var blockIndent = 0
        for line in characterLines(text) {
            lineNumber += 1
            let leading = line.prefix { $0 == " " || $0 == "\t" }
            let content = line.dropFirst(leading.count)
            if inBlockScalar {
                if content.isEmpty || leading.count > blockIndent { continue }
                inBlockScalar = false
            }
            if let tabIndex = leading.firstIndex(of: "\t"), !content.isEmpty, !content.hasPrefix("#") {
                return (lineNumber, line.distance(from: line.startIndex, to: tabIndex) + 1)
            }
            let trimmed = content.trimmed(.whitespaces)
            if let last = trimmed.split(separator: " ").last, last.hasPrefix("|") || last.hasPrefix(">"),
               last.count <= 3, trimmed.contains(":") || trimmed.hasPrefix("-") {
                inBlockScalar = true
                blockIndent = leading.count
            }
        }
        return nil
    }

    /// The lines of a text as characters, split at LF and CRLF alike: Swift reads "\r\n" as
    /// one character, which splitting at "\n" alone never finds.
    private static func characterLines(_ text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
    }

    static func location(ofByte offset: Int, in data: Data, file: String) -> SourceLocation {
        var line = 1, column = 1
        for byte in data.prefix(offset) {
            if byte == 0x0A { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return SourceLocation(file: file, line: line, column: column)
    }

    static func location(ofCharacter offset: Int, in text: String, file: String) -> SourceLocation {
        var line = 1, column = 1
        for character in text.prefix(offset) {
            if character.isNewline { line += 1; column = 1 } else { column += 1 }
        }
        return SourceLocation(file: file, line: line, column: column)
    }

    private static func firstInvalidUTF8Offset(_ data: Data) -> Int {
        let bytes = [UInt8](data)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length: Int
            switch byte {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return index
            }
            if index + length > bytes.count { return index }
            for continuation in bytes[(index + 1)..<(index + length)] where continuation & 0xC0 != 0x80 { return index }
            if String(bytes: bytes[index..<(index + length)], encoding: .utf8) == nil { return index }
            index += length
        }
        return 0
    }
}

extension ArraySlice<UInt8> {
    /// What follows the first `count` Unicode scalars of these UTF-8 bytes.
    func droppingScalars(_ count: Int) -> ArraySlice<UInt8> {
        var seen = 0
        var index = startIndex
        while index < endIndex {
            // A scalar starts at every byte that is not a continuation byte.
            if self[index] & 0xC0 != 0x80 {
                if seen == count { break }
                seen += 1
            }
            index += 1
        }
        return self[index...]
    }
}
