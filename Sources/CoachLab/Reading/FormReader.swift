import Foundation

/// Form: markdown, headings, lists, bold, emoji and exclamation marks.
extension MockReading {
    mutating func readForm(_ lower: String, _ index: Int) {
        let ban = #"\b(?:no|never|not|don't|do not|won't|didn't|did not|shouldn't|mustn't|can't|cannot|avoid|without|nor|skip|omit|leave out|refrain from|steer clear of|free (?:of|from))\b[^.;]{0,40}?"#
        // Banned after the fact: "Emojis are not allowed", "Markdown is forbidden".
        func banned(_ marks: String) -> String {
            ban + marks + #"|"# + marks + #"[^.;]{0,30}?\b(?:are|is)\s+(?:not (?:allowed|permitted|welcome)|forbidden|banned|prohibited|off-limits|off|out)\b"#
                // "Markdown: not allowed."
                + #"|^\W*"# + marks + #"\s*:\s*(?:not (?:allowed|permitted|welcome)|none|no\b|never|forbidden|banned|off)"#
        }
        if Self.contains(banned(#"\b(?:markdown|formatting|rich text)\b"#) + #"|\b(?:plain|raw) (?:text|prose)\b(?! conversational)|\bplain sentences\b|^\W*(?:formatting|markdown|format)\s*:\s*(?:none|no\b|plain)|\b(?:don't|do not|never)\s+format (?:your|the|anything)\b"#, lower) {
            note(.noMarkdown, "no markdown", index)
        }
        if Self.contains(banned(#"\b(?:headings?|headers?)\b"#), lower) { note(.noHeadings, "no headings", index) }
        if Self.contains(banned(#"\b(?:lists?|bullets?|bullet points|numbered)\b"#), lower) { note(.noLists, "no lists", index) }
        if Self.contains(banned(#"\bbold\b"#), lower) { note(.noBold, "no bold", index) }
        if Self.contains(banned(#"\bemojis?\b"#), lower) { note(.noEmoji, "no emoji", index) }
        if Self.contains(banned(#"\bexclamation (?:marks?|points?)\b"#), lower) { note(.noExclamation, "no exclamation marks", index) }
    }
}

extension LineReader {
    /// Markdown, headings, lists, bold, emoji and exclamation marks. Words in quotation marks
    /// are what a reply says, not what it does, and are not read.
    static let form = LineReader(
        name: "form", kinds: [.noMarkdown, .noHeadings, .noLists, .noBold, .noEmoji, .noExclamation],
        clues: ["markdown", "formatting", "format your", "format the", "format anything", "rich text", "plain text", "plain prose", "raw text",
                "plain sentences", "heading", "header", "list", "bullet", "numbered", "bold", "emoji", "exclamation"],
        read: { reading, _, lower in
            let unquoted = lower.contains("\"") || lower.contains("“") ? lower.replacingMatches(ofPattern: #""[^"]*"|“[^”]*”"#, with: "") : lower
            reading.readForm(unquoted, 0)
        },
        examples: [
            ("Plain text only: no markdown, headings or lists.", [.noMarkdown, .noHeadings, .noLists]),
            ("Never use emoji.", [.noEmoji]),
            ("No exclamation marks.", [.noExclamation]),
            ("Don't use bold.", [.noBold]),
        ],
        counterExamples: ["Make a list of what you ate today.", "Bold moves start small.", "Say \"no markdown\" back to them."])
}
