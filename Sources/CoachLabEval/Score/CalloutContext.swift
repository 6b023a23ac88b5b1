import CoachLab
import CoachLabProviders

/// What a check that calls out is given: the reply and the conversation, the case it belongs to,
/// and the model or the process environment it needs.
public struct CalloutContext: Sendable {
    /// The reply as the local checks see it, with its prompt. At the end of a conversation, the
    /// last reply's.
    public var subject: CheckSubject
    /// The reply scored; nil when the conversation as a whole is.
    public var reply: String?
    /// The conversation: up to and including the reply scored, or all of it at the end.
    public var history: [ChatMessage]
    /// The case: its suite, fixture and provider, the turn (from 1) and what the user said.
    public var suite: String
    public var fixture: String
    public var provider: String
    public var turn: Int
    public var user: String
    /// The fixture's pack and the inputs it compiled with, as a script reads them.
    public var inputs: [String: String]
    /// The provider a model-backed check calls (its own, else the suite's judge, else the mock);
    /// nil for a check that calls no model.
    public var model: ProviderSlot?
    /// The project's files: a script's path is taken from its folder, where it runs.
    public var fileSystem: FileSystem?
    /// The environment a script's named variables come from, and whose secrets are removed from
    /// what it says.
    public var environment: [String: String]
}
