@testable import CoachLab
import Foundation
import Testing
import Yams

/// ``YAMLComposer`` reads libyaml's events where content was once composed into Yams nodes
/// and converted. The Yams reading is kept here as the reference: both must give the same
/// value, locations included, or the same diagnostics, on every shipped content file, the
/// malformed-input corpus, hand-picked edge cases and thousands of random edits of them.
@Suite struct YAMLComposerReferenceTests {
    /// What a reading gives: the value, or the diagnostics it threw.
    enum Outcome: Equatable, CustomStringConvertible {
        case value(YAMLValue)
        case refused([String])

        var description: String {
            switch self {
            case .value(let value): "value \(value)"
            case .refused(let messages): "refused \(messages)"
            }
        }
    }

    static func current(_ text: String) -> Outcome {
        do { return .value(try YAMLDocument.parse(text, file: "a.yaml")) } catch let error as CoachLabError {
            return .refused(error.diagnostics.map(\.description))
        } catch { return .refused(["\(error)"]) }
    }

    static func reference(_ text: String) -> Outcome {
        do { return .value(try YamsReading.parse(text, file: "a.yaml")) } catch let error as CoachLabError {
            return .refused(error.diagnostics.map(\.description))
        } catch { return .refused(["\(error)"]) }
    }

    /// Every YAML file the project ships, and the malformed corpus.
    static let seeds: [String] = {
        let manager = FileManager.default
        var texts: [String] = []
        for folder in ["personas", "fixtures", "evals", "Tests/CoachLabTests/Malformed"] {
            let base = TestSupport.root + "/" + folder
            guard let walker = manager.enumerator(atPath: base) else { continue }
            for case let path as String in walker where path.hasSuffix(".yaml") {
                if let data = manager.contents(atPath: base + "/" + path), let text = String(data: data, encoding: .utf8) {
                    texts.append(text)
                }
            }
        }
        return texts
    }()

    @Test func theSeedsAreThere() {
        #expect(Self.seeds.count > 150)
    }

    @Test func everyShippedFileReadsAsYamsReadIt() {
        for text in Self.seeds {
            let (current, reference) = (Self.current(text), Self.reference(text))
            #expect(current == reference, "\(text.prefix(200))")
        }
    }

    @Test(arguments: [
        "a: 1\na: 2\n", "a: 1\nb: 2\na: 3\nb: 4\n", "z: 1\nz: 2\nb: 1\nb: 2\n", "'a': 1\na: 2\n", "!!str a: 1\na: 2\n",
        "outer:\n  x: 1\n  x: 2\nouter: 3\n", "- {a: 1, a: 2}\n", "a: &x 1\nb: *x\n", "a: *nothing\n", "- &a [1]\n- *a\n",
        "!!map &m {a: 1}\n", "a: b: c\n", "a: 'open\n", "key: \"bad \\q escape\"\n", "- a\nb: c\n", "---\na: 1\n---\nb: 2\n",
        "---\n", "--- |\n  text\n", "a: |\n\n   text\n  \nb: >\n  folded\n", "? [a, b]\n: c\n", "? {a: 1}\n: c\n",
        "[a, b]: c\nd: e\n", "a: \u{1}\n", "a: b\u{85}c\n", "é: ü\nkey: \"\u{1F600}\"\n", "a:\r\n  b: 1\r\n  b: 2\r\n",
        "list:\n- a\n-  b\n - c\n", "{a: 1, b: [x, {c: d}]}\n", "a: !!int 1\n", "a: \"x\\0y\"\n", "k: v\n...\n",
        String(repeating: "[", count: 1_200) + String(repeating: "]", count: 1_200),
        (0..<40).map { "key\($0): value \($0)" }.joined(separator: "\n") + "\nkey7: again\n",
    ])
    func edgeCasesReadAsYamsReadThem(_ text: String) {
        #expect(Self.current(text) == Self.reference(text))
    }

    /// Random edits of the seeds: deleted spans, inserted YAML punctuation, repeated and
    /// swapped lines. Most edits break the file; the two readings must break it alike.
    @Test func randomEditsReadAsYamsReadThem() {
        let pieces = [":", ": ", "- ", "&a ", "*a", "*b", "'", "\"", "|", ">", "\n", "  ", "{", "}", "[", "]", "? ", "!!str ",
                      "#", "---\n", "\u{1}", "é", ",", "\r\n", "\\", "%YAML 1.1\n", "@", "`", "&b ", "!x ", "...\n"]
        var generator = SeededGenerator(seed: 20261127)
        var refused = 0, read = 0
        for round in 0..<3_000 {
            let seed = Self.seeds[round % Self.seeds.count]
            var lines = seed.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for _ in 0...Int.random(in: 0...2, using: &generator) {
                let line = Int.random(in: 0..<lines.count, using: &generator)
                switch Int.random(in: 0..<5, using: &generator) {
                case 0:
                    var characters = Array(lines[line])
                    let at = Int.random(in: 0...characters.count, using: &generator)
                    characters.insert(contentsOf: pieces.randomElement(using: &generator)!, at: at)
                    lines[line] = String(characters)
                case 1:
                    let characters = Array(lines[line])
                    guard !characters.isEmpty else { continue }
                    let from = Int.random(in: 0..<characters.count, using: &generator)
                    let to = Int.random(in: from...characters.count, using: &generator)
                    lines[line] = String(characters[..<from] + characters[to...])
                case 2: lines.insert(lines[line], at: line)
                case 3: lines.swapAt(line, Int.random(in: 0..<lines.count, using: &generator))
                default: lines.remove(at: line); if lines.isEmpty { lines = [""] }
                }
            }
            let text = lines.joined(separator: "\n")
            let (current, reference) = (Self.current(text), Self.reference(text))
            #expect(current == reference, "\(text)")
            if case .refused = reference { refused += 1 } else { read += 1 }
        }
        // Both sides were exercised.
        #expect(refused > 300)
        #expect(read > 300)
    }
}

