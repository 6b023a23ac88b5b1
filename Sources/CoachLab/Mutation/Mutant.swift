/// One injected prompt defect: a copy of one pack file with one change, held in memory.
public struct Mutant: Sendable, Identifiable {
    /// The kinds of defect CoachLab injects.
    public enum Operator: String, Sendable, CaseIterable, Codable {
        case dropAlertLine = "drop-alert-line", innocentAlert = "innocent-alert"
        case dropKeyword = "drop-keyword", dropPattern = "drop-pattern", dropAllKeywords = "drop-all-keywords"
        case deleteRule = "delete-rule", rename
        case deleteInstruction = "delete-instruction", scaleLimit = "scale-limit"
        case deleteLayer = "delete-layer", swapLayers = "swap-layers", invertCondition = "invert-condition"
        case dropKnowledge = "drop-knowledge", dropExample = "drop-example", moveMemoryReset = "move-memory-reset"
        case inviteLeak = "invite-leak"

        /// What the operator does, for help and reports.
        public var summary: String {
            switch self {
            case .dropAlertLine: "drop one instruction line of a rule's risk alert"
            case .innocentAlert: "replace a risk alert's instructions with an innocent sentence"
            case .dropKeyword: "remove one stage-1 keyword of a rule"
            case .dropPattern: "remove one stage-1 pattern of a rule"
            case .dropAllKeywords: "remove every stage-1 matcher of a rule: keywords, patterns, lexicons and frames"
            case .deleteRule: "delete a whole rule"
            case .rename: "rename the persona or a coach"
            case .deleteInstruction: "delete one format, identity or confidentiality instruction"
            case .scaleLimit: "raise a numeric length limit (2-3 sentences becomes 8-9)"
            case .deleteLayer: "delete a layer of the stack"
            case .swapLayers: "swap two neighbouring layers"
            case .invertCondition: "invert a layer's when: or a template section ({{#x}} ↔ {{^x}})"
            case .dropKnowledge: "drop a knowledge item of a topic"
            case .dropExample: "drop an example conversation of a coach"
            case .moveMemoryReset: "move a coach's memory reset back so cleared insights return"
            case .inviteLeak: "add a line that invites the model to repeat its instructions"
            }
        }
    }

    /// `<pack>/<operator>#<n>`, stable for the same pack.
    public var id: String
    /// The pack's folder.
    public var pack: String
    public var `operator`: Operator
    /// Where the change is, in the original file.
    public var location: SourceLocation
    /// What changed, in words.
    public var description: String
    /// The text before and after the change.
    public var before: String
    public var after: String
    /// The changed file: its path and new YAML text.
    public var file: String
    public var text: String
}
