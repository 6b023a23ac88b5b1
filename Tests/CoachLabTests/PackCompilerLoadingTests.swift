import CoachLab
import Testing

/// `PackLoader.compiler(for:)` runs a pack's checks and its compiler's preparation side by side.
/// It must give what `Compiler(pack: load(path).get())` gives: the same prompts for a good pack,
/// and the same errors, and no compiler, for a broken one.
@Suite struct PackCompilerLoadingTests {
    private static func errors(_ body: () throws -> Compiler) -> [Diagnostic]? {
        do {
            _ = try body()
            return nil
        } catch let error as CoachLabError {
            return error.diagnostics
        } catch {
            Issue.record("unexpected error: \(error)")
            return []
        }
    }

    private static func sequential(_ loader: PackLoader, _ path: String) throws -> Compiler {
        try Compiler(pack: loader.load(path).get())
    }

    @Test(arguments: TestSupport.shippedPacks)
    func compilesEveryVariantAsTheSequentialLoadDoes(_ name: String) throws {
        let loader = PackLoader(fileSystem: TestSupport.fileSystem)
        let side = try loader.compiler(for: "personas/\(name)")
        let sequential = try Self.sequential(loader, "personas/\(name)")
        #expect(!side.pack.variants.isEmpty)
        for variant in side.pack.variants {
            let inputs = CompileInputs(variant)
            #expect(try side.compile(inputs, fileSystem: TestSupport.fileSystem) == sequential.compile(inputs, fileSystem: TestSupport.fileSystem))
        }
    }

    /// The checks' errors win over the compiler's. A section never closed fails both; a
    /// pattern that is not a regular expression fails the checks alone (the screener skips
    /// it). Every error is reported, as the sequential load reports them, not only the
    /// compiler's one.
    @Test func aBrokenPackFailsWithAllTheChecksErrors() throws {
        let stack = String(decoding: try TestSupport.fileSystem.read("personas/betterone/stack.yaml"), as: UTF8.self)
        let rules = String(decoding: try TestSupport.fileSystem.read("personas/betterone/rules.yaml"), as: UTF8.self)
        let brokenStack = stack.replacingOccurrences(of: "template: |\n", with: "template: |\n        {{#nowhere}}\n")
        let brokenRules = rules.replacingOccurrences(of: "      patterns:\n", with: "      patterns:\n        - \"(unclosed\"\n")
        #expect(brokenStack != stack && brokenRules != rules)
        let loader = PackLoader(fileSystem: TestSupport.fileSystem.overlaying(["personas/betterone/stack.yaml": brokenStack,
                                                                               "personas/betterone/rules.yaml": brokenRules]))
        let side = Self.errors { try loader.compiler(for: "personas/betterone") } ?? []
        #expect(side.contains { $0.message.contains("nowhere") })
        #expect(side.contains { $0.message == "pattern is not a valid regular expression" })
        #expect(side == Self.errors { try Self.sequential(loader, "personas/betterone") })
    }

    /// A guardrail error (a pattern that is not a regular expression) stops the load though
    /// the screener would skip the pattern and build.
    @Test func aCheckOnlyErrorStillStopsTheLoad() throws {
        let rules = try TestSupport.fileSystem.read("personas/betterone/rules.yaml")
        let text = String(decoding: rules, as: UTF8.self)
        let broken = text.replacingOccurrences(of: "      patterns:\n", with: "      patterns:\n        - \"(unclosed\"\n")
        #expect(broken != text)
        let loader = PackLoader(fileSystem: TestSupport.fileSystem.overlaying(["personas/betterone/rules.yaml": broken]))
        let side = Self.errors { try loader.compiler(for: "personas/betterone") }
        #expect(side?.contains { $0.message == "pattern is not a valid regular expression" } == true)
        #expect(side == Self.errors { try Self.sequential(loader, "personas/betterone") })
    }

    /// A missing pack and a file that does not parse fail as they do when loaded alone.
    @Test func missingAndUnreadablePacksFailAlike() throws {
        let loader = PackLoader(fileSystem: TestSupport.fileSystem.overlaying(["personas/luna/rules.yaml": "rules: [unclosed\n"]))
        for path in ["personas/nowhere", "personas/luna"] {
            let side = Self.errors { try loader.compiler(for: path) }
            #expect(side != nil && !(side ?? []).isEmpty, "\(path)")
            #expect(side == Self.errors { try Self.sequential(loader, path) }, "\(path)")
        }
    }

    /// The README's "Using the core in an app" example, as written there, over a file system
    /// rooted at the packs' folder as an app's bundle would be.
    @Test func theReadmeAppExampleCompiles() throws {
        let files = FileSystem.rooted(at: TestSupport.root + "/personas")
        let compiler = try PackLoader(fileSystem: files).compiler(for: "betterone", warnings: false)
        let prompt = try compiler.compile(CompileInputs(topic: "goal-setting", intent: "next_step",
                                                        profile: "freelance-designer", screen: "Do I have ADHD? I can't focus."),
                                          fileSystem: files)
        #expect(prompt.system.contains("RISK ALERT"))
    }
}
