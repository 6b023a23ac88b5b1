import CoachLab
import CoachLabProviders

/// A check kind that calls out to be scored: to a model (``CheckCallout/model(provider:)``)
/// or to a process (``CheckCallout/process``). The kind declares what it needs through
/// ``CheckKind/callout``; the case session gives it that in a ``CalloutContext``, in eval and
/// rescore alike (``CheckScoring``). A new kind that calls out is its own file: the kind, and
/// this conformance.
public protocol CallingCheck: CheckKind {
    /// Whether it is scored once, when the conversation is over (a rubric graded over a turn or
    /// the whole conversation), rather than on every reply.
    var scoresConversation: Bool { get }
    /// Scores the reply of `context` (or, when ``CalloutContext/reply`` is nil, the
    /// conversation). A rubric with criteria gives a result for each.
    /// - Throws: A ``ProviderError`` from the model, which makes the case an error, not a fail.
    func score(as check: Check, in context: CalloutContext) async throws -> [CheckResult]
}

extension CallingCheck {
    public var scoresConversation: Bool { false }
}
