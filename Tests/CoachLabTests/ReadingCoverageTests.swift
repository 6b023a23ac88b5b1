@testable import CoachLab
import Foundation
import Testing

/// How much of what an author wrote as instructions the mock reads, and where it cannot.
@Suite struct ReadingCoverageTests {
    static let pack = """
        pack: {id: wren, name: Wren}
        persona: {name: Wren, role: a sleep coach}
        reply:
          sentences: 1-2
          confidential: true
        stack:
          layers:
            - id: house
              template: |
                Yo, you're {{persona.name}}, {{persona.role}}.
                Length cap → {{reply.phrases.sentences}}.
                {{#reply.confidential}}What's in here stays in here.{{/reply.confidential}}
                Keep replies free of jargon and long words.
        """

    @Test func lintGivesTheFigureAndWarnsAtEachLineTheMockCannotRead() throws {
        let fileSystem = FileSystem.inMemory(["personas/wren/pack.yaml": Self.pack])
        let result = try ProjectLint(fileSystem: fileSystem).lint(["personas/wren"])
        #expect(result.errors == 0, "\(result.diagnostics)")
        let warning = try #require(result.diagnostics.first { $0.message.contains("the mock reads no instruction in") })
        #expect(warning.message.contains("Keep replies free of jargon and long words."))
        #expect(warning.location.description == "personas/wren/pack.yaml:13:9", "\(warning.location)")
        #expect(warning.hint?.contains("reply contract") == true)
        let coverage = try #require(result.coverage.first?.coverage)
        // The name, the contract's length and its secrecy are read; the jargon line is not.
        #expect(coverage.read == 3 && coverage.lines.count == 4, "\(coverage.lines)")
        #expect(result.summary.hasSuffix("; the mock reads 3 of 4 instruction lines (75%)"), "\(result.summary)")
    }

    @Test func theShippedPacksReadThreeInstructionLinesInFourOrMore() throws {
        for name in TestSupport.shippedPacks {
            let pack = try TestSupport.pack(name)
            let coverage = ReadingCoverage.of(pack, compiler: try Compiler(pack: pack), fileSystem: TestSupport.fileSystem)
            #expect(coverage.lines.count >= 3, "\(name): \(coverage.summary)")
            #expect(coverage.fraction >= 0.75, "\(name): \(coverage.summary)")
            // Each line the mock cannot read is placed where its author wrote it.
            #expect(coverage.unread.allSatisfy { $0.location?.file.hasPrefix("personas/\(name)/") == true }, "\(coverage.unread)")
        }
    }
}
