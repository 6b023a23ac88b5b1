/// A conversation written as a fixture file: its pack, compile inputs and turns with the
/// replies that were given, so `coachlab chat --save` turns a chat into a regression case.
/// Every value is quoted, so what a user typed never becomes YAML structure.
public struct FixtureRecording: Sendable {
    /// One exchange.
    public struct Turn: Sendable, Hashable {
        public var user: String
        public var reply: String

        public init(user: String, reply: String) {
            self.user = user
            self.reply = reply
        }
    }

    public var id: String
    public var pack: String
    public var inputs: CompileInputs
    public var turns: [Turn]

    public init(id: String, pack: String, inputs: CompileInputs, turns: [Turn]) {
        self.id = id
        self.pack = pack
        self.inputs = inputs
        self.turns = turns
    }

    /// The first line of every recording: `chat --save` replaces a file only when it opens so.
    public static let mark = "# Recorded with coachlab chat."

    /// Whether `text` is a fixture `chat --save` wrote (which a new recording may replace).
    public static func isRecording(_ text: String) -> Bool {
        text.hasPrefix(mark + "\n")
    }

    /// The fixture file's text.
    public var yaml: String {
        func quoted(_ text: String) -> String { JSONValue.string(text).text }
        var lines = [Self.mark, "fixture:", "  id: \(quoted(id))", "  pack: \(quoted(pack))"]
        for (key, value) in [("coach", inputs.coach), ("topic", inputs.topic), ("intent", inputs.intent), ("profile", inputs.profile),
                             ("memory", inputs.memory), ("context", inputs.context), ("now", inputs.now?.description)] {
            if let value { lines.append("  \(key): \(quoted(value))") }
        }
        lines.append("turns:")
        for turn in turns {
            lines.append("  - user: \(quoted(turn.user))")
            lines.append("    reply: \(quoted(turn.reply))")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
