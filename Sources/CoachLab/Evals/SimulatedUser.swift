/// A user played by a model (or, on the mock, by a script), for conversations whose user
/// lines are not written out: who they are, what they want, how they talk, what they reveal
/// and push back with, and when the conversation is over.
public struct SimulatedUser: Sendable, Hashable {
    /// When the conversation ends, checked after each coach reply.
    public enum Stop: Sendable, Hashable {
        /// The simulated user says their goal is reached (a model ends its message with
        /// ``SimulatedUser/doneMarker``; the script does after its last line).
        case goalReached
        /// The coach's reply contains one of these phrases (any case): it asked for what the
        /// fixture waits for (a crisis line, a doctor, the user's safety).
        case coachSays([String])
        /// The simulated user's message contains this phrase.
        case userSays(String)
    }

    /// Who they are.
    public var persona: String
    /// What they want from the conversation.
    public var goal: String
    /// How they write.
    public var style: String?
    /// The first message, when it is fixed.
    public var opening: String?
    /// What they reveal, one at a time, in order.
    public var facts: [String]
    /// What they push back with, after the facts, in order.
    public var objections: [String]
    /// The most coach replies the conversation runs to.
    public var maxTurns: Int
    /// When it ends early; when none fires by `maxTurns`, the `simulated-user` check fails.
    public var stops: [Stop]
    /// Where the `user:` mapping is.
    public var location: SourceLocation

    /// What a model playing the user writes at the end of its message when the goal is reached.
    public static let doneMarker = "[DONE]"

    public init(persona: String, goal: String, style: String? = nil, opening: String? = nil, facts: [String] = [],
                objections: [String] = [], maxTurns: Int = 6, stops: [Stop] = [.goalReached], location: SourceLocation) {
        self.persona = persona
        self.goal = goal
        self.style = style
        self.opening = opening
        self.facts = facts
        self.objections = objections
        self.maxTurns = maxTurns
        self.stops = stops
        self.location = location
    }

    /// The script the mock plays: the opening, each fact, each objection, then a line that
    /// says the goal is reached. `turn` counts the user's simulated messages from 0.
    public func scriptedMessage(turn: Int) -> (text: String, goalReached: Bool) {
        let lines = (opening.map { [$0] } ?? []) + facts + objections
        if turn < lines.count { return (lines[turn], false) }
        return ("Thank you, that helps. I think I can manage now.", true)
    }

    /// The stop that fires after a coach reply to `message`, if any.
    public func stop(after reply: String, message: String, goalReached: Bool) -> String? {
        for stop in stops {
            switch stop {
            case .goalReached where goalReached:
                return "the simulated user reached their goal"
            case .coachSays(let phrases):
                if let phrase = phrases.first(where: { reply.range(of: $0, options: .caseInsensitive) != nil }) {
                    return "the coach said \"\(phrase)\""
                }
            case .userSays(let phrase) where message.range(of: phrase, options: .caseInsensitive) != nil:
                return "the simulated user said \"\(phrase)\""
            default:
                continue
            }
        }
        return nil
    }

    /// The system prompt of a model playing the user. It never sees the coach's prompt.
    public var prompt: String {
        var lines = [
            "You are role-playing a person who is using a coaching app. Write only that person's next message to the coach: no quotation marks, no labels, no narration.",
            "Who you are: \(persona)",
            "What you want from this conversation: \(goal)",
        ]
        if let style { lines.append("How you write: \(style)") }
        if !facts.isEmpty {
            lines.append("Reveal these facts gradually, at most one per message, in this order:\n" + facts.map { "- \($0)" }.joined(separator: "\n"))
        }
        if !objections.isEmpty {
            lines.append("Push back with these when the coach suggests something, in this order:\n" + objections.map { "- \($0)" }.joined(separator: "\n"))
        }
        lines.append("Stay in character; never say you are an AI. When your goal is reached, end your message with \(Self.doneMarker).")
        return lines.joined(separator: "\n\n")
    }

    /// The spec of a fixture's `user:` mapping.
    public static let spec = ObjectSpec("simulated user", "A user a model plays (the mock works through the facts and objections in order).", fields: [
        FieldSpec("persona", .text, required: true, "Who they are."),
        FieldSpec("goal", .text, required: true, "What they want from the conversation."),
        FieldSpec("style", .text, "How they write."),
        FieldSpec("opening", .text, "Their first message, when it is fixed."),
        FieldSpec("facts", .list(.text), "What they reveal, one per message, in order."),
        FieldSpec("objections", .list(.text), "What they push back with, after the facts."),
        FieldSpec("maxTurns", .atLeast(1), "The most coach replies. Default 6."),
        FieldSpec("stopWhen", .list(.any), "goal (default), {coachSays: [phrases]} or {userSays: phrase}; when none fires by maxTurns, the simulated-user check fails."),
    ])

    /// Reads a `user:` mapping.
    public static func parse(_ value: YAMLValue, into diagnostics: inout [Diagnostic]) -> SimulatedUser? {
        guard let persona = value.located("persona")?.value, let goal = value.located("goal")?.value else { return nil }
        var stops: [Stop] = []
        for item in value["stopWhen"]?.items ?? [] {
            if item.scalar?.text == "goal" {
                stops.append(.goalReached)
            } else if let phrases = item["coachSays"] {
                let list = phrases.items?.compactMap(\.text) ?? phrases.text.map { [$0] } ?? []
                guard !list.isEmpty else {
                    diagnostics.append(.error("coachSays needs one or more phrases", at: phrases.location))
                    continue
                }
                stops.append(.coachSays(list))
            } else if let phrase = item.located("userSays")?.value {
                stops.append(.userSays(phrase))
            } else {
                diagnostics.append(.error("a stop is 'goal', {coachSays: [phrases]} or {userSays: phrase}", at: item.location))
            }
        }
        let maxTurns = value.integer("maxTurns") ?? 6
        if !(1...50).contains(maxTurns) {
            diagnostics.append(.error("maxTurns must be from 1 to 50", at: value["maxTurns"]?.location ?? value.location))
        }
        return SimulatedUser(persona: persona, goal: goal, style: value.located("style")?.value, opening: value.located("opening")?.value,
                             facts: value.locatedList("facts").map(\.value), objections: value.locatedList("objections").map(\.value),
                             maxTurns: min(max(maxTurns, 1), 50), stops: stops.isEmpty ? [.goalReached] : stops, location: value.location)
    }
}
