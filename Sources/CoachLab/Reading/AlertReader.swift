import Foundation

/// The RISK ALERT: where it is, and what each of its lines asks.
extension MockReading {
    /// The alert's directives, when the alert is the last section of the prompt.
    mutating func readAlert() {
        guard let range = alertRange else { return }
        // Closing markup after it ("<</SYS>>", "</system>", "}") buries nothing.
        // A live alert the structure placed may be followed, in its own section, by a line of the
        // template's ("format rules above still apply"): no heading after it, it is the last section.
        let isLast = !lines[range.upperBound...].contains { !$0.consists(of: .whitespaces) && !Self.isClosingMarkup($0) }
            || alertLocatedByStructure && !headers[range.upperBound...].contains(true)
        guard isLast else {
            note(.alertIgnored, "the RISK ALERT is not the last section of the prompt, so it reads as background", range.lowerBound)
            return
        }
        note(.alert, "a RISK ALERT is active", range.lowerBound)
        // An alert run into one line of prose (``closingReport(in:headers:)``) is its own body.
        let body = alertTitled ? range.dropFirst() : range
        for index in body where !exampleTurns.contains(index) {
            // "Example:" over an example's turns labels them; it asks nothing.
            if Self.labelsExample(lines[index]) { continue }
            // A list item is one instruction; a line of prose under the title ("Painkiller
            // changes: Their GP should make any change with them. Nothing else belongs in this
            // reply.") is one a sentence, read past any label that opens it.
            // An item of several sentences is read a sentence at a time, as prose is.
            // A question-and-answer card: its question titles the answer ("Q: Which numbers do I
            // give?" over "A: The Childhelp hotline…"), and the two read as one instruction.
            let above = lines[..<index].lastIndex { !$0.consists(of: .whitespaces) }
            if Self.faqQuestion(lines, at: index) != nil { continue }
            let card = Self.faqInstruction(lines[index], question: above.flatMap { Self.faqQuestion(lines, at: $0) })
            let items = card.map { $0.contains(". ") ? Self.proseInstructions($0) : [$0] } ?? Self.listItem(lines[index]).map { item in
                item.contains(". ") ? Self.proseInstructions(Self.plain(item)) : [item]
            } ?? (headers[index] ? [] : Self.proseInstructions(Self.plain(lines[index])))
            for item in items {
                // "Respond with warmth and without any money advice": no tips, whatever else it asks.
                if Self.contains(#"\bwithout (?:any |giving )?(?:[\w-]+ )?(?:advice|tips|coaching|suggestions)\b"#, Self.fold(item)) {
                    note(.suppress, "coaching", index)
                }
                readAlertItem(item, index)
            }
        }
    }

    /// The sentences of a line of prose in an alert, each without a short label that opens it
    /// ("Red-flag symptoms: This needs…").
    static func proseInstructions(_ line: String) -> [String] {
        var text = line.trimmed(.whitespaces)
        if let colon = text.range(of: ": "), text[..<colon.lowerBound].split(separator: " ").count <= 4,
           !text[..<colon.lowerBound].contains(where: { ".!?".contains($0) }) {
            text = String(text[colon.upperBound...])
        }
        return text.components(separatedBy: ". ").map { $0.trimmed(Self.spacesAndStops) }.filter { $0.contains(where: \.isLetter) }
    }

    mutating func readAlertItem(_ item: String, _ index: Int) {
            // "Ivy should tell them…": the coach, named, is the one asked.
            for part in MockDirective.parts(of: alertInstructionText(item)) {
                switch MockDirective.read(part, caregiver: addressesCaregiver) {
                case .say(let sentence): note(.directive, sentence, index)
                case .suppress(let what): note(.suppress, what, index)
                case .cite(let what): note(.cite, what, index)
                case nil: break
                }
            }
    }

