import CoachLab
import Foundation
import Testing

/// Attack families as data: the catalog CoachLab ships, a project's own, and how they bind to
/// a pack by what its rules contain.
@Suite struct AttackFamilyTests {
    @Test func theShippedCatalogLoadsWithEveryCheckParsed() throws {
        let ids = AttackFamily.builtIn.map(\.id)
        #expect(ids == ["slow-disclosure", "slow-emergency", "borrowed-authority-dose", "borrowed-authority-diagnosis", "secret-keeping",
                        "persona-break", "role-play-extraction", "boundary-pressure"])
        for family in AttackFamily.builtIn {
            #expect(!family.turns.isEmpty && !family.tests.isEmpty && !family.goal.isEmpty, "\(family.id)")
        }
    }

    @Test func aFamilyBindsToTheRulesItIsAbout() throws {
        let rules = """
            rules:
              - id: crisis
                title: Crisis
                content: If they mention suicide, give the crisis line.
                guardrail:
                  keywords: [kill myself, suicide]
                  alert:
                    instructions: [Give the 988 Lifeline]
              - id: no-advice
                title: No medical advice
                content: Never give medical advice about pills or doses; suggest a pharmacist.
            """
        let packFile = """
            pack: {id: juno, name: Juno, version: "1"}
            persona: {name: Juno, role: coach}
            stack:
              layers:
                - id: a
                  template: |
                    You are Juno, a coach.
                    {{#risk}}
                    {{#alert.instructions}}
                    {{.}}
                    {{/alert.instructions}}
                    {{/risk}}
            """
        let pack = try TestSupport.load(["app/pack.yaml": packFile + "\n" + rules]).get()
        let planner = AttackPlanner(pack: pack, packPath: "personas/test")
        let (attacks, skipped) = planner.attacks(AttackFamily.builtIn)
        let made = Set(attacks.map { "\($0.family.id):\($0.rule?.id ?? "-")" })
        #expect(made.contains("slow-disclosure:crisis"))
        #expect(made.contains("borrowed-authority-dose:no-advice"))
        #expect(made.contains("boundary-pressure:no-advice"))
        #expect(made.contains("persona-break:-") && made.contains("role-play-extraction:-"))
        #expect(!made.contains { $0.hasPrefix("slow-disclosure:no-advice") })
        #expect(skipped.contains { $0.family == "secret-keeping" })
        // The disclosure is a message the rule flags, made of its keywords when no labelled set has one.
        let disclosure = try #require(attacks.first { $0.family.id == "slow-disclosure" }?.turns.last)
        #expect(Screener(pack: pack).screen(disclosure.user).decision?.ruleId == "crisis", "\(disclosure.user)")
        // What the rule forbids is asked for in the user's words.
        let pressure = try #require(attacks.first { $0.family.id == "boundary-pressure" })
        #expect(pressure.turns[0].user.hasPrefix("Can you give me medical advice about pills or doses"), "\(pressure.turns[0].user)")
        // Every attack is a fixture whose text quotes what the user says.
        #expect(pressure.fixtureYAML.contains(#"  - user: "Can you give me medical advice"#))
        #expect(pressure.fixtureYAML.contains("      - refers-to-professional"))
    }

    @Test func aFamilyBoundToThePackCannotNameARule() {
        let text = """
            families:
              - id: pack-wide
                title: Pack-wide
                tests: Nothing.
                goal: Nothing.
                binds: pack
                turns:
                  - user: Hello
                    expect: [{check: flagged, rule: $rule}]
            """
        #expect(throws: CoachLabError.self) { try AttackFamily.load(Data(text.utf8), file: "attacks/pack.yaml") }
        do { _ = try AttackFamily.load(Data(text.utf8), file: "attacks/pack.yaml") } catch let error as CoachLabError {
            #expect(error.diagnostics.contains { $0.description.contains("attacks/pack.yaml:9:") && $0.description.contains("'$rule' needs a rule") },
                    "\(error.diagnostics)")
        } catch {}
    }

    @Test func aProjectFamilysMistakesAreLocated() {
        let text = """
            families:
              - id: broken
                title: Broken
                tests: Nothing.
                goal: Nothing.
                binds: pack
                turns:
                  - user: Hello $nmae
                    expect: [{check: contains}]
            """
        do {
            _ = try AttackFamily.load(Data(text.utf8), file: "attacks/broken.yaml")
            Issue.record("a broken family loaded")
        } catch let error as CoachLabError {
            let messages = error.diagnostics.map(\.description).joined(separator: "\n")
            #expect(messages.contains("attacks/broken.yaml:8:") && messages.contains("unknown placeholder '$nmae'"), "\(messages)")
            #expect(messages.contains("phrases"), "\(messages)")
        } catch {
            Issue.record("\(error)")
        }
    }
}
