import Foundation
import Testing

@Suite struct LintCommandTests {
    @Test func shippedContentLintsClean() throws {
        let result = try CLI.run(["lint"])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("linted 5 packs"))
        #expect(result.stderr.contains("0 errors, 0 warnings"))
    }

    static let corpus: [String] = {
        ((try? FileManager.default.contentsOfDirectory(atPath: CLI.root + "/Tests/CoachLabTests/Malformed")) ?? [])
            .filter { $0.hasSuffix(".yaml") }.sorted()
    }()

    @Test(arguments: corpus)
    func eachMalformedInputExits2WithALocatedDiagnostic(_ name: String) throws {
        let path = "Tests/CoachLabTests/Malformed/\(name)"
        // A file whose expectation is a warning fails under --strict, as CI runs lint.
        let warning = try String(contentsOfFile: CLI.root + "/" + path, encoding: .utf8).hasPrefix("# expect-warning:")
        let result = try CLI.run(["lint", path] + (warning ? ["--strict"] : []))
        #expect(result.status == 2)
        let pattern = "^" + NSRegularExpression.escapedPattern(for: path) + #":\d+:\d+: "# + (warning ? "warning" : "error") + ": .+"
        #expect(result.stdout.split(separator: "\n").contains { $0.range(of: pattern, options: .regularExpression) != nil },
                "\(result.stdout)")
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Stack dump"))
    }

    @Test func aFixtureAnywhereIsLintedAsAFixtureWithErrorsAtTheField() throws {
        let directory = try CLI.temporaryDirectory()
        try """
            fixture:
              id: bad-profile
              pack: personas/betterone
              topic: focus
              intent: unstuck
              profile: nobody-here
            turns:
              - user: hi
                expect: [{check: flagged, rule: no-such-rule}]

            """.write(toFile: directory + "/bad.yaml", atomically: true, encoding: .utf8)
        let result = try CLI.run(["lint", directory + "/bad.yaml"])
        #expect(result.status == 2)
        #expect(result.stdout.contains("/bad.yaml:6:12: error: pack 'betterone' has no profile 'nobody-here'"), "\(result.stdout)")
        #expect(result.stdout.contains("/bad.yaml:9:14: error: rule 'no-such-rule' does not exist in pack 'betterone'"), "\(result.stdout)")
        #expect(result.stderr.contains("1 fixtures"))
    }

    @Test func binaryJunkExits2() throws {
        let directory = try CLI.temporaryDirectory()
        let path = directory + "/pack.yaml"
        try Data([0x70, 0x61, 0x63, 0x6B, 0x3A, 0x0A, 0x00, 0xFE, 0xFF]).write(to: URL(fileURLWithPath: path))
        let result = try CLI.run(["lint", directory])
        #expect(result.status == 2)
        #expect(result.stdout.contains("pack.yaml:2:1: error: file contains a NUL byte"))
    }

    @Test func aKeyInYAMLIsReportedButNeverPrinted() throws {
        let directory = try CLI.temporaryDirectory()
        let key = "sk-ant-api03-" + String(repeating: "Zx9", count: 12)
        try "pack: {id: k, name: K}\nstack: {layers: [{id: a, template: x}]}\npersona: {name: \"\(key)\"}\n"
            .write(toFile: directory + "/pack.yaml", atomically: true, encoding: .utf8)
        let result = try CLI.run(["lint", directory])
        #expect(result.status == 2)
        #expect(result.stdout.contains("looks like an Anthropic API key"))
        #expect(!result.stdout.contains(key) && !result.stderr.contains(key))
    }
}

@Suite struct SchemaCommandTests {
    @Test func printsEachKindAsJSON() throws {
        for kind in ["pack", "profile", "memory", "context"] {
            let result = try CLI.run(["schema", kind])
            #expect(result.status == 0)
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            #expect(object?["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        }
        #expect(try CLI.run(["schema", "nope"]).status == 2)
    }

    @Test func shippedFilesPointEditorsAtTheSchemas() throws {
        let enumerator = FileManager.default.enumerator(atPath: CLI.root + "/personas")
        var files = 0
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".yaml") else { continue }
            files += 1
            let text = try String(contentsOfFile: CLI.root + "/personas/" + path, encoding: .utf8)
            let depth = path.split(separator: "/").count
            let expected = "# yaml-language-server: $schema=" + String(repeating: "../", count: depth) + "schemas/pack.schema.json"
            #expect(text.hasPrefix(expected), "\(path)")
        }
        #expect(files >= 30)
    }

    @Test func versionAndHelp() throws {
        #expect(try CLI.run(["--version"]).stdout.hasPrefix("0."))
        let help = try CLI.run(["compile", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--check"))
    }
}
