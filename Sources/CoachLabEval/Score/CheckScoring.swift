import CoachLab
import CoachLabProviders

/// Scores replies with checks: the one path eval and rescore share. A check that reads only the
/// reply and its prompt is scored by ``CheckEvaluator``; one that calls out (``CallingCheck``)
/// is given what it needs. A rescore calls no model, so there a model-backed check is answered
/// by the verdicts stored with the reply.
struct CheckScoring: Sendable {
    /// How checks that call a model are answered.
    enum Models: Sendable {
        /// By asking the run's providers, by name: a check's own, else `judge`, else the mock.
        case ask([String: ProviderSlot], judge: String?)
        /// By the verdicts stored with the reply, as a rescore answers them.
        case stored
    }

    /// What scoring gave: the results in the order of the checks, the checks left for the end
    /// of the conversation, and, when the verdicts are stored ones, how many were carried and
    /// how many checks had none.
    struct Scored {
        var results: [CheckResult] = []
        var later: [Check] = []
        var carried = 0
        var ungraded = 0
    }

    var models: Models
    var fileSystem: FileSystem?
    var environment: [String: String]

    /// Scores one reply with `checks`. A check scored over the conversation is not scored
    /// here but returned in ``Scored/later``, once.
    /// - Parameter stored: The verdicts stored with the reply, for a rescore.
    func score(reply checks: [Check], in context: CalloutContext, stored: [CheckResult] = []) async throws -> Scored {
        var scored = Scored()
        for check in checks {
            if let calling = check.kind.value as? any CallingCheck, calling.scoresConversation {
                if !scored.later.contains(where: { $0.id == check.id }) { scored.later.append(check) }
                continue
            }
            try await score(check, in: context, stored: stored, into: &scored)
        }
        return scored
    }

    /// Scores the checks left for the end of the conversation; `context` has the whole
    /// conversation and no ``CalloutContext/reply``.
    func score(conversation checks: [Check], in context: CalloutContext, stored: [CheckResult] = []) async throws -> Scored {
        var scored = Scored()
        for check in checks { try await score(check, in: context, stored: stored, into: &scored) }
        return scored
    }

    private func score(_ check: Check, in context: CalloutContext, stored: [CheckResult], into scored: inout Scored) async throws {
        guard let calling = check.kind.value as? any CallingCheck else {
            scored.results.append(CheckEvaluator.evaluate(check, context.subject))
            return
        }
        var context = context
        if case .model(let named) = check.callout {
            switch models {
            case .stored:
                // A rubric with criteria stored one result per criterion (`id.criterion`).
                let verdicts = stored.filter { $0.check == check.id || $0.check.hasPrefix(check.id + ".") }
                if verdicts.isEmpty { scored.ungraded += 1 } else { scored.carried += verdicts.count }
                scored.results += verdicts
                return
            case .ask(let slots, let judge):
                guard let slot = slots[named ?? judge ?? "mock"] else {
                    // No provider was prepared for it: the kind says what it needed.
                    scored.results.append(CheckEvaluator.evaluate(check, context.subject))
                    return
                }
                context.model = slot
            }
        }
        context.fileSystem = fileSystem
        context.environment = environment
        scored.results += try await calling.score(as: check, in: context)
    }

    /// The provider that scores a model-backed check: its own, else the suite's judge, else the mock.
    static func modelName(of check: Check, suite: Suite) -> String? {
        guard case .model(let named) = check.callout else { return nil }
        return named ?? suite.judge ?? "mock"
    }
}
