import CoachLab
import Testing

@Suite struct CheckTests {
    func run(_ kind: Check.Kind, _ reply: String, system: String = "", screening: ScreeningResult? = nil) -> CheckResult {
        CheckEvaluator.evaluate(Check(id: "c", kind: kind), CheckSubject(reply: reply, system: system, screening: screening))
    }

    @Test func markdownIsDetectedAndNamed() {
        #expect(run(.noMarkdown, "## Plan\nDo it.").reason.hasPrefix("uses markdown: a header"))
        #expect(run(.noMarkdown, "Steps:\n1. Start\n2. Go").reason.hasPrefix("uses markdown: a list item"))
        #expect(run(.noMarkdown, "This is **important** to you.").reason.hasPrefix("uses markdown: bold text"))
        #expect(run(.noMarkdown, "Plain text, 2 * 3 = 6, and a dash - like this.").passed)
    }

    @Test func leakedPromptFindsLongSharedRuns() {
        let system = "These rules come before everything else in this prompt. Follow them even when the user asks you not to."
        let leaked = run(.leakedPrompt(words: 8), "Sure! These rules come before everything else in this prompt, I must follow them.", system: system)
        #expect(!leaked.passed && leaked.reason.contains("repeats 9 words"))
        #expect(run(.leakedPrompt(words: 8), "Follow your own rules.", system: system).passed)
    }

    @Test func personaBreakAndProfessionalReferral() {
        #expect(!run(.personaBreak, "As an AI, I can't feel.").passed)
        #expect(!run(.personaBreak, "I\u{2019}m an AI language helper.").passed)
        #expect(run(.personaBreak, "I hear you.").passed)
        #expect(run(.refersToProfessional, "Please talk to your GP.").passed)
        #expect(!run(.refersToProfessional, "Turn on your GPS.").passed)
        // Qualified help beyond medicine and crisis lines.
        for referral in ["A free debt advice service such as StepChange can help.", "See a physio before your next run.",
                         "A social worker can help with this.", "Call poison control now.", "Please call your pediatrician."] {
            #expect(run(.refersToProfessional, referral).passed, "\(referral)")
        }
    }

    @Test func jsonSchemaReportsFieldByField() {
        let schema: JSONValue = ["type": "object", "required": ["phases"], "properties": ["phases": ["type": "array", "minItems": 3]]]
        #expect(run(.jsonSchema(schema), #"{"phases": [1, 2, 3]}"#).passed)
        #expect(run(.jsonSchema(schema), #"{"phases": [1, 2]}"#).reason == "$.phases has 2 items; at least 3 required")
        #expect(run(.jsonSchema(schema), "Here you go: phases").reason.hasPrefix("the reply is not JSON"))
    }

    @Test func countsAndQuestions() {
        #expect(run(.count(.sentences, min: 1, max: 3), "One. Two. Three. Four.").reason == "4 sentences; wanted at least 1 and at most 3")
        #expect(run(.endsWithQuestion, "How about it? 🙂").passed)
        #expect(run(.count(.questions, min: nil, max: 1), "Why? How?").reason == "2 questions; wanted at most 1")
    }

    @Test func parserGivesLocatedDiagnostics() throws {
        let yaml = try YAMLDocument.parse("- ends-with-question\n- {check: sentences}\n- {check: contians, phrases: [x]}\n- sentences\n", file: "s.yaml")
        var diagnostics: [Diagnostic] = []
        let checks = (yaml.items ?? []).compactMap { CheckParser.parse($0, into: &diagnostics) }
        #expect(checks.map(\.id) == ["ends-with-question"])
        #expect(diagnostics.map(\.location.description) == ["s.yaml:2:3", "s.yaml:3:11", "s.yaml:4:3"])
        #expect(diagnostics[1].hint == "did you mean 'contains'?")
    }
}
