import CoachLab

/// What only the mock coach reads besides the request: the reply a fixture scripts, where each
/// value of the prompt came from (``CompiledPrompt/structure``), and the lines the latest
/// message's flag added (``CompiledPrompt/alert(comparedWith:)``). It travels on the mock's side
/// of the provider boundary: the caller sets it around one call (``current``), so no provider's
/// request carries it and nothing of it is ever sent.
public struct MockCue: Sendable {
    /// A reply the mock must give (a fixture's `mock:`).
    public var scriptedReply: String?
    /// Where each value in the system prompt came from: the mock takes names, facts and the
    /// alert's instructions from it before it reads any wording.
    public var structure: PromptStructure?
    /// Ids of the layers a reply may quote: those every leak check of the turn
    /// (`leaked-prompt`, `follows-contract`) names quotable.
    public var quotable: Set<String>
    private let alertLines: @Sendable () -> String?

    /// - Parameter alert: The alert lines, asked for only when the mock reads them: working them
    ///   out compiles the prompt without the flag, which no other provider needs.
    public init(scriptedReply: String? = nil, structure: PromptStructure? = nil, quotable: Set<String> = [],
                alert: @escaping @Sendable () -> String? = { nil }) {
        self.scriptedReply = scriptedReply
        self.structure = structure
        self.quotable = quotable
        alertLines = alert
    }

    /// The lines the latest message's flag added to the system prompt, the live alert however
    /// the pack words it; nil when no message is flagged.
    public var alert: String? { alertLines() }

    /// The cue for the calls made within `withValue`, in this task and the tasks it starts.
    @TaskLocal public static var current: MockCue?
}
