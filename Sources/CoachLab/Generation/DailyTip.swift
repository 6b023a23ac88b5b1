import Foundation

/// BetterOne's daily coaching tip (the Home Screen widget): one tip per day, drawn from the
/// pack's knowledge (each knowledge object's core idea and heuristics) and the takeaways of
/// the user's past sessions.
///
/// The pick is day-seeded, as the app's `CoachingTipService` does it:
/// `seed = year × 1000 + dayOfYear`. The seed's last digit decides the pool: 0, 1 or 2 (three
/// days in ten, so about 30% of days) pick from the takeaways when there are any; every other
/// day picks from the knowledge. Within the pool the tip is `pool[seed % pool.count]`. The
/// same date always gives the same tip, whatever the time zone or machine.
public enum DailyTip {
    /// A candidate tip.
    public struct Tip: Sendable, Hashable {
        /// Where it came from.
        public enum Source: Sendable, Hashable {
            /// A knowledge object of a topic (its core idea or a heuristic).
            case knowledge(topic: String, knowledge: String)
            /// The takeaway of a past session.
            case takeaway(endedAt: String)
        }

        /// The tip.
        public var text: String
        /// Its source.
        public var source: Source

        public init(text: String, source: Source) {
            self.text = text
            self.source = source
        }
    }

    /// The pick for one day, with how it was made.
    public struct Pick: Sendable, Hashable {
        /// The tip.
        public var tip: Tip
        /// `year × 1000 + dayOfYear`.
        public var seed: Int
        /// Whether the takeaways' pool was used.
        public var fromTakeaways: Bool
        /// The size of the pool it came from.
        public var poolSize: Int
    }

    /// The knowledge tips of a pack, in pack order: for each topic's knowledge objects, the
    /// core idea, then each heuristic.
    public static func knowledgeTips(_ pack: Pack) -> [Tip] {
        pack.topics.flatMap { topic in
            topic.knowledge.flatMap { knowledge -> [Tip] in
                let id = knowledge.value["id"]?.text ?? knowledge.value["title"]?.text ?? "knowledge"
                let texts = [knowledge.value["coreIdea"]?.text].compactMap { $0 } + (knowledge.value["heuristics"]?.items ?? []).compactMap(\.text)
                return texts.map { Tip(text: $0.trimmingCharacters(in: .whitespacesAndNewlines), source: .knowledge(topic: topic.slug, knowledge: id)) }
            }
        }
    }

    /// The tip for `date`.
    /// - Returns: nil when both pools are empty.
    public static func pick(for date: LocalDateTime, knowledge: [Tip], takeaways: [Tip]) -> Pick? {
        let seed = date.year * 1000 + date.dayOfYear
        let preferTakeaway = !takeaways.isEmpty && seed % 10 < 3
        let pool = preferTakeaway || knowledge.isEmpty ? takeaways : knowledge
        guard !pool.isEmpty else { return nil }
        return Pick(tip: pool[seed % pool.count], seed: seed, fromTakeaways: pool == takeaways, poolSize: pool.count)
    }

    /// The picks of `days` consecutive dates from `start`, each with its date; a date with no
    /// pick (both pools empty) is left out.
    public static func picks(from start: LocalDateTime, days: Int, knowledge: [Tip], takeaways: [Tip]) -> [(date: LocalDateTime, pick: Pick)] {
        (0..<max(0, days)).compactMap { offset in
            let date = start.adding(days: offset)
            return pick(for: date, knowledge: knowledge, takeaways: takeaways).map { (date, $0) }
        }
    }

    /// How `coachlab tips` shows a day's pick: the date and the tip, then, indented under the
    /// tip, where it came from and how it was picked.
    public static func text(_ date: LocalDateTime, _ pick: Pick) -> String {
        let source = switch pick.tip.source {
        case .knowledge(let topic, let knowledge): "knowledge \(topic)/\(knowledge)"
        case .takeaway(let endedAt): "your takeaway of \(endedAt)"
        }
        return "\(date.dateString)  \(pick.tip.text)\n"
            + "            (\(source); seed \(pick.seed), \(pick.fromTakeaways ? "takeaways" : "knowledge") pool of \(pick.poolSize))\n"
    }

    /// A sessions file: the wrap-ups of past sessions, newest last.
    public static let sessionsSpec = ObjectSpec("sessions file", "Past sessions' wrap-ups (takeaway and next step), for daily tips.", fields: [
        FieldSpec("sessions", .list(.object(sessionSpec)), required: true, "The sessions."),
    ])

    /// One session of a sessions file.
    public static let sessionSpec = ObjectSpec("session", "One finished session.", fields: [
        FieldSpec("endedAt", .date, required: true, "When the session ended."),
        FieldSpec("topic", .string, "The topic's slug."),
        FieldSpec("intent", .string, "The intent's id."),
        FieldSpec("takeaway", .text, required: true, "The takeaway the wrap-up produced."),
        FieldSpec("nextStep", .text, "The next step the wrap-up produced."),
    ])

    /// The takeaways of a sessions file, in file order.
    /// - Throws: ``CoachLabError`` (content) with locations.
    public static func takeaways(_ data: Data, file: String) throws -> [Tip] {
        let root = try YAMLDocument.parse(data, file: file)
        let diagnostics = ContentValidator.validate(root, spec: sessionsSpec)
        if diagnostics.contains(where: { $0.severity == .error }) { throw CoachLabError(.content, diagnostics) }
        return (root["sessions"]?.items ?? []).compactMap { session in
            guard let text = session["takeaway"]?.text else { return nil }
            return Tip(text: text, source: .takeaway(endedAt: session["endedAt"]?.text ?? ""))
        }
    }
}
