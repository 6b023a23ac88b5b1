import Foundation

/// Questions: ending on one, at most one, one idea at a time.
extension MockReading {
    mutating func readQuestions(_ lower: String, _ index: Int) {
        let quantity = #"(?:exactly |just |only )?(?:one|a|an|a single|1)\s+(?:[\w-]+\s+){0,3}?question"#
        if Self.contains(#"\b(?:end|finish|close|conclude|wrap up)s?\b[^.]{0,40}?\b(?:(?:with|on|in|by asking)\s+(?:exactly |just |only )?(?:one|a|an|a single|1)?\s*(?:[\w-]+\s+){0,3}?question|by asking\b)"#, lower)
            || Self.contains(#"\bthen\s+(?:ask\s+)?"# + quantity, lower)
            || Self.contains(#"\b(?:last|final|closing) (?:sentence|line) (?:always )?asks? (?:them|the user|the person|him|her|something|a question)\b|\b(?:last|final|second|closing|ending) sentence (?:is|must be|should be|has to be|needs to be) (?:always )?a question|\b(?:include|add|put|pose|ask)\s+(?:exactly |just |only )?(?:a|one|an|a single)\s+(?:[\w-]+\s+){0,2}?question at the end\b"#, lower)
            // "One question at the end, never more."
            || Self.contains(#"^\W*(?:exactly |just |only )?(?:one|a|a single)\s+(?:[\w-]+\s+){0,2}?question at the end\b"#, lower)
            // "Questions: exactly one, at the end."
            || Self.contains(#"^\W*questions?\s*:[^.]*\b(?:at the end|to end|to close|last)\b"#, lower)
            // "Replies: 2 sentences max, the last one a question", "…, ending in a question".
            || Self.contains(#"\b(?:the )?(?:last|final) (?:one|sentence|line) (?:is |being |as )?a question\b|\bending (?:in|with|on) a question\b"#, lower)
            // "- End: always a question."
            || Self.contains(#"^\W*(?:end|ending|close|closing|finish|last line|last sentence|final sentence|final line)\s*:\s*(?:always |with |on )?(?:exactly |just )?(?:a|one)\s+(?:[\w-]+\s+)?question\b"#, lower)
            // "Ending: ask something back, every time", "Always ask them something back".
            || Self.contains(#"^\W*(?:end|ending|close|closing|finish|last line|last sentence|final sentence|final line)\s*:\s*(?:always\s+)?ask\b|\bask (?:them |the user |the person )?(?:something|a question) back\b"#, lower) {
            note(.endQuestion, "the reply ends with a question", index)
        }
        // "Ask at most one question", "one question per message", "Keep it to a single question",
        // "Don't ask multiple questions".
        if Self.contains(#"\bone question at a time\b|\bexactly one\b[^.]{0,30}question|\bnever (?:ask )?more than one question|\b(?:ask|with|then|and)\s+(?:just |only )?(?:one|a single)\s+(?:[\w-]+\s+){0,3}?question"#
                         + #"|\b(?:at most|no more than|not more than|a maximum of|only|just)\s+(?:one|1|a single)\s+(?:[\w-]+\s+){0,2}?questions?\b"#
                         + #"|\bone question (?:per|in each|in every|at most)\b|\bto (?:a single|one) question\b|\bask (?:only |just )?one thing at a time\b"#
                         + #"|^\W*(?:exactly |just |only )?one\s+(?:[\w-]+\s+){0,2}?question\b[^.]{0,30}\b(?:never|no) more\b"#
                         + #"|^\W*questions?\s*:\s*(?:exactly |just |only |at most |no more than )?(?:one|1|a single)\b"#
                         + #"|\b(?:never|don't|do not|avoid|no)\s+(?:ask(?:ing)?\s+)?(?:multiple|several|many|more than one|two or more|stacked)\s+questions?\b"#, lower) {
            note(.oneQuestion, "at most one question", index)
        }
        // "One idea at a time", "Offer a single suggestion", "one tip per reply".
        if Self.contains(#"\bone idea\b|\ba single idea\b|\bone (?:suggestion|tip|step) at a time\b|\bone idea or step\b"#
                         + #"|\b(?:a single|only one|just one|one)\s+(?:suggestion|tip|recommendation)s?\s+(?:per|at a time|in each)\b"#
                         + #"|\b(?:offer|give|suggest|share|make)\s+(?:only |just |exactly )?(?:one|a single)\s+(?:[\w-]+\s+)?(?:suggestion|tip|recommendation)\b"#, lower) {
            note(.oneIdea, "one idea per reply", index)
        }
    }
}

extension LineReader {
    /// Ending on a question, at most one question, one idea at a time.
    static let questions = LineReader(
        name: "questions", kinds: [.endQuestion, .oneQuestion, .oneIdea],
        clues: ["question", "idea", " at a time", "by asking", "something back", ": ask", ":ask", "suggestion", " tip", "recommendation",
                "sentence ask", "line ask"],
        read: { reading, _, lower in reading.readQuestions(lower, 0) },
        examples: [
            ("End with one question.", [.endQuestion, .oneQuestion]),
            ("Ask at most one question.", [.oneQuestion]),
            ("Close by asking what they will try first.", [.endQuestion]),
            ("One idea at a time.", [.oneIdea]),
            ("Questions: exactly one, at the end.", [.endQuestion, .oneQuestion]),
        ],
        counterExamples: ["Answer the question they asked.", "Good ideas take time to grow.", "Questions about money go to an adviser."])
}
