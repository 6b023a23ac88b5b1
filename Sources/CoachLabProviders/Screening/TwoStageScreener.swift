import CoachLab

/// BetterOne's two-stage screen: the pack's keywords and patterns first (instant, no model),
/// then, when they found nothing (or always, if the pack says so), a model classifying the
/// message against the pack's guarded rules. An unparsable answer is `unknown`, never safe.
public struct TwoStageScreener: Sendable {
    /// One message's screening.
    public struct Outcome: Sendable {
        /// Every flag from both stages, highest priority first.
        public var screening: ScreeningResult
        /// What stage 2 answered, when it ran.
        public var verdict: StageTwoClassifier.Verdict?
        /// The classifier's raw answer, when it ran.
        public var answer: String?

        /// Whether stage 2 ran and could not be understood.
        public var isUnknown: Bool {
            if case .unknown = verdict { return true }
            return false
        }
    }

    public let pack: Pack
    private let screener: Screener
    /// The stage-2 model; nil runs stage 1 alone.
    public let classifier: (any ChatProvider)?

    public init(pack: Pack, classifier: (any ChatProvider)? = nil) {
        self.pack = pack
        self.screener = Screener(pack: pack)
        self.classifier = classifier
    }

    /// Screens one message.
    /// - Throws: ``ProviderError`` when the classifier's provider fails.
    public func screen(_ message: String) async throws -> Outcome {
        var result = screener.screen(message)
        guard let classifier, !result.isFlagged || pack.defaults.stage2Always else {
            return Outcome(screening: result, verdict: nil, answer: nil)
        }
        let request = ChatRequest(system: StageTwoClassifier.system(rules: pack.rules),
                                  messages: [ChatMessage(.user, StageTwoClassifier.message(message))],
                                  settings: GenerationSettings(model: "", temperature: 0, maxTokens: 64))
        let answer = try await classifier.complete(request).text
        let verdict = StageTwoClassifier.parse(answer, rules: pack.rules)
        if let flag = StageTwoClassifier.flag(verdict, message: message), !result.flags.contains(where: { $0.ruleId == flag.ruleId }) {
            result.flags.append(flag)
            result.flags.sort { $0.priority != $1.priority ? $0.priority > $1.priority : $0.stage < $1.stage }
        }
        return Outcome(screening: result, verdict: verdict, answer: answer)
    }
}
