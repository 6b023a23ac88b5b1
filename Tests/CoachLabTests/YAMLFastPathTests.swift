@testable import CoachLab
import Foundation
import Testing
import CoachLabTestSupport

/// The byte-level shortcuts in ``YAMLDocument`` give the same answers as the rules they stand
/// in for.
@Suite struct YAMLFastPathTests {
    /// The rule `hasNoContent` shortcuts: every line, split at any newline character, is
    /// whitespace or starts (after whitespace) with `#`.
    static func characterRule(_ text: String) -> Bool {
        text.split(whereSeparator: \.isNewline).allSatisfy { line in
            line.first { !$0.isWhitespace }.map { $0 == "#" } ?? true
        }
    }

    @Test(arguments: ["", "\n\n", "  \t \r\n", "# only a comment", "  # indented\n\n# another\n", "#\u{0B}key: v",
                      "#\u{0C}x", "\u{FEFF}# after a byte-order mark", "\u{00A0}\n", "\u{3000}# wide space then comment",
                      "\u{85}a", "a", "  b: c", "# c\nkey: value", "#x\r# y\rz"])
    func emptinessMatchesTheCharacterRule(_ text: String) {
        #expect(YAMLDocument.hasNoContent(text) == Self.characterRule(text), "\(Array(text.unicodeScalars))")
    }

    @Test func emptinessMatchesTheCharacterRuleOnRandomText() {
        let alphabet: [Character] = [" ", "\t", "\n", "\r", "\r\n", "#", "a", "\u{0B}", "\u{0C}", "\u{00A0}", "\u{2028}"]
        var generator = SeededGenerator(seed: 17)
        for _ in 0..<2_000 {
            let text = String((0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            #expect(YAMLDocument.hasNoContent(text) == Self.characterRule(text), "\(Array(text.unicodeScalars))")
        }
    }

    /// Lines are skipped when no `&`, `*`, `|` or `>` occurs, so a block scalar's text must
    /// still be located on the line after its indicator, and an alias still refused.
    @Test func blockScalarsAndAliasesAreStillLocated() throws {
        let value = try YAMLDocument.parse("name: plain\nbody: |\n\n    first line\n", file: "a.yaml")
        #expect(value["body"]?.location.line == 4)
        #expect(value["body"]?.location.column == 5)
        #expect(value["name"]?.location.line == 1)
        #expect(throws: CoachLabError.self) { try YAMLDocument.parse("a: &x 1\nb: *x\n", file: "a.yaml") }
    }

    /// A CRLF file's indenting tab and repeated key are reported on their own lines, as in an
    /// LF file.
    @Test func tabsAndDuplicateKeysInACRLFFileAreLocatedOnTheirLines() {
        func location(_ text: String) -> String {
            do { _ = try YAMLDocument.parse(text, file: "a.yaml") } catch let error as CoachLabError {
                return error.diagnostics.first.map { "\($0.location.line):\($0.location.column) \($0.message)" } ?? ""
            } catch {}
            return "no error"
        }
        #expect(location("a: 1\r\nb:\r\n\tc: 2\r\n") == "3:1 tab character used for indentation")
        #expect(location("a: 1\r\nb: 2\r\na: 3\r\n").hasPrefix("3:1 duplicate key 'a'"))
    }

    /// A file saved with CRLF line ends locates its block scalars as an LF file does: Swift
    /// reads "\r\n" as one character, so splitting the text at "\n" found a single line.
    @Test func blockScalarsInACRLFFileAreLocatedOnTheirText() throws {
        let value = try YAMLDocument.parse("name: plain\r\nbody: |\r\n\r\n    first line\r\nafter: |\r\n  ünï line\r\n", file: "a.yaml")
        #expect(value["body"]?.location.line == 4)
        #expect(value["body"]?.location.column == 5)
        #expect(value["after"]?.location.line == 6)
        #expect(value["after"]?.location.column == 3)
        #expect(throws: CoachLabError.self) { try YAMLDocument.parse("top:\r\n  ok: 1\r\n  a: &x 1\r\n", file: "a.yaml") }
    }

    /// The live file system reads by path and falls back to the URL read only to explain a
    /// failure: a folder or a missing file is an error, never empty data.
    @Test func readingAFolderOrAMissingFileFails() throws {
        let folder = try Scratch.folder("read")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: (any Error).self) { try FileSystem.live.read(folder) }
        #expect(throws: (any Error).self) { try FileSystem.live.read(folder + "/missing.yaml") }
        try "a: b\n".write(toFile: folder + "/present.yaml", atomically: true, encoding: .utf8)
        #expect(try FileSystem.live.read(folder + "/present.yaml") == Data("a: b\n".utf8))
    }
}
