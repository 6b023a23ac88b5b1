import Foundation

/// A prompt that speaks of its coach in the third person, by name or by role, read in the second
/// person every reader knows: "Ivy should tell them not to drive" is "You must tell them not to
/// drive", "The Assistant shall not:" is "You must not:", "Then Ivy introduces herself as…" is
/// "Then introduce yourself as…", and "say that she is Ivy, a digital sleep coach" is "say that
/// you are Ivy, a digital sleep coach". The name is the pack's, from the source map, or the one the
/// prompt's reading found in an alert; the roles are the usual ones ("the Assistant", "the coach").
///
/// A policy document, a user story and a spec sheet all write this way, and none of their
/// instructions is read until the coach is "you".
extension MockReading {
    /// `line` with the coach in the second person; the line as it is when it names no coach.
    static func addressed(_ line: String, name: String?) -> String {
        // Most lines name no coach: a byte search rules them out before any pattern runs.
        let name = name.flatMap { $0.count >= 2 ? $0 : nil }
        let names = name.map { FoldedText.text(line, contains: $0) || FoldedText.text(line, contains: $0.uppercased()) } ?? false
        guard names || roleMarks.contains(where: { FoldedText.text(line, contains: $0) }) else { return line }
        // The name as the pack writes it, or in capitals ("IVY"), never in lower case: a coach
        // called Will, May or Hope is not every "will", "may" or "hope" of the prompt.
        let named = name.map { #"(?:"# + NSRegularExpression.escapedPattern(for: $0) + "|" + NSRegularExpression.escapedPattern(for: $0.uppercased()) + ")" }
        // "The coach" with a modal of obligation only: a sports coach who "can bench them" is someone else.
        let role = #"\b(?i:the (?:assistant|coach|bot|chatbot|ai|ai coach))"#
        let subject = #"(?:"# + role + (named.map { #"|\b"# + $0 } ?? "") + #")"#
        // Obligation, not the future: "the agent will call them back" is no instruction.
        let modal = #"\s+(?i:shall|should|must|is to|needs to|has to|ought to|is required to)"#
        var text = line
            // "The Assistant shall not:", "Ivy must never…".
            .replacingMatches(ofPattern: subject + modal + #"\s+((?i:not|never))\b"#, with: "you must $1")
            .replacingMatches(ofPattern: subject + modal + #"\b"#, with: "you must")
            // "The Assistant never…", "Ivy always…", "Kiri may…".
            .replacingMatches(ofPattern: #"(?:\b(?i:the assistant)"# + (named.map { #"|\b"# + $0 } ?? "") + #")\s+((?i:never|always|may|can|cannot|can't|does not|doesn't|won't))\b"#, with: "you $1")
        if let named {
            // "Then Ivy introduces herself…", "Cal tells them…": what the named coach does is asked of it.
            text = text.replacingMatches(ofPattern: #"\b"# + named + #"\s+((?i:introduce|say|ask|tell|give|name|suggest|end|keep|stay|use|write|answer|point|offer|refer|mention|remind|check|avoid|encourage|acknowledge|explain|respond|greet|thank|close|open|start|urge|share|validate|reassure))(?i:s)\b"#,
                                         with: "$1")
                .replacingMatches(ofPattern: #"\b"# + named + #"\s+(?i:replies)\b"#, with: "you reply")
                // "say that she is Ivy", "that it is Kiri", "we're Rowan": a pronoun that is the coach, by its own name.
                .replacingMatches(ofPattern: #"\b(?i:it|she|he|they|we)\s*(?:\s(?i:is|are)|['’](?i:s|re))\s+(?="# + named + #"\b)"#, with: "you are ")
        }
        // "…, introduce itself by name as Kiri", "Then introduce herself": the coach's own self,
        // where it is asked of the coach (not "the nurse describes herself").
        return text.replacingMatches(ofPattern: #"(^|[.;:,(]\s*|\b(?i:then|and|to|you|must|should|shall)\s+)((?i:introduce|describe|call|present|identify|refer to))\s+(?i:itself|herself|himself)\b"#,
                                     with: "$1$2 yourself")
    }

    /// The word the pack's audience gives its user, singular: "nurses in the United States who
    /// work nights" is "nurse", "day hikers and first-time backpackers" is "hiker". Nil when the
    /// audience opens with no plural noun.
    static func userNoun(audience: String) -> String? {
        let lead = fold(audience).replacingMatches(ofPattern: #"\s+(?:in|who|with|that|planning|preparing|working|at|on|of|from|and|or|aged|under|over)\b.*$|[,;(].*$"#, with: "")
        guard let last = lead.split(separator: " ").last.map(String.init), last.count >= 4, last.hasSuffix("s"), !last.hasSuffix("ss"),
              !["adults", "people", "users", "others", "folks", "persons"].contains(last) else { return nil }
        return String(last.dropLast())
    }

    /// An alert instruction as a reader takes it: the coach is "you" (``addressed(_:name:)``) and
    /// the pack's word for its user ("If the nurse is about to drive") is "the user", whom the
    /// reply speaks to.
    func alertInstructionText(_ item: String) -> String {
        var text = Self.addressed(Self.alertLineShape(item), name: name ?? coachName)
        if let userNoun, FoldedText.text(text.lowercased(), contains: "the " + userNoun) {
            text = text.replacingMatches(ofPattern: #"\bthe "# + NSRegularExpression.escapedPattern(for: userNoun) + #"\b"#, with: "the user", caseSensitive: false)
        }
        return text
    }

    /// An alert instruction in a house style's shape, as the sentence it stands for:
    /// - a line of code with a comment ("reply.add(NO_INDUCED_VOMITING)  // tell them not to make
    ///   the pet vomit") asks what its comment says, and a negated one ("assert !reply.suggests(HOME_REMEDY)
    ///   // no peroxide, salt…") forbids it;
    /// - a stage direction ahead of it ("(quiet, no panic) Cal thanks them…") says how, not what;
    /// - a case closed by a colon ("If the signs point to a severe hypo: the coach MUST say…") is
    ///   one closed by a comma.
    static func alertLineShape(_ item: String) -> String {
        var text = item.trimmed(.whitespaces)
        // Code closes its statement before the comment (")", ";", "}"), and calls a method or a
        // function named as code names them ("reply.add(", "end_with(") or asserts: prose with
        // a "#" in it ("press # to reach the pharmacist") is no code.
        if let match = matches(#"^([^/#]*?[)};])\s+(?://|#)\s*(\S.*)$"#, in: text).first,
           contains(#"[A-Za-z_]\w*(?:\.\w+)+\s*\(|\b[a-z]+_\w+\s*\(|^\s*!?\s*(?:assert|return|const|let|var|require|expect)\b"#, match[1]) {
            let code = match[1].lowercased()
            let comment = match[2]
            let negated = contains(#"(?:^|[\s(])!|\bnot\b|\bnever\b"#, code)
            if negated, !startsWithWord(comment, ["don't", "do not", "never", "no", "not", "nothing", "avoid"]) {
                text = "Do not give " + comment
            } else if contains(#"\b(?:end|close|finish)_?with\b"#, code), startsWithWord(comment, ["one", "a", "a single", "just one"]) {
                // "reply.end_with(ONE_QUESTION) // one short question, such as…": the call says where.
                text = "End with " + comment
            } else {
                text = comment
            }
        }
        text = text.replacingMatches(ofPattern: #"^\([^()]{1,40}\)\s+(?=[A-Za-z])"#, with: "")
        if let match = matches(#"^((?:if|when|where|for)\s[^,:]{3,80}):\s+(.+)$"#, in: text).first { text = match[1] + ", " + match[2] }
        return text
    }

    /// What a line that speaks of its coach by role holds, in any case: "The Assistant", "the
    /// coach", "THE BOT", "itself".
    private static let roleMarks = ["ssistant", "SSISTANT", "oach", "OACH", " bot", " Bot", " BOT", "hatbot", "HATBOT", " ai", " AI", "self", "SELF"]
}