/// The Yams-based reading that ``YAMLComposer`` replaced, as it stood: compose a node tree,
/// look for anchors in it, convert it. Only what follows the shared checks for emptiness and
/// tabs, which both readings go through first.
enum YamsReading {
    static func parse(_ text: String, file: String) throws -> YAMLValue {
        let start = CoachLab.SourceLocation(file: file, line: 1, column: 1)
        if YAMLDocument.hasNoContent(text) {
            throw CoachLabError(.content, "file is empty", at: start, hint: "an empty file defines nothing; delete it or add content")
        }
        if let tab = YAMLDocument.firstIndentingTab(in: text) {
            throw CoachLabError(.content, "tab character used for indentation",
                                at: CoachLab.SourceLocation(file: file, line: tab.line, column: tab.column),
                                hint: "YAML indents with spaces only; replace the tab with spaces")
        }
        let node: Node?
        do {
            let parser = try Parser(yaml: text, resolver: .basic, encoding: .utf8)
            node = try parser.singleRoot()
        } catch let error as YamlError {
            throw CoachLabError(.content, [diagnostic(for: error, text: text, file: file)])
        }
        guard let node else { throw CoachLabError(.content, "file is empty", at: start) }
        let lines = YAMLDocument.Lines(text)
        if let anchored = firstAnchoredNode(in: node, lines: lines) {
            let mark = anchored.mark.map { CoachLab.SourceLocation(file: file, line: $0.line, column: $0.column) } ?? start
            throw CoachLabError(.content, "YAML anchors and aliases are not supported in CoachLab content", at: mark,
                                hint: "write the value out, or share it through 'include'")
        }
        var diagnostics = Diagnostics()
        let value = convert(node, file: file, lines: lines, diagnostics: &diagnostics)
        if diagnostics.hasErrors { throw CoachLabError(.content, diagnostics.sorted) }
        return value
    }

    private static func convert(_ node: Node, file: String, lines: YAMLDocument.Lines, diagnostics: inout Diagnostics) -> YAMLValue {
        let location = node.mark.map { CoachLab.SourceLocation(file: file, line: $0.line, column: $0.column) }
            ?? CoachLab.SourceLocation(file: file, line: 1, column: 1)
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
            case .block: start = YAMLDocument.blockContentStart(after: location, lines: lines)
            case .quoted: start.column += 1
            case .plain: break
            }
            return .scalar(.init(text: scalar.string, style: style, location: start))
        case .sequence(let sequence):
            return .sequence(sequence.map { convert($0, file: file, lines: lines, diagnostics: &diagnostics) }, location)
        case .mapping(let mapping):
            var entries: [YAMLValue.Entry] = []
            for (key, value) in mapping {
                let keyLocation = key.mark.map { CoachLab.SourceLocation(file: file, line: $0.line, column: $0.column) } ?? location
                guard case .scalar(let keyScalar) = key else {
                    diagnostics.error("mapping keys must be plain text, not a list or mapping", at: keyLocation)
                    continue
                }
                entries.append(.init(key: keyScalar.string, keyLocation: keyLocation,
                                     value: convert(value, file: file, lines: lines, diagnostics: &diagnostics)))
            }
            return .mapping(entries, location)
        case .alias:
            diagnostics.error("YAML aliases are not supported in CoachLab content", at: location)
            return .scalar(.init(text: "", style: .plain, location: location))
        }
    }

    private static func firstAnchoredNode(in root: Node, lines: YAMLDocument.Lines) -> Node? {
        var pending = [root]
        var furthest = (line: 0, column: 0)
        while let node = pending.popLast() {
            if let mark = node.mark {
                if (mark.line, mark.column) < furthest { return node }
                furthest = (mark.line, mark.column)
                if mark.line >= 1, mark.line <= lines.count, mark.column >= 1 {
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

    private static func diagnostic(for error: YamlError, text: String, file: String) -> Diagnostic {
        func place(_ line: Int, _ column: Int) -> CoachLab.SourceLocation {
            CoachLab.SourceLocation(file: file, line: max(line, 1), column: max(column, 1))
        }
        switch error {
        case .scanner(let context, let problem, let mark, _),
             .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            var message = "invalid YAML: \(problem)"
            if let context { message += " (\(context.text) at line \(context.mark.line))" }
            return .error(message, at: place(mark.line, mark.column), hint: YAMLDocument.hint(forProblem: problem))
        case .reader(let problem, let offset, _, _):
            let where_ = offset.map { YAMLDocument.location(ofCharacter: $0, in: text, file: file) } ?? place(1, 1)
            return .error("cannot read YAML: \(problem)", at: where_)
        case .duplicatedKeysInMapping(let duplicates, let context):
            let key = duplicates.first ?? "?"
            let repeatAt = YAMLDocument.secondOccurrence(ofKey: key, afterLine: context.mark.line, column: context.mark.column, in: text)
                ?? (context.mark.line, context.mark.column)
            return .error("duplicate key '\(key)' in mapping (first defined at line \(context.mark.line))",
                          at: place(repeatAt.0, repeatAt.1),
                          hint: "each key may appear once; remove or rename one of them")
        default:
            return .error("cannot parse YAML: \(error)", at: CoachLab.SourceLocation(file: file, line: 1, column: 1))
        }
    }
}

/// The anchor search of the Yams reading looks past a node's tag on its line.
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
