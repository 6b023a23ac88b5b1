import CoachLab
import Foundation
import Testing

@Suite struct BetterOneTests {
    let compiler: Compiler

    init() throws { compiler = try TestSupport.compiler("betterone") }

    @Test func sixLayersInTheSeedsOrderWithItsTitles() throws {
        let prompt = try compiler.compile(CompileInputs(topic: "goal-setting", intent: "next_step", profile: "freelance-designer"),
                                          fileSystem: TestSupport.fileSystem)
        #expect(prompt.layers.map(\.title) == ["Rules of Engagement", "Persona Identity", "Topic Context + Intent",
                                               "Follower Profile", "Knowledge Base", "Response Instructions"])
        #expect(prompt.system.hasPrefix("=== Rules of Engagement ==="))
        #expect(!prompt.system.contains("RISK ALERT"))
        let headers = prompt.system.split(separator: "\n").filter { $0.hasPrefix("=== ") }
        #expect(headers.last == "=== Response Instructions ===")
    }

    @Test func riskAlertOnlyWhenTheMessageIsFlagged() throws {
        let flagged = try compiler.compile(CompileInputs(topic: "goal-setting", intent: "next_step", profile: "freelance-designer",
                                                         screen: "Do I have ADHD? I can't focus on anything."),
                                           fileSystem: TestSupport.fileSystem)
        let last = try #require(flagged.layers.last)
        #expect(last.id == "response")
        #expect(last.text.contains("""
            === RISK ALERT (active for this response) ===
            The user's latest message has been flagged by the safety system.
            Trigger: rule_based — No mental health diagnosis
            YOU MUST:
            - Acknowledge the user's concern with empathy
            - Explain this falls outside your coaching scope
            - Suggest they speak to a qualified professional
            - Keep your response warm and supportive
            """))
        #expect(flagged.layers.dropLast().allSatisfy { !$0.text.contains("RISK ALERT") })
        #expect(flagged.screening?.decision?.ruleId == "no-diagnosis")

        let calm = try compiler.compile(CompileInputs(topic: "goal-setting", intent: "next_step",
                                                      screen: "I want to set goals but I have like 15 things I want to do."),
                                        fileSystem: TestSupport.fileSystem)
        #expect(!calm.system.contains("RISK ALERT"))
        #expect(calm.screening?.isFlagged == false)
    }

    @Test func layersWithoutInputsAreLeftOut() throws {
        let prompt = try compiler.compile(CompileInputs(topic: "confidence", intent: "be_heard"), fileSystem: TestSupport.fileSystem)
        #expect(!prompt.layers.contains { $0.id == "profile" })
        #expect(prompt.layers.first?.id == "rules")
        #expect(prompt.layers.last?.id == "response")
    }

    @Test func sourcesPointAtTheExactLines() throws {
        let prompt = try compiler.compile(CompileInputs(topic: "goal-setting", intent: "next_step", profile: "freelance-designer",
                                                        screen: "Do I have ADHD?"), fileSystem: TestSupport.fileSystem)
        let persona = try #require(prompt.layers.first { $0.id == "persona" })
        let lines = try TestSupport.lines(of: "personas/betterone/persona.yaml")
        let nameLine = try #require(lines.firstIndex { $0.hasPrefix("  name: Simon") }) + 1
        #expect(persona.sources.contains("personas/betterone/persona.yaml:\(nameLine)"))
        let response = try #require(prompt.layers.last)
        let rules = try TestSupport.lines(of: "personas/betterone/rules.yaml")
        let titleLine = try #require(rules.firstIndex { $0.contains("title: No mental health diagnosis") }) + 1
        let instructionLine = try #require(rules.firstIndex { $0.contains("- Acknowledge the user's concern with empathy") }) + 1
        #expect(response.sources.contains("personas/betterone/rules.yaml:\(titleLine)"))
        #expect(response.sources.contains("personas/betterone/rules.yaml:\(instructionLine)"))
        // Values that did not reach the text are not sources: the crisis rule's alert did not fire.
        let crisisInstruction = try #require(rules.firstIndex { $0.contains("Ask whether they are safe right now") }) + 1
        #expect(!response.sources.contains("personas/betterone/rules.yaml:\(crisisInstruction)"))
        for layer in prompt.layers {
            #expect(!layer.sources.isEmpty)
            #expect(layer.sources == layer.sources.sorted { a, b in
                let (fa, la) = (a.split(separator: ":")[0], Int(a.split(separator: ":")[1]) ?? 0)
                let (fb, lb) = (b.split(separator: ":")[0], Int(b.split(separator: ":")[1]) ?? 0)
                return (fa, la) < (fb, lb)
            })
        }
    }

    @Test func compilingIsDeterministic() throws {
        let inputs = CompileInputs(topic: "focus", intent: "unstuck", profile: "new-manager", screen: "Should I stop taking my meds?")
        let a = try compiler.compile(inputs, fileSystem: TestSupport.fileSystem)
        let b = try TestSupport.compiler("betterone").compile(inputs, fileSystem: TestSupport.fileSystem)
        #expect(a == b)
        #expect(a.jsonString() == b.jsonString())
    }
}

extension TestSupport {
    /// The lines of a file under the package root.
    static func lines(of path: String) throws -> [String] {
        String(decoding: try fileSystem.read(path), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}

/// `compile --format json` and `--format markdown`: the prompt's layers with their tokens and
/// sources, and the screening, in forms a script or a reviewer reads.
@Suite struct CompiledPromptFormatTests {
    @Test func theJSONFormHasEveryLayerWithTokensAndSourcesAndTheScreening() throws {
        let prompt = try TestSupport.compiler("betterone").compile(
            CompileInputs(topic: "goal-setting", intent: "next_step", profile: "freelance-designer", screen: "Do I have ADHD? I can't focus on anything."),
            fileSystem: TestSupport.fileSystem)
        let json = try JSONValue.parse(Data(prompt.jsonString().utf8))
        let layers = try #require(json["layers"]?.array)
        #expect(layers.count == 6)
        for layer in layers {
            let sources = layer["sources"]?.array?.compactMap(\.string) ?? []
            #expect(!sources.isEmpty)
            #expect(sources.allSatisfy { $0.range(of: #"^personas/betterone/[a-z/-]+\.yaml:\d+$"#, options: .regularExpression) != nil }, "\(sources)")
            guard case .number(let tokens)? = layer["tokens"] else { Issue.record("no tokens"); continue }
            #expect(tokens > 0)
        }
        #expect(json["screening"]?["flags"]?[0]?["ruleId"]?.string == "no-diagnosis")
        #expect(json["screening"]?["flags"]?[0]?["excerpt"]?.string == "Do I have ADHD")
        #expect(json["system"]?.string == prompt.system && json["pack"]?.string == "betterone")
    }

    @Test func theMarkdownFormNamesThePackTheVariantEachLayerAndItsSources() throws {
        let compiler = try TestSupport.compiler("kindred")
        let variant = try #require(compiler.pack.variants.first { $0.id == "custom-fallback" })
        let markdown = try compiler.compile(CompileInputs(variant), fileSystem: TestSupport.fileSystem).markdown()
        #expect(markdown.hasPrefix("# kindred · custom-fallback"), "\(markdown.prefix(80))")
        #expect(markdown.contains("## 1. ROLE AND PERSONALITY"))
        #expect(markdown.contains("`personas/kindred/coaches/straight-talk-sam.yaml:"))
    }
}
