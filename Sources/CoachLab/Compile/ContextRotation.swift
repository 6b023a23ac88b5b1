/// A pack's context-window policy for long conversations (Kindred's): once the history
/// reaches `rotateAt` messages, the last `summarizeLast` are summarised and the conversation
/// continues in a fresh session whose system prompt carries that summary. A provider's
/// context-overflow error triggers the same rotation.
public struct ContextRotation: Sendable, Hashable {
    /// Rotate when the history holds this many messages.
    public var rotateAt: Int
    /// How many of the latest messages the summary covers.
    public var summarizeLast: Int

    public init(rotateAt: Int, summarizeLast: Int) {
        self.rotateAt = max(2, rotateAt)
        self.summarizeLast = max(1, summarizeLast)
    }

    /// The pack's declared policy, or nil when it declares none.
    public init?(_ defaults: Defaults) {
        guard let rotateAt = defaults.rotateAtMessages else { return nil }
        self.init(rotateAt: rotateAt, summarizeLast: defaults.summarizeLast ?? rotateAt)
    }

    /// Whether a history of `count` messages must rotate before the next message.
    public func mustRotate(_ count: Int) -> Bool { count >= rotateAt }

    /// The first line of the summariser's instructions (the mock recognises it).
    public static let summaryMarker = "You summarise a coaching conversation so that it can continue in a new session."

    /// The summariser's instructions.
    public static let summarySystem = """
        \(summaryMarker)
        Write at most five plain sentences, in the third person ("The user…", "The coach…"):
        what the user is working on, what they said matters to them, what was agreed, and
        what the coach asked last. No headings, lists or markdown.
        """

    /// The transcript the summariser reads: the last `summarizeLast` messages of `history`,
    /// as (isUser, text) pairs, one "User:"/"Coach:" line each.
    public func transcript(_ history: [(isUser: Bool, text: String)]) -> String {
        history.suffix(summarizeLast).map { ($0.isUser ? "User: " : "Coach: ") + $0.text }.joined(separator: "\n")
    }

    /// The heading of the summary a rotated session's system prompt ends with.
    public static let carriedHeading = "=== Summary of the earlier conversation (the session was rotated) ==="

    /// A system prompt carrying the summary of the rotated-out conversation.
    public static func carry(_ summary: String, into system: String) -> String {
        system + "\n\n" + carried(summary)
    }

    /// `prompt` as a rotated session sends it: the summary a last layer of its own, and the
    /// text, estimated tokens and hash those of what is sent, so that a store keeps (and a
    /// rescore reads) the prompt a reply answered.
    public static func carry(_ summary: String, into prompt: CompiledPrompt) -> CompiledPrompt {
        var sent = prompt
        let text = carried(summary)
        sent.system = carry(summary, into: prompt.system)
        sent.layers.append(CompiledPrompt.Layer(id: "carried-summary", title: "Summary of the earlier conversation", text: text,
                                                tokens: TokenEstimator.estimate(text), sources: []))
        sent.tokens = TokenEstimator.estimate(sent.system)
        sent.hash = StableHash.hex(sent.system)
        return sent
    }

    /// What a rotated session's system prompt ends with: the heading, then the summary.
    private static func carried(_ summary: String) -> String {
        carriedHeading + "\n" + summary.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
