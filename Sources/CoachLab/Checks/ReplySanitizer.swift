import Foundation

/// Strips leaked system-prompt text from a reply, as Kindred does before showing it.
///
/// A reply is read line by line. A line is removed when it repeats a layer header of the
/// prompt (`=== Rules of Engagement ===`, `ROLE AND PERSONALITY`), or when most
/// of its words lie in runs of `minimumRun` or more consecutive words that also stand in the
/// prompt. A normal reply shares at most a few words in a row with its prompt (a name, a
/// goal), so it comes back untouched. A reply that copies one of the prompt's example
/// exchanges is leaked text too, and may come back empty: the caller decides what to show.
public struct ReplySanitizer: Sendable {
    /// What sanitising did.
    public struct Result: Sendable, Hashable {
        /// The reply without the leaked lines, blank runs collapsed.
        public var text: String
        /// The lines removed, in order.
        public var removed: [String]
        public var changed: Bool { !removed.isEmpty }
    }

    /// The shortest run of shared consecutive words that counts as leaked.
    public let minimumRun: Int
    /// The share of a line's words that must be in leaked runs for the line to go.
    public let threshold: Double
    private let shingles: Set<[String]>
    private let headers: Set<String>

    public init(system: String, minimumRun: Int = 8, threshold: Double = 0.5) {
        self.minimumRun = max(3, minimumRun)
        self.threshold = threshold
        let words = TextNormalizer.words(system).map(\.text)
        var shingles = Set<[String]>()
        if words.count >= self.minimumRun {
            for start in 0...(words.count - self.minimumRun) { shingles.insert(Array(words[start..<(start + self.minimumRun)])) }
        }
        self.shingles = shingles
        headers = Set(system.split(whereSeparator: \.isNewline).compactMap { line in
            let trimmed = line.trimmed(.whitespaces)
            return Self.isHeader(trimmed) ? Self.headerKey(trimmed) : nil
        })
    }

    /// The reply with leaked lines removed.
    public func sanitize(_ reply: String) -> Result {
        let lines = reply.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Runs are found across line breaks, so a short line inside a leaked block goes too.
        var words: [String] = []
        var lineOf: [Int] = []
        for (index, line) in lines.enumerated() {
            for word in TextNormalizer.words(line) {
                words.append(word.text)
                lineOf.append(index)
            }
        }
        var covered = [Bool](repeating: false, count: words.count)
        if words.count >= minimumRun {
            for start in 0...(words.count - minimumRun) where shingles.contains(Array(words[start..<(start + minimumRun)])) {
                for index in start..<(start + minimumRun) { covered[index] = true }
            }
        }
        var total = [Int](repeating: 0, count: lines.count), leaked = [Int](repeating: 0, count: lines.count)
        for (index, line) in lineOf.enumerated() {
            total[line] += 1
            if covered[index] { leaked[line] += 1 }
        }
        var kept: [String] = []
        var removed: [String] = []
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmed(.whitespaces)
            let isLeak = Self.isHeader(trimmed) ? headers.contains(Self.headerKey(trimmed))
                : total[index] > 0 && Double(leaked[index]) / Double(total[index]) >= threshold
            if isLeak { removed.append(line) } else { kept.append(line) }
        }
        guard !removed.isEmpty else { return Result(text: reply, removed: []) }
        // Collapse the blank lines the removal left behind.
        var text: [String] = []
        for line in kept {
            let blank = line.consists(of: .whitespaces)
            if blank, text.last.map({ $0.consists(of: .whitespaces) }) ?? true { continue }
            text.append(line)
        }
        while let last = text.last, last.consists(of: .whitespaces) { text.removeLast() }
        return Result(text: text.joined(separator: "\n"), removed: removed)
    }

    /// `=== Title ===`, `## Title`, `[Title]` or a short all-capitals line (`ROLE AND
    /// PERSONALITY`): how prompts mark their layers.
    static func isHeader(_ line: String) -> Bool {
        if line.hasPrefix("===") && line.hasSuffix("===") && line.count > 6 { return true }
        if line.hasPrefix("## ") || (line.hasPrefix("[") && line.hasSuffix("]") && line.count > 2 && !line.contains(" [")) { return true }
        let letters = line.filter(\.isLetter)
        return letters.count >= 4 && letters.allSatisfy(\.isUppercase) && line.split(separator: " ").count <= 6
            && line.allSatisfy { $0.isLetter || $0 == " " || $0 == "&" || $0 == "-" || $0 == ":" }
    }

    static func headerKey(_ line: String) -> String {
        TextNormalizer.words(line).map(\.text).joined(separator: " ")
    }
}
