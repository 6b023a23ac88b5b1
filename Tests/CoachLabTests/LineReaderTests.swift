@testable import CoachLab
import Foundation
import Testing

/// The table of line readers: each reader reads its examples as it says and leaves its
/// counter-examples alone, docs/mock.md's table is generated from them, and every committed
/// prompt reads as its golden file records, so a change shows which other lines moved.
@Suite struct LineReaderTests {
    static func read(_ line: String, with reader: LineReader) -> Set<LineReader.Kind> {
        let text = MockReading.plain(line)
        let lower = MockReading.fold(text)
        var scratch = MockReading(line: text)
        guard reader.runs(MockReading.Clue(lower, guarded: true), false) else { return [] }
        reader.read(&scratch, text, lower)
        return Set(scratch.instructions.map(\.kind)).intersection(reader.kinds)
    }

    @Test(arguments: MockReading.lineReaders.map(\.name))
    func eachReaderReadsItsExamplesAndLeavesItsCounterExamples(_ name: String) throws {
        let reader = try #require(MockReading.lineReaders.first { $0.name == name })
        #expect(!reader.examples.isEmpty && !reader.counterExamples.isEmpty)
        for example in reader.examples {
            #expect(Self.read(example.line, with: reader) == example.kinds, "\(name) on \"\(example.line)\"")
        }
        for line in reader.counterExamples {
            #expect(Self.read(line, with: reader).isEmpty, "\(name) read \"\(line)\" as \(Self.read(line, with: reader))")
        }
    }

    /// Each kind has one reader, so a phrasing has one place to live.
    @Test func eachKindHasOneReader() {
        let kinds = MockReading.lineReaders.flatMap(\.kinds)
        #expect(Set(kinds).count == kinds.count)
    }

    /// docs/mock.md's table of the readers' phrasings is generated from their examples.
    @Test func theDocsTableIsTheReadersOwn() throws {
        let path = TestSupport.root + "/docs/mock.md"
        let docs = try String(contentsOfFile: path, encoding: .utf8)
        let (begin, end) = ("<!-- line readers: generated from Sources/CoachLab/Reading; do not edit -->\n", "<!-- end of line readers -->")
        let table = MockReading.readerTable()
        guard let open = docs.range(of: begin), let close = docs.range(of: end, range: open.upperBound..<docs.endIndex) else {
            Issue.record("docs/mock.md has no generated table of line readers")
            return
        }
        let current = String(docs[open.upperBound..<close.lowerBound])
        if current != table, ProcessInfo.processInfo.environment["COACHLAB_UPDATE_GOLDEN"] != nil {
            try (String(docs[..<open.upperBound]) + table + String(docs[close.lowerBound...])).write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        #expect(current == table, "regenerate with COACHLAB_UPDATE_GOLDEN=1 swift test --filter LineReaderTests")
    }

    /// How every committed prompt reads: a change to a reader shows here as the lines it moved.
    @Test func everyCommittedPromptReadsAsItsGoldenRecords() throws {
        let root = TestSupport.root + "/prompts"
        let files = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".txt") }.sorted()
        #expect(files.count >= 20)
        var out = ""
        for file in files {
            let system = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            out += "== prompts/\(file)\n"
            for instruction in MockReading(system: system).instructions {
                out += "\(instruction.line) \(instruction.kind.rawValue) = \(instruction.value.prefix(80))\n"
            }
        }
        let golden = TestSupport.root + "/Tests/CoachLabTests/Golden/readings.txt"
        if ProcessInfo.processInfo.environment["COACHLAB_UPDATE_GOLDEN"] != nil {
            try FileManager.default.createDirectory(atPath: (golden as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try out.write(toFile: golden, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOfFile: golden, encoding: .utf8)
        #expect(out == expected, "a reader changed how a committed prompt reads; review the diff, then COACHLAB_UPDATE_GOLDEN=1")
    }
}
