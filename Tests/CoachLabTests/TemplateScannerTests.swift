@testable import CoachLab
import Testing

/// The scanner lint and the compiler read a layer's tags with: every kind of tag, where each
/// one is, and each structural problem at the place an author needs to look.
@Suite struct TemplateScannerTests {
    typealias Tag = TemplateScanner.Tag

    static func tags(_ template: String) throws -> [Tag] {
        try TemplateScanner.scan(template).get()
    }

    static func problem(_ template: String) -> TemplateScanner.Problem? {
        guard case .failure(let problem) = TemplateScanner.scan(template) else { return nil }
        return problem
    }

    @Test func everyKindOfTagWithItsNameAndPlace() throws {
        let template = "Hi {{ persona.name }}.\n{{#rules}}- {{.}}\n{{/rules}}{{^memory}}none{{/memory}}{{> footer}}{{! note }}{{{raw}}}{{& also}}{{%PRAGMA}}"
        #expect(try Self.tags(template) == [
            Tag(kind: .variable, name: "persona.name", line: 1, column: 4),
            Tag(kind: .section, name: "rules", line: 2, column: 1),
            Tag(kind: .variable, name: ".", line: 2, column: 13),
            Tag(kind: .close, name: "rules", line: 3, column: 1),
            Tag(kind: .inverted, name: "memory", line: 3, column: 11),
            Tag(kind: .close, name: "memory", line: 3, column: 26),
            Tag(kind: .partial, name: "footer", line: 3, column: 37),
            Tag(kind: .comment, name: "! note", line: 3, column: 49),
            Tag(kind: .variable, name: "raw", line: 3, column: 60),
            Tag(kind: .variable, name: "also", line: 3, column: 69),
            Tag(kind: .pragma, name: "%PRAGMA", line: 3, column: 79),
        ])
    }

    /// Columns count scalars, so text outside ASCII before a tag does not move it.
    @Test func columnsCountScalarsNotBytes() throws {
        #expect(try Self.tags("Schön, Zoë 👋 {{name}}") == [Tag(kind: .variable, name: "name", line: 1, column: 14)])
    }

    /// Single braces, and a closer with no opener, are text.
    @Test func loneBracesAreText() throws {
        #expect(try Self.tags("{ x } }} {y}").isEmpty)
        #expect(try Self.tags("a { {{b}} }") == [Tag(kind: .variable, name: "b", line: 1, column: 5)])
    }

    /// A triple tag ends at the first "}}}", a double one at the first "}}".
    @Test func eachTagEndsAtItsOwnCloser() throws {
        #expect(try Self.tags("{{{a}}}}") == [Tag(kind: .variable, name: "a", line: 1, column: 1)])
        #expect(try Self.tags("{{a}}}") == [Tag(kind: .variable, name: "a", line: 1, column: 1)])
    }

    @Test func structuralProblemsPointAtTheTag() {
        #expect(Self.problem("line\n  {{name") == TemplateScanner.Problem(message: "tag opened here is never closed with '}}'", line: 2, column: 3))
        #expect(Self.problem("{{{raw}}") == TemplateScanner.Problem(message: "tag opened here is never closed with '}}}'", line: 1, column: 1))
        #expect(Self.problem("x {{/rules}}") == TemplateScanner.Problem(message: "'{{/rules}}' closes a section that was never opened", line: 1, column: 3))
        #expect(Self.problem("{{#a}}\n{{/b}}") == TemplateScanner.Problem(message: "'{{/b}}' does not match '{{#a}}' opened at line 1", line: 2, column: 1))
        #expect(Self.problem("{{#a}}\n{{#b}}{{/b}}") == TemplateScanner.Problem(message: "section 'a' is never closed; add '{{/a}}'", line: 1, column: 1))
        #expect(Self.problem("a {{ }}") == TemplateScanner.Problem(message: "empty tag", line: 1, column: 3))
        #expect(Self.problem("{{=<% %>=}}") == TemplateScanner.Problem(message: "changing delimiters ('{{=…=}}') is not supported", line: 1, column: 1))
        #expect(Self.problem("{{<base}}") == TemplateScanner.Problem(message: "template inheritance ('{{<…}}') is not supported in layers", line: 1, column: 1))
    }

    @Test func nestingPastTheLimitIsAProblem() {
        let deep = String(repeating: "{{#s}}", count: TemplateScanner.maximumNesting + 1)
        #expect(Self.problem(deep)?.message == "sections nest more than \(TemplateScanner.maximumNesting) deep")
        let fine = String(repeating: "{{#s}}", count: TemplateScanner.maximumNesting) + String(repeating: "{{/s}}", count: TemplateScanner.maximumNesting)
        #expect(Self.problem(fine) == nil)
    }
}
