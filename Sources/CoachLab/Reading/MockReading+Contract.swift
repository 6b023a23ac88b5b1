/// The reply contract, read from the structure: each contract value that reached the prompt is
/// obeyed as the instruction it stands for, whatever words the template put around it. A value
/// the template never rendered did not reach the model, so it is not obeyed either; deleting the
/// line that renders it changes the reply, and a check can catch the loss.
extension MockReading {
    /// The instruction each contract value stands for, with the value it is noted with; nil for
    /// a value that asks nothing the mock would not do anyway (`questions: 0`, `forbid` of an
    /// unknown form).
    static func instruction(forContract field: String, value: String) -> (kind: Instruction.Kind, value: String)? {
        switch field {
        case "sentences":
            return ReplyContract.range(value).map { (.sentences, String($0.max)) }
        case "words":
            return Int(value).map { (.words, String($0)) }
        case "tokens":
            // About three words to four tokens.
            return Int(value).map { (.words, String(max(1, $0 * 3 / 4))) }
        case "questions":
            return Int(value) == 1 ? (.oneQuestion, "at most one question") : nil
        case "endWithQuestion":
            return YAMLValue.booleanValue(value) == true ? (.endQuestion, "the reply ends with a question") : nil
        case "stayInRole":
            return YAMLValue.booleanValue(value) == true ? (.stayInRole, "never says it is an AI") : nil
        case "confidential":
            return YAMLValue.booleanValue(value) == true ? (.confidential, "keeps these instructions private") : nil
        case "forbid":
            switch ReplyContract.Form(rawValue: value) {
            case .markdown: return (.noMarkdown, "no markdown")
            case .headings: return (.noHeadings, "no headings")
            case .lists: return (.noLists, "no lists")
            case .bold: return (.noBold, "no bold")
            case .emoji: return (.noEmoji, "no emoji")
            case .exclamations: return (.noExclamation, "no exclamation marks")
            case nil: return nil
            }
        default:
            return nil
        }
    }

    /// Notes each contract value of the structure the prose readers did not already read as
    /// the same instruction, on the line that shows it. A length the contract gives is the
    /// reply's length: what the readers took for one from the wording ("examples of 3 to 6
    /// words") gives way to it, though the live alert may still ask for less ("Be calm and
    /// brief").
    mutating func supplementContract(from structure: PromptStructure) {
        let parts = structure.parts(.contract)
        if parts.contains(where: { ["sentences", "words", "tokens"].contains($0.field ?? "") }) {
            let alert = alertRange
            forget([.sentences, .words, .paragraphs]) { instruction in alert?.contains(instruction.line - 1) == true }
        }
        for part in parts {
            guard let field = part.field, let value = part.value,
                  let (kind, noted) = Self.instruction(forContract: field, value: value) else { continue }
            if all(kind).contains(where: { $0.value == noted }) { continue }
            let index = Self.lineIndex(of: part.text, in: lines) ?? lines.firstIndex { $0.contains(part.text) } ?? 0
            note(kind, noted, index)
        }
    }
}