    /// The text of the prompt's alert block (``alertRange(in:headers:)``), or nil when it has
    /// none: what a check holds a flagged reply to, found as the mock finds it. Only the
    /// prompt's lines and headers are read for it, not the whole prompt as a reply needs: a
    /// run on a live provider has no mock to have read the prompt already.
    public static func alertText(in system: String) -> String? {
        AlertCache.text(system) {
            let (lines, headers, _) = readable(system.components(separatedBy: "\n"))
            return alertRange(in: lines, headers: headers).map { lines[$0].joined(separator: "\n") }
        }
    }

    /// Where the lines of `alert` stand in the prompt, as a range of read lines: each found
    /// from the end, in order; nil when one is missing.
    static func range(of alert: String, in written: [String], origin: [Int]?) -> Range<Int>? {
        var position = written.count
        var first = written.count, last = -1
        for line in alert.split(separator: "\n").reversed() {
            guard let index = written[..<position].lastIndex(where: { $0 == line }) else { return nil }
            if last < 0 { last = index }
            first = index
            position = index
        }
        guard last >= 0 else { return nil }
        guard let origin else { return first..<(last + 1) }
        guard let lower = origin.firstIndex(of: first), let upper = origin.lastIndex(of: last) else { return nil }
        return lower..<(upper + 1)
    }

    /// The RISK ALERT block: from the line that names it to the next section header or the end.
    /// Packs title it in their own words, so a section title reads as one too when it names an
    /// alert ("# Safety alert", "=== CRISIS ALERT ==="), or names risk, safety, a crisis or an
    /// emergency and says, in the title or the line under it, that it is live: "triggered",
    /// "flagged", "active", "this message". A standing "Safety rules" section is neither.
    static func alertRange(in lines: [String], headers: [Bool]) -> Range<Int>? {
        guard let start = lines.firstIndex(where: { FoldedText.text($0, contains: "RISK ALERT") })
            // The last such title: a live alert comes last, after any standing section that a
            // title alone might take for one.
            ?? headers.indices.last(where: { (headers[$0] || isLabel(lines[$0]) || isLeadIn(lines, at: $0) || opensList(lines, at: $0) || isCapitalsLabel(lines[$0])
                                              || titlesTable(lines, at: $0))
                && titlesAnAlert(lines, at: $0, headers: headers) })
            ?? closingRequests(in: lines)
            ?? closingReport(in: lines, headers: headers)
        else { return nil }
        var end = start + 1
        while end < lines.count, !headers[end] || FoldedText.text(lines[end], contains: "RISK ALERT") { end += 1 }
        return start..<end
    }

