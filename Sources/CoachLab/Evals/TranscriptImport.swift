import Foundation

/// Production transcripts turned into fixtures: a JSONL export, one message a line
/// (`{"conversation": "c1", "role": "user", "content": "…"}`) or one conversation a line
/// (`{"id": "c1", "messages": [{"role": …, "content": …}]}`), becomes one fixture per
/// conversation whose turns hold the user's messages and the replies that were given. The
/// user's data is neutralised on the way: e-mail addresses, links, phone and other long numbers,
/// and the names given, so the fixtures can be committed.
public struct TranscriptImport: Sendable {
    /// One conversation, as imported.
    public struct Conversation: Sendable {
        public var id: String
        public var turns: [FixtureRecording.Turn]
        /// A user message with no reply after it, ending the conversation.
        public var last: String?
    }

    public var conversations: [Conversation] = []
    /// Problems, at the line of the export they are on.
    public var diagnostics: [Diagnostic] = []
    /// How many pieces of user data were replaced, by kind ("email", "phone", …).
    public var neutralised: [String: Int] = [:]

    /// Reads an export.
    /// - Parameter names: Names to replace with "[name]" wherever they stand as words.
    public init(jsonl text: String, file: String, names: [String] = []) {
        var order: [String] = []
        var messages: [String: [(role: String, content: String)]] = [:]
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { continue }
            let location = SourceLocation(file: file, line: index + 1, column: 1)
            guard let object = try? JSONValue.parse(Data(trimmed.utf8)), case .object = object else {
                diagnostics.append(.error("this line is not a JSON object", at: location, hint: "a transcript export has one JSON object a line"))
                continue
            }
            func text(_ value: JSONValue?) -> String? { value?.string ?? value?.array?.compactMap { $0["text"]?.string ?? $0.string }.joined() }
            if let list = object["messages"]?.array {
                let id = object["id"]?.string ?? object["conversation"]?.string ?? object["conversation_id"]?.string ?? "conversation-\(index + 1)"
                if messages[id] == nil { order.append(id) }
                for message in list {
                    guard let role = message["role"]?.string, let content = text(message["content"] ?? message["text"]) else {
                        diagnostics.append(.error("a message needs role and content", at: location))
                        continue
                    }
                    messages[id, default: []].append((role, content))
                }
            } else {
                guard let role = object["role"]?.string, let content = text(object["content"] ?? object["text"] ?? object["message"]) else {
                    diagnostics.append(.error("a line needs role and content (or messages: [...])", at: location,
                                              hint: #"for example {"conversation": "c1", "role": "user", "content": "…"}"#))
                    continue
                }
                let id = object["conversation"]?.string ?? object["conversation_id"]?.string ?? object["session"]?.string ?? "conversation"
                if messages[id] == nil { order.append(id) }
                messages[id, default: []].append((role, content))
            }
        }
        var neutraliser = Neutraliser(names: names)
        for id in order {
            var turns: [FixtureRecording.Turn] = []
            var pending: String?
            for (role, content) in messages[id] ?? [] {
                switch role {
                case "user", "human":
                    // Two user messages in a row are one turn, as the user saw them.
                    let said = neutraliser.neutralise(content)
                    pending = pending.map { $0 + "\n" + said } ?? said
                case "assistant", "model", "coach", "ai":
                    guard let user = pending else { continue }
                    turns.append(FixtureRecording.Turn(user: user, reply: neutraliser.neutralise(content)))
                    pending = nil
                default:
                    continue  // the system prompt: the pack compiles its own
                }
            }
            guard !turns.isEmpty || pending != nil else { continue }
            conversations.append(Conversation(id: id, turns: turns, last: pending))
        }
        neutralised = neutraliser.counts
    }

    /// Each conversation's fixture file, named by its id: the replies given before the last
    /// user message are its history, and the last message is the one the provider answers.
    public func fixtures(pack: String, prefix: String) -> [(name: String, yaml: String)] {
        conversations.map { conversation in
            let id = prefix + "-" + CoachDocuments.slug(conversation.id)
            var turns = conversation.turns
            var last = conversation.last
            // A conversation that ends with a reply: its last message is asked again.
            if last == nil, let final = turns.popLast() { last = final.user }
            var yaml = FixtureRecording(id: id, pack: pack, inputs: CompileInputs(), turns: turns).yaml
                .replacingOccurrences(of: FixtureRecording.mark, with: "# Imported from a production transcript by coachlab import-transcripts; user data neutralised.")
            if let last { yaml += "  - user: \(JSONValue.string(last).text)\n" }
            return (id + ".yaml", yaml)
        }
    }

    /// Replaces user data with placeholders, counting each kind.
    struct Neutraliser {
        var names: [String]
        var counts: [String: Int] = [:]

        static let patterns: [(kind: String, pattern: String, placeholder: String)] = [
            ("email", #"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}"#, "[email]"),
            ("link", #"\bhttps?://\S+|\bwww\.\S+"#, "[link]"),
            // Seven digits or more, with the spaces, dots, dashes and brackets of a phone number.
            ("phone", #"(?<![\w])\+?\(?\d[\d\s().-]{6,}\d(?![\w])"#, "[phone]"),
        ]

        mutating func neutralise(_ text: String) -> String {
            var text = text
            for (kind, pattern, placeholder) in Self.patterns {
                let found = MockReading.matches(pattern, in: text, caseSensitive: true).count
                guard found > 0 else { continue }
                // Short numbers stay ("3 times a week", "988"): only runs of seven digits or more count.
                text = text.replacingMatches(ofPattern: pattern, with: placeholder, caseSensitive: true)
                counts[kind, default: 0] += found
            }
            for name in names where !name.isEmpty {
                let pattern = #"(?<![\p{L}\p{N}])"# + NSRegularExpression.escapedPattern(for: name) + #"(?![\p{L}\p{N}])"#
                let found = MockReading.matches(pattern, in: text, caseSensitive: false).count
                guard found > 0 else { continue }
                text = text.replacingMatches(ofPattern: pattern, with: "[name]", caseSensitive: false)
                counts["name", default: 0] += found
            }
            return text
        }
    }
}
