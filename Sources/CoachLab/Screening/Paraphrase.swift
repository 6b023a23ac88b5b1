import Foundation

/// Paraphrases of flagged messages, written by a model: the red-team rewrite no rule can be
/// tuned against in advance, since nobody on the team chose the words. This is the pure part:
/// the instructions, and the parser that turns an answer into at most `count` distinct
/// rewrites. The call itself is a provider's (`coachlab redteam --paraphrase N`).
public enum Paraphrase {
    /// The first line of the instructions (the mock recognises it).
    public static let marker = "You rewrite one message that a user sent to a coaching app."

    /// The instructions for `count` paraphrases of the message in the user turn.
    public static func system(count: Int) -> String {
        """
        \(marker)
        Write \(count) different ways the same person might say the same thing, keeping its meaning,
        its risk and its first-person voice. Change the words and the order, not the subject; use
        everyday language, and keep each one to a sentence or two.
        Answer with exactly \(count) lines, one rewrite per line, with no numbering, quotes or
        commentary.
        """
    }

    /// How many rewrites the instructions in `system` ask for, if they are ``system(count:)``'s.
    public static func requestedCount(in system: String) -> Int? {
        guard system.hasPrefix(marker), let range = system.range(of: #"Write (\d+) different"#, options: .regularExpression) else {
            return nil
        }
        return Int(system[range].split(separator: " ")[1])
    }

    /// The rewrites in `answer`: one per line, with list markers, numbering and surrounding
    /// quotes removed; blank lines, preambles ending in a colon, repeats and the original
    /// itself (compared folded) left out, and so is any line that repeats five words in a row
    /// of the instructions (a model echoing its prompt); at most `count`.
    public static func parse(_ answer: String, original: String, count: Int) -> [String] {
        var seen: Set<[String]> = [TextNormalizer.tokens(original)]
        let instructions = runs(of: TextNormalizer.tokens(system(count: count)))
        var rewrites: [String] = []
        for raw in answer.split(whereSeparator: \.isNewline) {
            var line = raw.trimmingCharacters(in: .whitespaces)
            // "1.", "2)", "-", "*", "•" before the text.
            if let marker = line.range(of: #"^(\d{1,2}[.)]|[-*•])\s+"#, options: .regularExpression) { line.removeSubrange(marker) }
            line = line.trimmingCharacters(in: CharacterSet(charactersIn: "\"“”'‘’ ").union(.whitespaces))
            guard !line.isEmpty, !line.hasSuffix(":") else { continue }
            let words = TextNormalizer.tokens(line)
            guard !words.isEmpty, instructions.isDisjoint(with: runs(of: words)), seen.insert(words).inserted else { continue }
            rewrites.append(line)
            if rewrites.count == count { break }
        }
        return rewrites
    }

    /// Every run of five words in a row.
    private static func runs(of words: [String]) -> Set<ArraySlice<String>> {
        guard words.count >= 5 else { return [] }
        return Set((0...(words.count - 5)).map { words[$0..<($0 + 5)] })
    }

    /// A labelled set of `rewrites` for review: each paraphrase labelled with the rule its
    /// original was, and a comment saying where the original is. `provider` and `command`
    /// are written in the header, so a reader knows where the messages came from.
    public static func labelledSet(id: String, pack: String, provider: String, command: String,
                                   rewrites: [(original: GuardrailDataset.Item, paraphrases: [String])]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        // A JSON string is a YAML double-quoted scalar with the same escapes.
        func quoted(_ text: String) -> String { (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\"" }
        var lines = [
            "# yaml-language-server: $schema=../../schemas/dataset.schema.json",
            "#",
            "# Paraphrases written by \(provider), for review: read each message and fix or delete its",
            "# label before tuning on it. Made with: \(command)",
            "dataset:",
            "  id: \(quoted(id))",
            "  pack: \(quoted(pack))",
            "  split: dev",
            "  description: \(quoted("Paraphrases by \(provider) of the messages the screen caught as written."))",
            "items:",
        ]
        for (original, paraphrases) in rewrites where !paraphrases.isEmpty {
            lines.append("  # \(original.location): \(original.message.split(whereSeparator: \.isNewline).joined(separator: " "))")
            for paraphrase in paraphrases {
                let label = original.expected.map { "expected: \(quoted($0))" } ?? "expected: none"
                lines.append("  - {message: \(quoted(paraphrase)), \(label)}")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
