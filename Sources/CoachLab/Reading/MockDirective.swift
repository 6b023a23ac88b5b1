import Foundation

/// An alert instruction turned into what the mock says or refrains from.
enum MockDirective: Equatable {
    /// A sentence to say to the user.
    case say(String)
    /// Cite the data line the message, and this instruction, are about ("Mention the
    /// protocol's current dose").
    case cite(String)
    /// Something not to do: `coaching` (no knowledge or tips), `questions`, `data`.
    case suppress(String)

    /// Where an instruction line splits: before a comma or "and" that starts another request.
    static let partBoundary = #"(?:,? and |, )(?=(?:tell|suggest|encourage|ask|say|explain|remind|thank|point|gently|clearly|stay|stop|respond)\b)|, so (?=(?:they|the user|the person|the child|the patient)\s+(?:should|must|need|needs|have to|has to|ought to)\b)"#

    /// An instruction line split into its parts ("…; thank them", "…, and suggest a doctor").
    static func parts(of line: String) -> [String] {
        var parts: [String] = []
        let split = RegexCache.shared.expression(partBoundary, caseSensitive: false)
        for piece in line.components(separatedBy: "; ") {
            // "Gently but clearly, tell them: …": how to say it is no request of its own.
            var current = piece.replacingMatches(ofPattern: manner, with: "", caseSensitive: false)
            // "For a fever in a baby, a rash that doesn't fade or no wet nappies, tell them: …":
            // what follows the colon is what to say, and all before it says when.
            if MockReading.contains(toldColon, MockReading.fold(current)) {
                parts.append(current)
                continue
            }
            // "If they are in danger, tell them to…" is one instruction: its condition stays.
            var searchFrom = current.startIndex
            if MockReading.startsWithWord(current, ["if", "when"]), let comma = current.range(of: ", ") { searchFrom = comma.upperBound }
            while let split, let match = split.firstMatch(in: current, range: NSRange(searchFrom..<current.endIndex, in: current)),
                  let range = Range(match.range, in: current) {
                // "Tell them to call 999 and say the person has dementia": what follows is the
                // listener's own next step, not another request of the coach.
                let before = MockReading.fold(String(current[..<range.lowerBound]))
                let after = MockReading.fold(String(current[range.upperBound...]))
                if MockReading.contains(#"^(?:tell|urge|encourage|ask|remind|advise|get) "# + listener + #" to\b"#, before),
                   current[range].hasSuffix(" and "), MockReading.contains(#"^(?:say|tell|ask|explain) (?!(?:them|they|him|her|you|that|sorry)\b)"#, after) {
                    searchFrom = range.upperBound
                    continue
                }
                parts.append(String(current[..<range.lowerBound]))
                current = String(current[range.upperBound...])
                searchFrom = current.startIndex
            }
            parts.append(current)
        }
        return parts.map { $0.trimmed(.whitespaces) }.filter { !$0.isEmpty }
    }

    /// A lead that only says how to speak: "Gently but clearly, ", "Calmly, ".
    static let manner = #"^(?:(?:gently|clearly|kindly|calmly|firmly|warmly|briefly|quietly|simply|plainly|softly|slowly)(?:,?\s+(?:but|and)\s+|\s+))*(?:gently|clearly|kindly|calmly|firmly|warmly|briefly|quietly|simply|plainly|softly|slowly),\s+"#
    /// "…, tell them: X", "Tell the parent: X": the words after the colon are the ones to say.
    static let toldColon = #"(?:^|,\s*)(?:tell|say to) "# + listener + #"\s*:\s*\S"#

    static let listener = #"(?:them|they|the user|the child|the person|the patient|the parent|the owner|the carer|the caregiver|him|her)"#
    /// The words that ask for an instruction rather than give it: "You will", "We need you
    /// to", "Please", "Make sure you", "Remember to".
    static let requestPreamble = #"^(?:please\s+|(?:must|always)\s*:?\s+(?!not\b|never\b)|(?:do|action|required|to ?do)\s*:\s+(?!not\b|never\b)|(?:you|the coach|the assistant) (?:will|must|should|need to|have to|are to|is to)\s+(?!not\b|never\b)|(?:the|your|this|each|every) (?:reply|response|answer) (?:will|must|should|needs to|has to)\s*:?\s+(?!not\b|never\b)|(?:we|i) (?:need|want|would like|'d like|ask) you to\s+|(?:we|i)'d like you to\s+|make sure (?:that )?you\s+|be sure to\s+|remember to:?\s+|don't forget to\s+)+"#
    /// "Ask (them) (directly) whether …".
    static let askedHow = #"(?:\s+"# + listener + #")?(?:\s+(?:directly|gently|calmly|clearly|kindly))?"#

    /// What one part asks of the reply, or nil when the mock does not understand it.
    /// `caregiver`: the user looks after a child the prompt calls "the child" (a parenting
    /// coach), so "the child" is "your child", and "he" and "she" are not the user.
    static func read(_ part: String, caregiver: Bool = false) -> MockDirective? {
        func swapListener(_ text: String) -> String { Self.swapListener(text, caregiver: caregiver) }
        func swapBoth(_ text: String) -> String { Self.swapBoth(text, caregiver: caregiver) }
        // "You will give them…", "We need you to tell them…", "Please suggest…": the request
        // under the words that ask for it.
        // "The safety check went off, so in this reply please tell them…": what comes before the
        // request says why (not a condition: "If they are hurt, please call…" keeps its "if").
        var text = MockReading.spelledOut(part).trimmed(MockReading.spacesAndStops)
            .replacingMatches(ofPattern: #"^(?!(?:if|when|whenever|for|after|once|should)\b)[^;]*?,\s*(?:so\s+|and\s+)?(?:(?:in|for) (?:this|your next) (?:reply|response|message),?\s+)?please\s+"#, with: "", caseSensitive: false)
            .replacingMatches(ofPattern: requestPreamble, with: "", caseSensitive: false)
        var lower = MockReading.fold(text)
        if MockReading.contains(#"^(?:stop|pause|halt|set aside) (?:the |all |any )?(?:[\w-]+ )?(?:coaching|teaching|lessons?|exercises?|session plan|practice)"#, lower) { return .suppress("coaching") }
        // "Keep the reply to this one instruction": nothing else goes in it.
        if MockReading.contains(#"^keep (?:the|your|this) (?:reply|response|answer) (?:to|focused on|on)\b"#, lower) { return .suppress("coaching") }
        // "Put the coursework aside for this reply", "Set the plan aside", "Park the revision for now".
        if MockReading.contains(#"^(?:put|set|leave|lay|push|park) (?:the |all |any |their |your )?(?:[\w-]+ ){0,2}?(?:aside|to one side|on hold|for now|for later)\b"#, lower) { return .suppress("coaching") }
        // "Leave the speech practice until they feel steady".
        if MockReading.contains(#"^leave (?:the |any |all |their |your )?(?:[\w-]+ ){0,3}?(?:practice|lessons?|coaching|exercises?|session|plans?|planning|work|drills?|homework|training|tips|advice|suggestions)\b.*\b(?:until|till|for now|for later|for another time)\b"#, lower) { return .suppress("coaching") }
        // "Hold off on any grief exercises for now", "Skip the lesson this time".
        if MockReading.contains(#"^(?:hold off (?:on|with)|skip|drop|pause) (?:the |all |any |their |your )?(?:[\w-]+ ){0,2}?(?:coaching|teaching|lessons?|exercises?|practice|planning|plans?|tips|advice|session|homework|drills?|activity|activities)\b"#, lower) { return .suppress("coaching") }
        // "Nothing else belongs in this reply": the alert's lines and nothing more.
        // "Leave budgeting advice out of this reply".
        if MockReading.contains(#"^leave (?:any |all )?(?:[\w-]+ )?(?:advice|tips|coaching|suggestions)\b.*\bout\b|^leave out (?:any |all )?(?:[\w-]+ )?(?:advice|tips|coaching|suggestions)\b"#, lower) { return .suppress("coaching") }
        // "No cooking talk until they are safe".
        // "No Spanish practice in this reply": whatever it names, it is left for later.
        if MockReading.contains(#"^no (?:[\w-]+ )?(?:talk|advice|tips|coaching|suggestions|lessons?|practice|planning|exercises?|homework)\b|^no (?:[\w-]+ ){1,3}(?:in|for|during) this (?:reply|response|message|turn)\b"#, lower) { return .suppress("coaching") }
        if MockReading.contains(#"^nothing else (?:belongs|goes|should go|should be) in (?:this|the|your) (?:reply|response|answer)"#, lower) { return .suppress("coaching") }
        // "Nothing about training, feeding or treats in this reply".
        if MockReading.contains(#"^nothing (?:about|on|of|regarding)\b"#, lower) { return .suppress("coaching") }
        // "Give no sleep-schedule advice in this reply", "Offer no tips".
        if MockReading.contains(#"^(?:give|offer|include|share|provide|make)\s+no\s+(?:[\w-]+\s+){0,2}?(?:advice|tips|coaching|suggestions|plans?|planning|ideas|recommendations|strategies|routes?)\b"#, lower) { return .suppress("coaching") }
        if MockReading.contains(#"^(?:do not|don't|never|avoid)\b"#, lower) {
            var what: [String] = []
            if MockReading.contains(#"\bask (?:any )?questions?\b"#, lower) { what.append("questions") }
            if MockReading.contains(#"\b(?:interpret|lab|values|data|numbers)\b"#, lower) { what.append("data") }
            if MockReading.contains(#"\b(?:continue|carry on|keep going|lesson|exercises?|meditations?|coaching|tips|change the subject|advice|advise|suggest|supplements|practi[cs]e|planning)\b"#, lower) { what.append("coaching") }
            return what.isEmpty ? nil : .suppress(what.joined(separator: ","))
        }
        // "If they're unsure, tell them: healthdirect's nurses answer on 1800 022 222": the words
        // after the colon are said, to the listener, after the case they are for.
        if let match = MockReading.matches(#"^(?:(.+?),\s*)?(?:tell|say to) "# + listener + #"\s*:\s*(.+)$"#, in: text).first {
            // A short case is said before the words; a long list of cases is left to the words,
            // which are said whole enough to keep what they ask.
            let lead = match[1].trimmed(.whitespaces)
            let when = lead.isEmpty || lead.split(separator: " ").count > 8 ? "" : swapListener(lead) + ", "
            return .say(capitalized(when + bounded(swapListener(match[2]))) + ".")
        }
        // "Give both numbers, written exactly like this: Lifeline 13 11 14 and …": what follows
        // the colon is what is given.
        if let match = MockReading.matches(#"^(?:give|share|offer|provide|write|include)\b[^:]{0,60}\b(?:like this|as follows|exactly|word for word|verbatim|in these words)\s*:\s*(.*\d.*)$"#, in: text).first {
            return .say(capitalized(bounded(swapListener(match[1]))) + ".")
        }
        // "If they may have taken too much, tell them to …"
        var condition = ""
        // "For a fever in a baby under three months, they need to …"
        if let match = MockReading.matches(#"^((?:if|for|after|once|whenever) [^,]+),\s*(.+)$"#, in: text).first {
            condition = swapListener(match[1]) + ", "
            // "If they are driving, you must tell them…": the request after the case.
            text = match[2].replacingMatches(ofPattern: requestPreamble, with: "", caseSensitive: false)
            lower = MockReading.fold(text)
        }
        text = text.replacingMatches(ofPattern: #"^(?:clearly|gently|kindly|calmly|firmly|warmly)\s+"#, with: "", caseSensitive: false)
        // "Otherwise they need to see a GP": the other case, said as such.
        if condition.isEmpty, let match = MockReading.matches(#"^(otherwise|if not|failing that),?\s+(.+)$"#, in: text).first {
            condition = MockDirective.capitalized(match[1].lowercased()) + ", "
            text = match[2]
        }
        lower = MockReading.fold(text)
        // What the line asks is kept short; the words the mock adds to it (`tail`) are not cut.
        func sentence(_ body: String, _ tail: String = "") -> MockDirective {
            // "…they don't have to repay and that threats are a crime": the second "that" is
            // the instruction's, not the reply's.
            // "…a trusted adult today -> parent, teacher": what follows an arrow only spells it out.
            let body = body.components(separatedBy: " -> ").first.map { $0.components(separatedBy: " → ")[0] } ?? body
            let full = condition + body.replacingText(" and that ", with: " and ")
            return .say(capitalized(bounded(full)) + tail + ".")
        }
        // "Ask one question only, whether…", "Ask a single question: whether…": the question is
        // what follows.
        text = text.replacingMatches(ofPattern: #"^(ask)\s+(?:only\s+)?(?:one|a single|just one|exactly one)\s+question(?:\s+only)?\s*[,:—-]?\s+(?=(?:whether|if)\b)"#,
                                     with: "$1 ", caseSensitive: false)
        // "End with one question that checks they are safe right now", "End with one short
        // question about right now, like whether anyone is hurt": the question is what it checks.
        text = text.replacingMatches(ofPattern: #"^(?:finish|end|close|wrap up)(?:\s+(?:the|your|this)\s+(?:reply|message|response))?\s+(?:with|on)\s+(?:one|a|a single|just one)\s+(?:short\s+|brief\s+|gentle\s+|simple\s+)?question\s+(?:(?:that|which)\s+(?:checks|asks)|checking|to check|asking)\s+(?:whether\s+|if\s+|that\s+)?"#,
                                     with: "ask whether ", caseSensitive: false)
            .replacingMatches(ofPattern: #"^(?:finish|end|close|wrap up)(?:\s+(?:the|your|this)\s+(?:reply|message|response))?\s+(?:with|on)\s+(?:one|a|a single|just one)\s+(?:short\s+|brief\s+|gentle\s+|simple\s+)?question\b[^,]*,\s*(?:like|such as|for example|e\.g\.)\s+(?:whether|if)\s+"#,
                                  with: "ask whether ", caseSensitive: false)
        // "…like whether anyone is hurt or whether they have signal": the first is asked.
        if text.hasPrefix("ask whether "), let other = text.range(of: " or whether ") { text = String(text[..<other.lowerBound]) }
        // "Finish by asking whether they're able to make that call now": the question, last.
        text = text.replacingMatches(ofPattern: #"^(?:finish|end|close|wrap up)(?:\s+(?:the|your|this)\s+(?:reply|message|response))?\s+(?:by|with)\s+asking\s+"#,
                                     with: "ask ", caseSensitive: false)
            .replacingMatches(ofPattern: #"^(ask\s+(?:whether|if)\s+(?:they|the user|the child))['’]re\b"#, with: "$1 are", caseSensitive: false)
        lower = MockReading.fold(text)
        // Questions: "Ask whether they are safe right now".
        // "Check whether someone is with them".
        // "Ask if someone can be with them tonight".
        if let match = MockReading.matches(#"^(?:ask|check)"# + askedHow + #" (?:whether|if) (someone|anyone|somebody|an adult|a trusted adult) (is|can|could|will) (.+)$"#, in: text).first {
            return .say(capitalized(condition + match[2].lowercased() + " " + match[1].lowercased() + " " + swapListener(match[3])) + "?")
        }
        if let match = MockReading.matches(#"^(?:ask|check)"# + askedHow + #" (?:whether|if) (?:they|the user|the child) (are|have|feel|can|know) (.+)$"#, in: text).first {
            // "Ask if they have eaten today": a participle after "have" makes "Have you eaten…".
            let participle = match[1].lowercased() == "have" && MockReading.contains(#"^(?:\w+(?:ed|en)|been|had|got|done|gone|told|thought|made|said|felt|heard|tried|slept)\b"#, match[2].lowercased())
            let verb = participle ? "Have you" : ["are": "Are you", "have": "Do you have", "feel": "Do you feel", "can": "Can you", "know": "Do you know"][match[1].lowercased()] ?? "Are you"
            return .say(capitalized(condition + verb + " " + swapListener(match[2])) + "?")
        }
        // "Ask whether the baby is breathing": a question about someone the listener is with,
        // asked with its verb first.
        if let match = MockReading.matches(#"^(?:ask|check)"# + askedHow + #" (?:whether|if) ((?:the|your|their|his|her) [\w'’-]+(?: [\w'’-]+)?) (is|are|was|were|has|have|can|will) (.+)$"#, in: text).first,
           !MockReading.contains(#"^(?:the user|the person)$"#, match[1].lowercased()) {
            return .say(capitalized(condition + match[2].lowercased() + " " + swapListener(match[1]) + " " + swapListener(match[3])) + "?")
        }
        // "Ask whether they hit their head", "Check if they took anything": asked as it is
        // written, so no verb needs changing.
        if let match = MockReading.matches(#"^(?:ask|check)"# + askedHow + #" (?:whether|if) ((?:they|the user|the child|he|she) .+)$"#, in: text).first {
            return .say(capitalized(condition + "can you tell me whether " + swapListener(match[1])) + "?")
        }
        // "(… and) tell a trusted adult today", "talk to someone you trust": what the listener
        // does, left after a split from the verb that asked it of them.
        if MockReading.contains(#"^(?:tell|talk to|speak to|confide in) (?:a|an|someone|somebody|your|their|a trusted)\b"#, lower) {
            return sentence("please " + swapListener(lowercasedFirstWord(text)))
        }
        // "Ask their district nurse or GP to look at it": someone the listener asks.
        if let match = MockReading.matches(#"^ask ((?:their|your|a|an|the) (?:[\w'’-]+ ){0,4}?)to (.+)$"#, in: text).first,
           !MockReading.contains("^" + listener + #"\s*$"#, match[1].trimmed(.whitespaces).lowercased()) {
            return sentence("please ask " + swapListener(match[1]) + "to " + swapListener(match[2]))
        }
        if MockReading.contains(#"^ask\b(?!\s+"# + listener + #"\s+to\b)"#, lower) { return .say(capitalized(condition + "can you tell me a little more about how you are right now") + "?") }
        // Acknowledgements.
        if MockReading.contains(#"^(?:thank|respond with|acknowledge (?:the|their|what|it)|validate|reassure|express (?:empathy|sympathy|care|compassion|understanding|concern))"#, lower) {
            return .say("Thank you for telling me; I'm really glad you did.")
        }
        if let match = MockReading.matches(#"^acknowledge (?:that |how )(.+)$"#, in: text).first {
            return sentence("I know " + (lower.hasPrefix("acknowledge how") ? "how " : "") + swapBoth(match[1]))
        }
        // "(…, and) say to call 999 if the child is in danger": what to tell them to do.
        // ("Say to them that …" is something to tell them, read below.)
        if let match = MockReading.matches(#"^say to\s+(?!them\b|him\b|her\b|the\b|their\b|your\b|you\b)(.+)$"#, in: text).first {
            return sentence("please " + swapListener(match[1]))
        }
        // "Tell them to X", "Encourage them to X", "Suggest they X", "Urge them to X".
        if let match = MockReading.matches(#"^(?:tell|encourage|urge|remind|advise|ask|invite|help|get|suggest|recommend|push|nudge)\s+"# + listener + #"\s+(?:[a-z]+ly\s+)?(?:to\s+)?(.+)$"#, in: text).first {
            let body = match[1]
            if MockReading.contains(#"^(?:that\b|they\b|it\b|you\b)"#, body) || !MockReading.contains(#"^(?:to\b)"#, body) && MockReading.contains(#"^(?:they|it|you|that) "#, body) {
                return sentence(swapBoth(body.replacingMatches(ofPattern: #"^that\s+"#, with: "")))
            }
            // "Tell them buying an essay can get them expelled", "Remind them a slip is not a
            // failure": what to tell them, a clause of its own, is said as it is.
            if MockReading.contains(#"^(?:tell|remind|warn)\b"#, lower), !MockReading.contains(#"^(?:not\s+)?to\b"#, body),
               MockReading.contains(#"^(?:[\w'’-]+\s+){1,5}?(?:can|could|will|would|may|might|is|are|was|were|isn't|aren't|won't|doesn't|don't|has|have|does|needs?)\b"#, body) {
                return sentence(swapBoth(body))
            }
            // "Urge them not to drive while this tired"; "Tell them not to drive drowsy, and to
            // take a taxi": the second verb is asked of them as the first was.
            // (Dropped after the line is kept short, which keeps ", and to …" as the same verb going on.)
            if let negated = MockReading.matches(#"^not to\s+(.+)$"#, in: body).first,
               case .say(let said) = sentence("please don't " + swapListener(negated[1])) {
                return .say(said.replacingMatches(ofPattern: #"(,? (?:and|or)) to (?=\w)"#, with: "$1 "))
            }
            // "Tell them to call 999 and not leave the person alone".
            return sentence("please " + swapListener(body).replacingText(" and not to ", with: " and don't ").replacingText(" and not ", with: " and don't "))
        }
        // "Point (them) to a professional", "Signpost to …"; "refer" and "send" need a listener
        // ("refer to the notes above" is not a referral).
        if let match = MockReading.matches(#"^(?:(?:point|direct|steer|signpost)(?:\s+"# + listener + #")?|(?:refer|send)\s+"# + listener + #")\s+(?:to|towards?)\s+(.+)$"#, in: text).first {
            return sentence("please reach out to " + swapListener(match[1]))
        }
        // "Mention that you are not a doctor" is said; "Mention the protocol's dose" cites the data.
        if let match = MockReading.matches(#"^(?:mention|state|note|point out)\s+(?:(?:clearly|gently|kindly|briefly)\s+)?(?:that\s+|(?=(?:they|the user|you|it|there)\s+(?:can|could|may|might|will|should|are|is|have|has|do|don't|did|need|needs)\b))(.+)$"#, in: text).first {
            return sentence(swapBoth(match[1]))
        }
        // "They should call 999 straight away", "The user needs to see a GP".
        if let match = MockReading.matches(#"^"# + listener + #"\s+(should|must|needs? to|ought to|have to|has to)\s+(.+)$"#, in: text).first {
            let modal = ["needs to": "need to", "has to": "have to"][match[1].lowercased()] ?? match[1].lowercased()
            return sentence("you " + modal + " " + swapListener(match[2]))
        }
        // "Mention Beat's helpline, 0808 801 0677" is said; "Mention the protocol's dose" cites the data.
        let namesContact = MockReading.contains(#"\d|\b(?:line|helpline|hotline|service|charity|number)\b"#, lower)
        if !namesContact, MockReading.contains(#"^(?:mention|quote|cite|state)\b"#, lower) { return .cite(text) }
        // "Provide the number of a crisis line", "Share the 988 lifeline".
        // "Name" is the contact only when what it names is one: "Gently name what you noticed" is not.
        if let match = MockReading.matches(#"^(?:provide|share|include|(?:name|give|offer)(?:\s+"# + listener + #")?(?=\s+(?:the |a |an )?(?:[\w'’-]+\s+){0,5}?(?:number|line|contact|details|link|hotline|helpline|lifeline|resources?)\b|\s+.{0,60}?\b\d{3,}))\s+(.+)$"#, in: text).first {
            // "Give Samaritans on 116 123": a service named with its number is one to reach.
            var object = swapListener(match[1])
            let named = !MockReading.contains(#"^(?:the|a|an|your|our|this|that)\b|\b(?:number|line|contact|details|link|resources?)\b"#, MockReading.fold(object))
            // "Samaritans, 116 123" is Samaritans on 116 123.
            if named, let comma = object.range(of: ", "), object[comma.upperBound...].first?.isNumber == true, !object[..<comma.lowerBound].contains(where: \.isNumber) {
                object.replaceSubrange(comma, with: " on ")
            }
            return sentence((named ? "you can reach " : "here is ") + object)
        }
        // "Offer to practise together instead".
        if let match = MockReading.matches(#"^offer to\s+(.+)$"#, in: text).first {
            return sentence("we could " + swapBoth(match[1]))
        }
        // "Advise against driving tonight".
        // "Guide one slow breath in for four and out for six", "Walk them through a grounding
        // exercise": done with them, in the reply.
        if let match = MockReading.matches(#"^(?:guide(?:\s+"# + listener + #")?(?:\s+(?:through|into))?|(?:walk|talk|take|lead)\s+"# + listener + #"\s+through)\s+((?:one|a|an|two|three|some|the|\d+)\s+.+)$"#, in: text).first {
            return sentence("Let's try " + swapListener(match[1]) + " together")
        }
        if let match = MockReading.matches(#"^(?:advise|warn)\s+against\s+(.+)$"#, in: text).first {
            return sentence("I'd advise against " + swapListener(match[1]))
        }
        // "Suggest a pharmacist or doctor", "Recommend a professional", "Suggest a short walk",
        // "Advise pressing firmly on the wound".
        if let match = MockReading.matches(#"^(?:suggest|recommend|mention|offer|encourage|advise)\s+(.+)$"#, in: text).first {
            let object = swapListener(match[1])
            // "Recommend speaking with a professional".
            if MockReading.contains(#"^\w+ing\b"#, object), !MockReading.contains(#"^(?:something|nothing|anything|everything)\b"#, object) {
                return sentence("I'd recommend " + object)
            }
            // "Suggest someone stays at home in case they come back": a clause of its own.
            if MockReading.contains(#"^(?:that\s+)?(?:someone|somebody|a (?:friend|neighbou?r|relative)|another (?:adult|person)|one of (?:them|you))\s+\w+s\b"#, MockReading.fold(match[1])) {
                return sentence("it might help if " + match[1].replacingMatches(ofPattern: #"^that\s+"#, with: ""))
            }
            if MockReading.contains(#"\b(?:line|service|helpline|hotline|charity|organi[sz]ation|team|clinic)s?\b"#, object) {
                return sentence(object, " can help with this")
            }
            if MockReading.contains(#"\b(?:doctor|gp|pharmacist|professional|therapist|counsel+or|nurse|adult|parent|teacher|adviser|advisor|lawyer|clinician|specialist|psychologist|prescriber|vet|veterinarian|midwife|dentist|physio(?:therapist)?|dietitian)s?\b"#, object) {
                return sentence(object, " would be the right person to talk to about this")
            }
            // "Mention Drinkline, free on 0300 123 1110": a service given with its number.
            if object.filter(\.isNumber).count >= 6, object.first?.isUppercase == true { return sentence("you can reach " + object) }
            return sentence("it might help to try " + object)
        }
        // "Say (kindly) that X", "Explain (that) X", "Tell them that X", "Let them know X".
        if let match = MockReading.matches(#"^(?:say|explain|tell \#(listener)|inform \#(listener)|let \#(listener) know|(?:make sure|ensure) \#(listener) knows?|make (?:it )?clear|emphasi[sz]e|stress)\s+(?:[a-z]+ly\s+)?(?:that\s+)?(.+)$"#, in: text).first {
            return sentence(swapBoth(match[1]))
        }
        if MockReading.contains(#"^stay with\b"#, lower) { return .say("I'm staying right here with you.") }
        // A fact to pass on: "Their GP can refer them to talking therapy", "A pharmacist can
        // check the dose". Not one about the reply itself ("The reply should stay short").
        if MockReading.contains(#"^(?:their|a|an|the|local)\s+(?:[\w'&-]+\s+){0,3}?(?:can|could|will|may|should|must|needs? to|is able to|are able to|(?:is|are) (?:the|best) (?:right )?(?:person|people|one|ones|place|placed)\b)\s*\w"#, lower),
           // The one who can help is the subject: "their GP", "a pharmacist", "the helpline".
           MockReading.contains(#"^their\b|^(?!(?:the|a|an)\s+(?:user|person|child|patient|customer|member|client|learner|caller|sender|teenager|player)s?\b)\S+\s+(?:[\w'&-]+\s+){0,3}?(?:\w*(?:ist|ian|or|er)|gp|nurse|doctor|vet|midwife|helpline|hotline|line|service|team|charity|clinic|unit|pharmacy|surgery)s?\s+(?:can|could|will|may|should|must|needs?|is|are)\b"#, lower),
           !MockReading.contains(#"^(?:the|a|an)\s+(?:reply|response|answer|message|coach|assistant|model|bot)\b"#, lower) {
            return sentence(swapListener(lowercasedFirstWord(text)))
        }
        // "Call 999 if the pain spreads to the arm", "Ring NHS 111 today": said to the listener.
        if MockReading.contains(#"^(?:call|ring|phone|dial|text|contact|visit|see|go to)\s+\S"#, lower) { return sentence("please " + swapListener(lowercasedFirstWord(text))) }
        // "Use their adrenaline pen if they have one, then call 999": a first-aid step the
        // listener takes, said to them.
        // Not "take", "stop" or "get": "Take their worries seriously" and "Get them to call"
        // are asked of the coach.
        if MockReading.contains(#"^(?:use|press|sit|lie|move|drink|breathe|hold|put|remove|apply|loosen|rinse|cool)\s+(?:(?:their|them|they|the)\b.*\b(?:their|them|they)\b|their\b|the (?:child|baby)\b)"#, lower) {
            return sentence("please " + swapListener(lowercasedFirstWord(text)))
        }
        // "Keep your response warm and supportive", "Stay warm and present".
        if MockReading.contains(#"^(?:keep|be|stay|remain)\b[^.]*\b(?:warm|supportive|kind|gentle|present|caring|non-judg(?:e)?mental)\b"#, lower) {
            return .say("I'm here for you.")
        }
        return nil
    }
}
