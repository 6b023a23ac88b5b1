import CoachLab
import Foundation
import Testing

/// Production transcripts as fixtures: one message or one conversation a line, the user's
/// data neutralised, every bad line named.
@Suite struct TranscriptImportTests {
    static let export = """
        {"conversation": "c-101", "role": "system", "content": "You are Luna."}
        {"conversation": "c-101", "role": "user", "content": "Hi, I'm Priya. It's 3am and I've slept 4 hours in 2 days."}
        {"conversation": "c-101", "role": "assistant", "content": "Hi Priya, I'm here. If you're in danger, call 988."}
        {"conversation": "c-101", "role": "user", "content": "Email me at priya.k@example.com or call +1 (415) 555-0199."}
        {"id": "c 102", "messages": [{"role": "user", "content": [{"type": "text", "text": "See https://example.org/a?b=1 please"}]}, {"role": "assistant", "content": "Okay."}]}
        """

    @Test func eachConversationIsAFixtureWithItsHistoryAndItsLastMessage() throws {
        let imported = TranscriptImport(jsonl: Self.export, file: "export.jsonl", names: ["Priya"])
        #expect(imported.diagnostics.isEmpty)
        #expect(imported.conversations.map(\.id) == ["c-101", "c 102"])
        let files = imported.fixtures(pack: "personas/luna", prefix: "luna-prod")
        #expect(files.map(\.name) == ["luna-prod-c-101.yaml", "luna-prod-c-102.yaml"])
        let first = files[0].yaml
        #expect(first.contains(#"  - user: "Hi, I'm [name]. It's 3am and I've slept 4 hours in 2 days.""#), "\(first)")
        #expect(first.contains(#"    reply: "Hi [name], I'm here. If you're in danger, call 988.""#), "\(first)")
        #expect(first.hasSuffix("  - user: \"Email me at [email] or call [phone].\"\n"), "\(first)")
        #expect(!first.contains("You are Luna"))
        // A conversation that ends with a reply asks its last message again.
        #expect(files[1].yaml.hasSuffix("  - user: \"See [link] please\"\n"), "\(files[1].yaml)")
        #expect(imported.neutralised == ["name": 2, "email": 1, "phone": 1, "link": 1])
    }

    @Test func aBadLineIsNamedAtItsLine() {
        let imported = TranscriptImport(jsonl: "{\"role\": \"user\", \"content\": \"hi\"}\nnot json\n{\"content\": \"no role\"}\n", file: "x.jsonl")
        let messages = imported.diagnostics.map(\.description)
        #expect(messages.count == 2)
        #expect(messages[0].hasPrefix("x.jsonl:2:1: error: this line is not a JSON object"), "\(messages)")
        #expect(messages[1].hasPrefix("x.jsonl:3:1: error: a line needs role and content"), "\(messages)")
    }
}
