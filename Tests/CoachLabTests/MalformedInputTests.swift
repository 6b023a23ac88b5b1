import CoachLab
import Foundation
import Testing

/// Every file in Malformed/ states the diagnostic it must produce as
/// `# expect: LINE:COL message fragment` for an error, or `# expect-warning: …` for a warning
/// (and optionally `# expect-hint: fragment`).
@Suite struct MalformedInputTests {
    static let corpus: [String] = {
        let directory = TestSupport.root + "/Tests/CoachLabTests/Malformed"
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasSuffix(".yaml") }.sorted()
    }()

    @Test func corpusIsNotEmpty() {
        #expect(Self.corpus.count >= 15)
    }

    @Test(arguments: corpus)
    func givesTheStatedDiagnostic(_ name: String) throws {
        let path = "Tests/CoachLabTests/Malformed/\(name)"
        let text = String(decoding: try TestSupport.fileSystem.read(path), as: UTF8.self)
        let expectation = try #require(text.split(separator: "\n").first { $0.hasPrefix("# expect: ") || $0.hasPrefix("# expect-warning: ") })
        let severity: Diagnostic.Severity = expectation.hasPrefix("# expect: ") ? .error : .warning
        let body = expectation.drop { $0 != ":" }.dropFirst(2)
        let position = body.prefix { $0 != " " }
        let fragment = body.dropFirst(position.count + 1)
        let hint = text.split(separator: "\n").first { $0.hasPrefix("# expect-hint: ") }?.dropFirst("# expect-hint: ".count)

        let result = PackLoader(fileSystem: TestSupport.fileSystem).load(path)
        #expect(severity == .warning || result.hasErrors)
        let match = result.diagnostics.first {
            $0.severity == severity && "\($0.location.line):\($0.location.column)" == position && $0.message.contains(fragment)
        }
        #expect(match != nil, "expected \(position) \(fragment); got:\n\(result.diagnostics.map(\.description).joined(separator: "\n"))")
        if let hint { #expect(match?.hint?.contains(hint) == true) }
        #expect(result.diagnostics.allSatisfy { $0.location.file == path })
    }

    /// Every file kind (profiles, providers, suites, imported coaches) is read by YAMLDocument,
    /// so refusing anchors there refuses them everywhere, before any alias is expanded.
    @Test(arguments: ["- &one x\n- *one\n", "providers:\n  - {id: a, kind: mock}\n  - !!map &p {id: b}\n",
                      "base: {tone: &t warm}\nother: {tone: *t}\n"])
    func anchorsAndAliasesAreRefused(_ text: String) {
        do { _ = try YAMLDocument.parse(text, file: "any.yaml"); Issue.record("parsed") } catch let error as CoachLabError {
            #expect(error.diagnostics.first?.message.contains("anchors and aliases are not supported") == true)
        } catch { Issue.record("unexpected \(error)") }
    }

    /// Finding 11 of the secrets issue: in a pack that screens messages, lint asked whether the
    /// layers show the RISK ALERT by following every partial inclusion, so partials that each
    /// include the next many times were read 24⁸ times before the fan-out was refused. Each is
    /// now read once; the time limit is what a regression would exceed, by hours.
    @Test(.timeLimit(.minutes(1))) func aScreenedPackWhosePartialsFanOutIsRefusedWithoutFollowingThem() throws {
        let partials = (1...8).map { level in "    p\(level): \"" + Array(repeating: "{{> p\(level + 1)}}", count: 24).joined(separator: " ") + "\"" }
        let loaded = TestSupport.load(["app/pack.yaml": """
            pack: {id: fan, name: Fan}
            stack:
              layers:
                - {id: a, template: "Start. {{> p1}}"}
              partials:
            \(partials.joined(separator: "\n"))
                p9: "{{#risk}}RISK ALERT{{/risk}}"
            rules:
              - id: r
                title: R
                content: C
                guardrail:
                  keywords: [heart attack]
                  alert: {instructions: [Call emergency services]}
            persona: {name: Sam}
            """])
        #expect(loaded.diagnostics.contains { $0.message.contains("expands to more than 256 partial inclusions") }, "\(loaded.diagnostics)")
    }

    /// Within the inclusion limit, a large partial included 250 times rendered hundreds of
    /// megabytes (98 s and 2 GB to compile); the expanded size is bounded too.
    @Test func aPartialThatWouldRenderMegabytesIsRefused() throws {
        let big = String(repeating: "lorem ipsum ", count: 10_000)
        let loaded = TestSupport.load(["app/pack.yaml": """
            pack: {id: big, name: Big}
            stack:
              layers:
                - {id: a, template: "\(String(repeating: "{{> big}}", count: 250))"}
              partials:
                big: "\(big)"
            persona: {name: Sam}
            """])
        #expect(loaded.diagnostics.contains { $0.message.contains("expands to more than 1024 KB of template text") }, "\(loaded.diagnostics.map(\.message))")
    }

    @Test func aCompilerRefusesPartialsThatIncludeEachOther() throws {
        let loaded = TestSupport.load(["app/pack.yaml": """
            pack: {id: loop, name: Loop}
            stack:
              layers:
                - {id: a, template: "{{> self}}"}
              partials:
                self: "again {{> self}}"
            persona: {name: Sam}
            """])
        #expect(loaded.diagnostics.contains { $0.message.contains("leads back to it") })
        let pack = try #require(loaded.pack, "an expansion problem still assembles the pack, so compile must refuse it too")
        #expect(throws: CoachLabError.self) { try Compiler(pack: pack) }
    }

    @Test func binaryJunkPointsAtTheFirstNulByte() {
        var bytes = Array("pack:\n  id: x\n".utf8)
        bytes += [0x00, 0xFF, 0x13, 0x37]
        #expect(throws: CoachLabError.self) { try YAMLDocument.parse(Data(bytes), file: "junk.yaml") }
        do { _ = try YAMLDocument.parse(Data(bytes), file: "junk.yaml") } catch let error as CoachLabError {
            #expect(error.diagnostics.first?.location.description == "junk.yaml:3:1")
            #expect(error.diagnostics.first?.message.contains("binary") == true)
        } catch { Issue.record("unexpected \(error)") }
    }

    @Test func invalidUTF8IsLocated() {
        let bytes = Array("pack:\n  name: caf".utf8) + [0xC3, 0x28] + Array("\n".utf8)
        do { _ = try YAMLDocument.parse(Data(bytes), file: "latin.yaml"); Issue.record("parsed") } catch let error as CoachLabError {
            #expect(error.diagnostics.first?.location.description == "latin.yaml:2:12")
            #expect(error.diagnostics.first?.message.contains("UTF-8") == true)
        } catch { Issue.record("unexpected \(error)") }
    }

    @Test func hugeFileIsRefusedBeforeParsing() {
        let huge = Data(repeating: UInt8(ascii: "a"), count: YAMLDocument.maximumSize + 1)
        do { _ = try YAMLDocument.parse(huge, file: "huge.yaml"); Issue.record("parsed") } catch let error as CoachLabError {
            #expect(error.diagnostics.first?.location.description == "huge.yaml:1:1")
            #expect(error.diagnostics.first?.message.contains("at most") == true)
        } catch { Issue.record("unexpected \(error)") }
    }

    /// Odd input never crashes, and each gets the diagnostic it deserves (or loads, for the BOM).
    @Test(arguments: [
        (String(repeating: "[", count: 5000), "invalid YAML"),
        (String(repeating: "- ", count: 3000) + "x", "Maximum nesting level"),
        ("pack: &a {id: x}\nstack: *a\n", "anchors and aliases are not supported"),
        ("? [a, b]\n: c\n", "mapping keys must be plain text"),
        ("---\npack: {id: a}\n---\npack: {id: b}\n", "expected a single document"),
        ("pack: \"unterminated\n", "invalid YAML"),
    ])
    func deeplyNestedAndOddInputGetADiagnostic(_ input: String, _ fragment: String) {
        let result = TestSupport.load(["app/pack.yaml": input])
        #expect(result.hasErrors)
        #expect(result.diagnostics.contains { $0.severity == .error && $0.location.file == "app/pack.yaml" && $0.description.contains(fragment) },
                "\(result.diagnostics.map(\.description))")
    }

    @Test func aByteOrderMarkIsNotAnError() {
        let result = TestSupport.load(["app/pack.yaml": "\u{FEFF}pack: {id: bom, name: B}\nstack: {layers: [{id: a, template: x}]}\n"])
        #expect(!result.hasErrors, "\(result.diagnostics.map(\.description))")
        #expect(result.pack?.id == "bom")
    }

    @Test func includeCyclesAreReported() {
        let result = TestSupport.load([
            "app/pack.yaml": "pack: {id: cyc, name: Cycle}\nstack: {layers: [{id: a, template: x}]}\ninclude: [a.yaml]\n",
            "app/a.yaml": "include: [b.yaml]\n",
            "app/b.yaml": "include: [a.yaml]\n",
        ])
        let cycle = result.diagnostics.first { $0.message.hasPrefix("include cycle") }
        #expect(cycle?.location.description == "app/b.yaml:1:11")
        #expect(cycle?.message == "include cycle: app/a.yaml → app/b.yaml → app/a.yaml")
    }

    @Test func missingIncludeSuggestsTheNearestFile() {
        let result = TestSupport.load([
            "app/pack.yaml": "pack: {id: inc, name: Include}\nstack: {layers: [{id: a, template: x}]}\ninclude: [rule.yaml]\n",
            "app/rules.yaml": "rules: []\n",
        ])
        let missing = result.diagnostics.first { $0.message.contains("does not exist") }
        #expect(missing?.location.description == "app/pack.yaml:3:11")
        #expect(missing?.hint == "did you mean 'rules.yaml'?")
    }

    @Test func singletonsDefinedTwiceAreErrors() {
        let result = TestSupport.load([
            "app/pack.yaml": "pack: {id: two, name: Two}\nstack: {layers: [{id: a, template: x}]}\ninclude: [more.yaml]\n",
            "app/more.yaml": "stack:\n  layers: [{id: b, template: y}]\n",
        ])
        #expect(result.diagnostics.contains { $0.message.hasPrefix("'stack' is defined more than once") && $0.location.description == "app/more.yaml:1:1" })
    }

    /// The rules' guardrails are checked in halves on different cores: a mistake in each of
    /// six rules is reported, once, at its own line, whichever half checked it, with the
    /// lexicon and template checks that run beside them.
    @Test func everyRulesGuardrailMistakeIsReportedOnce() {
        let guardrails = [
            #"patterns: ["(unclosed"]"#, #"keywords: ["!!!"]"#, "lexicons: [nowhere]", #"frames: ["{"]"#,
            #"patterns: ["\bheart\b"]"#, #"patterns: ["[z-a]"]"#,
        ]
        let rules = guardrails.enumerated().map { index, guardrail in
            "  - {id: r\(index), title: R\(index), content: C, guardrail: {\(guardrail), alert: {instructions: [Stop]}}}\n"
        }.joined()
        let result = TestSupport.load([
            "app/pack.yaml": "pack: {id: halves, name: Halves}\n"
                + "stack: {layers: [{id: a, template: \"{{#rules}}{{title}}{{/rules}}\"}, {id: alert, template: \"{{#risk}}{{risk.alert.reason}}{{/risk}}\"}]}\n"
                + "lexicons: [{id: unused, entries: [calm]}]\n"
                + "rules:\n" + rules,
        ])
        let lines = result.diagnostics.filter { $0.location.line >= 5 }.map(\.location.line)
        #expect(lines == [5, 6, 7, 8, 9, 10], "\(result.diagnostics.map(\.description).joined(separator: "\n"))")
        #expect(result.diagnostics.contains { $0.message.contains("used by no guardrail") && $0.location.line == 3 })
    }

    /// A run loads its packs without the checks that can only warn: every malformed file and
    /// every shipped pack gives the same errors either way, and the user-data warning is found
    /// only when asked for.
    @Test(arguments: corpus.map { "Tests/CoachLabTests/Malformed/\($0)" } + ["betterone", "healthwallet", "kindred", "luna", "ticbuddy"].map { "personas/\($0)" })
    func loadingWithoutWarningsFindsEveryError(_ path: String) {
        let loader = PackLoader(fileSystem: TestSupport.fileSystem)
        let (full, errorsOnly) = (loader.load(path), loader.load(path, warnings: false))
        #expect(errorsOnly.diagnostics.filter { $0.severity == .error } == full.diagnostics.filter { $0.severity == .error })
        #expect(errorsOnly.diagnostics.allSatisfy { full.diagnostics.contains($0) })
        #expect(!errorsOnly.diagnostics.contains { $0.message.contains("would pose as prompt structure") })
    }

    @Test func theUserDataWarningNeedsWarnings() {
        let path = "Tests/CoachLabTests/Malformed/forged-header-profile.yaml"
        let loader = PackLoader(fileSystem: TestSupport.fileSystem)
        #expect(loader.load(path).diagnostics.contains { $0.severity == .warning && $0.message.contains("would pose as prompt structure") })
        #expect(loader.load(path, warnings: false).diagnostics.isEmpty)
    }
}