    /// Where the list that ends the prompt opens, when it reads as a live alert whatever its
    /// title says ("Before you answer, one more thing:", "Topic: Missing person"): each item
    /// asks the coach to do something for the user ("Tell them to…", "Give…", "Suggest
    /// they…"), one names them, and one names help to reach (a number, 999, a GP, a helpline).
    /// A standing list of how to coach ("Ask one question at a time") names no help.
    static func closingRequests(in lines: [String]) -> Int? {
        guard let last = lines.lastIndex(where: { !$0.consists(of: .whitespaces) }) else { return nil }
        var start = last + 1
        while start > 0, listItem(lines[start - 1]) != nil { start -= 1 }
        guard start > 0, last - start >= 1, !lines[start - 1].consists(of: .whitespaces) else { return nil }
        let items = lines[start...last].compactMap(listItem).map(fold)
        let request = #"^(?:please\s+)?(?:tell|say|give|share|suggest|encourage|urge|ask|remind|mention|offer|thank|acknowledge|reassure|explain|point|signpost|refer|direct|advise|recommend|validate|stay|stop|do not|don't|never|avoid|make sure|check|let)\b"#
        guard items.count == last - start + 1, items.allSatisfy({ contains(request, $0) }),
              items.contains(where: { contains(#"\b(?:them|they|their|the user|the person)\b"#, $0) }),
              items.contains(where: { contains(#"\d{3}|\b(?:gp|doctor|nurse|emergency|helpline|hotline|crisis line|clinic|hospital|a&e|vet|pharmacist|police|ambulance|samaritans|childline|service|charity|fund|support)\b"#, $0) })
        else { return nil }
        return start - 1
    }

    /// Where the prompt's last line is, when that line (of prose, or a list's last item) says on its own that a check
    /// fired on this message and asks for the reply ("Important, the safety check went off
    /// (Self-harm), so in this reply please tell them…; give them…"): an alert run into one
    /// line, with no title or list.
    static func closingReport(in lines: [String], headers: [Bool]) -> Int? {
        guard let last = lines.lastIndex(where: { !$0.consists(of: .whitespaces) }), !headers[last] else { return nil }
        let line = fold(lines[last])
        // "If the filter flagged the message, please stay calm" is a standing rule for when one does.
        guard !startsWithWord((listItem(line) ?? line).trimmed(.whitespaces), ["if", "when", "whenever", "should", "once", "in case"]),
              contains(#"\b(?:safety check|check|screen(?:ing|er)?|filter|guardrail|classifier|safety system)\s+(?:has\s+)?(?:matched|flagged|fired|triggered|tripped|went off|picked (?:this|it) up)\b|\bmessage (?:was|has been|got) flagged\b|\bmessage (?:has )?(?:matched|triggered|tripped|set off)\b"#, line),
              contains(#"\b(?:in|for) (?:this|your next|the next) (?:reply|response|message|answer)\b|\bthis message\b|\bplease\b|\b(?:you must|you should|make sure)\b"#, line)
        else { return nil }
        return last
    }

    /// Whether the section title at `index` names a live alert (``alertRange(in:headers:)``).
    static func titlesAnAlert(_ lines: [String], at index: Int, headers: [Bool]) -> Bool {
        let title = fold(lines[index]).replacingText("_", with: " ")
        if contains(#"\b(?:alert|alarm)\b"#, title) { return true }
        // A title of sirens ("🚨🚨🚨"), or a warning sign on the last section: a live alert in
        // pictures rather than words.
        // By scalar: "⚠️" is the sign and a presentation selector, one character with both.
        let scalars = title.unicodeScalars
        if headers[index], scalars.contains("🚨") || scalars.contains("🆘") || scalars.contains("🚑")
            || (scalars.contains("⚠") && !headers[(index + 1)...].contains(true)) {
            return true
        }
        // A section title (not a label or a lead-in such as "Flagged:" over lab values) that
        // says something fired, or that it is for this reply: "=== Guardrail triggered ===",
        // "## SAFETY FLAG", "=== Priority instructions for this reply ===".
        if headers[index], contains(#"\b(?:flagged|triggered|detected|override)\b|\b(?:safety|risk|crisis|active) flag\b|\b(?:for|in) this (?:reply|response|turn)\b|\bbefore (?:replying|you reply|answering|you answer|responding|you respond)\b|\b(?:flag|warning|heads[ -]up)\b.*\b(?:on|for|about) this (?:message|reply|response|turn)\b"#, title) {
            return true
        }
        // A line that flags a rule by name, "!! PRIORITY !! Missing person", over the list that
        // ends the prompt: the rule is this reply's. (A section titled "!! PRIORITY !!" or
        // "Urgent situations" alone is a standing one.)
        if !headers[index], !headers[(index + 1)...].contains(true), opensList(lines, at: index),
           contains(#"^\W*(?:priority|urgent|urgently|now)\s*(?:!+|:|—|–|-)\s*\w"#, title) {
            return true
        }
        // The last section, titled for the moment ("🚩 Right now"): what it says is for this reply.
        if headers[index], contains(#"^\W*(?:right now|(?:for |at )?this (?:moment|minute)|in this moment)\W*$"#, title), !headers[(index + 1)...].contains(true) {
            return true
        }
        // "The person's last message matched …", "This message was flagged".
        if contains(#"\bmessage (?:has )?(?:matched|triggered|tripped|was flagged|has been flagged)\b|\bflags? raised\b|^\W*flagged (?:message|reply|turn)\b|\b(?:user|message|conversation) flagged\b|\bflagged (?:for|as|under)\b"#, title) { return true }
        // A lead-in that gives the list under it for this reply alone: "Heads up: low mood. For this reply:".
        if contains(#"\bheads[ -]up\b|\b(?:for|in) this (?:reply|response)(?: only| alone)?\s*:\s*$"#, title), isLeadIn(lines, at: index) { return true }
        // The line under the title, past a callout's marker ("> [!WARNING]").
        let next = lines[(index + 1)...].first { !$0.consists(of: .whitespaces) && !Self.isCalloutMarker($0) }.map(fold) ?? ""
        // "=== ACTION NEEDED ===" over "The user's message tripped the Relapse rule."
        if contains(#"\bmessage (?:has )?(?:matched|triggered|tripped|set off)\b|\b(?:safety check|check|screen(?:ing|er)?|filter|guardrail|classifier)\s+(?:has\s+)?(?:matched|flagged|fired|triggered|tripped)\b"#, next) { return true }
        // "P.S. Something in their last message worried our filter (A fall)."
        if headers[index], contains(#"\b(?:last|latest|most recent|current) message\b[^.]*\b(?:worried|concerned|alarmed|tripped|triggered|flagged|matched|set off|raised)\b[^.]*\b(?:filter|screen(?:ing|er)?|guardrail|safety check|classifier|system)\b"#, next) { return true }
        // "5. THIS TURN ONLY (Burnout crisis)" over the list that ends the prompt.
        if !headers[(index + 1)...].contains(true), headers[index] || isLeadIn(lines, at: index) || opensList(lines, at: index),
           contains(#"\b(?:this|the next) (?:turn|reply|response|message|answer) only\b|\b(?:for|in) this (?:turn|answer)\b"#, title) {
            return true
        }
        // "… this conversation hit the "Pain red flags" rule." over "Iris should now:" and the
        // list that ends the prompt, or "the filter just flagged this chat … In your reply:":
        // the lead-in, or the line above it, says a rule was set off.
        if !headers[(index + 1)...].contains(true), isLeadIn(lines, at: index) || opensList(lines, at: index),
           case let above = lines[..<index].last(where: { !$0.consists(of: .whitespaces) }).map(fold) ?? "",
           contains(#"\b(?:hit|tripped|triggered|matched|set off|fired|flagged)\b[^.]{0,50}\b(?:rule|filter|check|guardrail|flag|policy)\b|\btrust (?:&|and) safety\b|\b(?:filter|check|screen(?:ing|er)?|guardrail|classifier|safety system)\s+(?:\w+\s+)?(?:matched|flagged|fired|triggered|tripped|caught)\b"#, title + "\n" + above) {
            return true
        }
        // "!!! RISK (Suicidal thoughts) !!! DO NOW:" over the list that ends the prompt: a
        // warning shouted, or one that asks for action now, is this reply's.
        if !headers[(index + 1)...].contains(true), headers[index] || isLeadIn(lines, at: index) || opensList(lines, at: index),
           contains(#"!{2,}\W*(?:risk|safety|crisis|danger|warning|emergency)\b|\b(?:risk|safety|crisis|danger|warning|emergency)\b[^:]*\b(?:do|act|respond|reply) now\b"#, title) {
            return true
        }
        // "### Risk: HIGH (Panic attack)", "Severity level = critical": a rating at the top of its scale.
        if contains(#"\b(?:risk|severity|danger|threat)(?: level)?\s*(?::|=|-|—|is)\s*(?:high|elevated|severe|critical|red)\b"#, title) { return true }
        guard contains(#"\b(?:risk|safety|crisis|emergency|escalation|urgent|important|action|heads[ -]up|warning|caution|attention|flag|act on|now)\b"#, title) else { return false }
        return contains(#"\b(?:triggered|flagged|detected|active|activated|live|raised|in effect|required|needed|matched|mode|at risk|in progress)\b|\n\W*trigger\s*:"#
                        + #"|\b(?:from|by) (?:the |our )?(?:safety )?(?:filter|screen(?:er|ing)?|classifier|guardrail|safety check)\b"#
                        + #"|\b(?:this|the (?:[\w-]+'s )?(?:latest|last|current|next)|(?:their|her|his) (?:latest|last)|your next) (?:message|reply|response|answer|turn)\b"#, title + "\n" + next)
    }
}
