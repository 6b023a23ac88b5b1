import Foundation

/// A compiled system prompt: the exact text, and for each layer its text, estimated tokens
/// and sources (the `file:line` of every YAML value that reached it).
public struct CompiledPrompt: Sendable, Codable, Equatable {
    /// One rendered layer.
    public struct Layer: Sendable, Codable, Equatable {
        /// The layer's id.
        public var id: String
        /// Its title, when it has one.
        public var title: String?
        /// Its text, header included, exactly as it stands in `system`.
        public var text: String
        /// Estimated tokens (see ``TokenEstimator``).
        public var tokens: Int
        /// `file:line` of every value that reached the text, sorted.
        public var sources: [String]
    }

    /// A layer dropped to fit the token budget.
    public struct Trimmed: Sendable, Codable, Equatable {
        /// The layer's id.
        public var id: String
        /// The tokens it would have taken.
        public var tokens: Int
    }

    /// The pack's id.
    public var pack: String
    /// The variant's id, when compiled from one.
    public var variant: String?
    /// The system prompt, exactly as sent.
    public var system: String
    /// The layers that made it in, in order.
    public var layers: [Layer]
    /// Estimated tokens of `system`.
    public var tokens: Int
    /// The budget the pack declares, if any.
    public var budget: Int?
    /// Layers dropped to fit the budget, in the order dropped.
    public var trimmed: [Trimmed]
    /// The stage-1 screening of the latest user message, when one was given.
    public var screening: ScreeningResult?
    /// Problems that did not stop compiling (still over budget after trimming).
    public var warnings: [String]
    /// A stable hash of `system` (FNV-1a, 64-bit, hex), for stores and caches.
    public var hash: String
    /// User values changed on their way in, so they could not pose as prompt structure; nil
    /// when none were (see ``UserText``).
    public var neutralised: [UserText.Neutralisation]?
    /// Where each value in the text came from (the persona's name, each knowledge item, the
    /// alert's instructions…), for readers that take structure before wording. Not encoded:
    /// it is the compiler's, recomputed with the prompt.
    public var structure = PromptStructure()

    private enum CodingKeys: String, CodingKey {
        case pack, variant, system, layers, tokens, budget, trimmed, screening, warnings, hash, neutralised
    }

    /// The lines of this prompt that `unflagged` (the same inputs compiled with no flag) does
    /// not have: what the risk sections rendered, the live alert, however the pack words it.
    /// Nil when this prompt was not flagged, or the flag added no line. Lines are matched
    /// from the top, so a line the alert repeats from earlier in the prompt still counts as
    /// the alert's where it stands.
    public func alert(comparedWith unflagged: CompiledPrompt) -> String? {
        guard screening?.isFlagged == true else { return nil }
        // Every case flagged under one prompt asks the same: compared once.
        let key = AlertKey(flagged: hash, flaggedBytes: system.utf8.count, unflagged: unflagged.hash, unflaggedBytes: unflagged.system.utf8.count)
        return Self.alerts.value(for: key) { Self.linesAdded(to: system, from: unflagged.system) }
    }

    private struct AlertKey: Hashable {
        var flagged: String
        var flaggedBytes: Int
        var unflagged: String
        var unflaggedBytes: Int
    }

    private static let alerts = BoundedCache<AlertKey, String?>(bound: 256)

    /// The lines of `system` that `unflagged` lacks, matched from the top, blank lines left out.
    static func linesAdded(to system: String, from unflagged: String) -> String? {
        var before: [Substring: Int] = [:]
        for line in unflagged.split(separator: "\n", omittingEmptySubsequences: false) { before[line, default: 0] += 1 }
        var added: [Substring] = []
        for line in system.split(separator: "\n", omittingEmptySubsequences: false) {
            if let count = before[line], count > 0 { before[line] = count - 1 } else if line.contains(where: { !$0.isWhitespace }) { added.append(line) }
        }
        return added.isEmpty ? nil : added.joined(separator: "\n")
    }

    /// JSON with sorted keys, pretty-printed, ending in a newline.
    public func jsonString() -> String {
        let encoder = JSONEncoder.sorted(pretty: true)
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return (String(data: data, encoding: .utf8) ?? "{}") + "\n"
    }

    /// A Markdown view for people: each layer under a heading, with its tokens and sources.
    public func markdown() -> String {
        var out = "# \(pack)\(variant.map { " · \($0)" } ?? "")\n\n"
        out += "\(layers.count) layers · ~\(tokens) tokens\(budget.map { " of \($0)" } ?? "") · hash `\(hash)`\n"
        if !trimmed.isEmpty {
            out += "\nTrimmed to fit the budget: " + trimmed.map { "`\($0.id)` (~\($0.tokens) tokens)" }.joined(separator: ", ") + "\n"
        }
        if let decision = screening?.decision {
            out += "\nFlagged by rule `\(decision.ruleId)` (\(decision.ruleTitle)) on \"\(decision.excerpt)\"\n"
        }
        for (index, layer) in layers.enumerated() {
            out += "\n## \(index + 1). \(layer.title ?? layer.id)\n\n"
            out += "~\(layer.tokens) tokens · sources: " + (layer.sources.isEmpty ? "none" : layer.sources.map { "`\($0)`" }.joined(separator: ", ")) + "\n\n"
            out += "````text\n\(layer.text)\n````\n"
        }
        for warning in warnings { out += "\n> warning: \(warning)\n" }
        return out
    }
}

/// Estimates tokens as a quarter of the UTF-8 bytes, rounded up: within about 15% of GPT
/// and Claude tokenizers on English prose. Labelled "estimated" wherever shown.
public enum TokenEstimator {
    /// The estimated token count of `text`.
    public static func estimate(_ text: String) -> Int { (text.utf8.count + 3) / 4 }
}

/// FNV-1a 64-bit, a stable non-cryptographic hash for content keys.
public enum StableHash {
    /// The hash of `text`'s UTF-8 bytes.
    public static func value(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The hash of `text` as 16 hex digits.
    public static func hex(_ text: String) -> String {
        let digits = String(value(text), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
