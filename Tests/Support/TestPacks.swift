/// Packs written for tests, as YAML, for tests in any target to load or write out.
public enum TestPacks {
    /// A pack whose alert no title or wording marks as one: what the flag adds is a line
    /// between tildes and the instructions as plain lines.
    public static let plainAlert = """
        pack: {id: kai, name: Kai, version: "1"}
        persona: {name: Kai, role: coach}
        rules:
          - id: harm
            title: Self-harm
            category: safety
            priority: 100
            content: Self-harm goes to crisis help.
            guardrail:
              keywords: [hurt myself]
              alert:
                reason: The user may hurt themselves.
                instructions:
                  - Ring Samaritans on 116 123 tonight
                  - Stay with them in the conversation
        stack:
          layers:
            - id: a
              template: |
                You are Kai, a coach. Reply in two sentences.
                {{#risk}}
                ~ {{rule.title}} ~
                {{#alert.instructions}}
                {{.}}
                {{/alert.instructions}}
                {{/risk}}
        """
}
