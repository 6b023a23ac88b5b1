import Foundation

/// A conversation to generate from: messages in order, each the user's or the coach's.
///
/// A transcript file is either YAML (or JSON) with a `messages:` list whose items are
/// `{user: …}` or `{coach: …}` (`assistant:` is accepted for `coach:`), or a fixture file
/// (its turns' `user:` and `reply:`), or plain text with one message per paragraph, each
/// starting `User:` or `Coach:` (`Assistant:` also works); a line with neither prefix
/// continues the message above it.
public struct Transcript: Sendable, Hashable {
    /// One message.
    public struct Message: Sendable, Hashable {
        /// Whether the user said it (otherwise the coach did).
        public var isUser: Bool
        /// What was said.
        public var text: String

        public init(isUser: Bool, text: String) {
            self.isUser = isUser
            self.text = text
        }
    }

    /// The messages, oldest first.
    public var messages: [Message]

    public init(_ messages: [Message]) {
        self.messages = messages
    }

    /// The user's messages.
    public var userMessages: [String] { messages.filter(\.isUser).map(\.text) }

    /// The transcript as the model reads it: one `User:`/`Coach:` line per message.
    public var text: String {
        messages.map { ($0.isUser ? "User: " : "Coach: ") + $0.text.replacingText("\n", with: " ") }.joined(separator: "\n")
    }

    /// Parses a transcript's text back from ``text`` (what the mock reads).
    public static func parseLines(_ text: String) -> Transcript {
        var messages: [Message] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = String(line)
            if let (isUser, rest) = prefix(of: line) {
                messages.append(Message(isUser: isUser, text: rest))
            } else if !messages.isEmpty {
                messages[messages.count - 1].text += " " + line.trimmingCharacters(in: .whitespaces)
            }
        }
        return Transcript(messages)
    }

    private static func prefix(of line: String) -> (Bool, String)? {
        for (label, isUser) in [("User:", true), ("Coach:", false), ("Assistant:", false)] where line.hasPrefix(label) {
            return (isUser, line.dropFirst(label.count).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    /// Reads a transcript file.
    /// - Throws: ``CoachLabError`` (content) with `file:line:col` for a file that is not a
    ///   transcript, or holds no user message.
    public static func load(_ text: String, file: String) throws -> Transcript {
        let start = SourceLocation(file: file, line: 1, column: 1)
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let transcript: Transcript
        if trimmed.hasPrefix("User:") || trimmed.hasPrefix("Coach:") || trimmed.hasPrefix("Assistant:") {
            transcript = parseLines(text)
        } else {
            let root = try YAMLDocument.parse(text, file: file)
            if let items = root["messages"]?.items {
                transcript = Transcript(try items.map { item in
                    guard let entry = item.entries?.first, item.entries?.count == 1,
                          ["user", "coach", "assistant"].contains(entry.key), let said = entry.value.text else {
                        throw CoachLabError(.content, "each message is one 'user: …' or 'coach: …' entry", at: item.location)
                    }
                    return Message(isUser: entry.key == "user", text: said)
                })
            } else if let turns = root["turns"]?.items {
                transcript = Transcript(turns.flatMap { turn -> [Message] in
                    [turn["user"]?.text.map { Message(isUser: true, text: $0) },
                     turn["reply"]?.text.map { Message(isUser: false, text: $0) }].compactMap { $0 }
                })
            } else {
                throw CoachLabError(.content, "not a transcript: expected a 'messages:' list, a fixture's 'turns:', or 'User:'/'Coach:' lines",
                                    at: root.location, hint: "see docs/generate.md for the transcript format")
            }
        }
        guard transcript.messages.contains(where: \.isUser) else {
            throw CoachLabError(.content, "the transcript has no user message", at: start)
        }
        return transcript
    }
}
