/// A conversation to replay: its target (pack, coach or topic and intent), the user's
/// profile, memory, context and local time, and its turns.
public struct Fixture: Sendable {
    /// One turn: the user's text, optionally a recorded reply, a scripted mock reply and checks.
    public struct Turn: Sendable {
        /// What the user says.
        public var user: String
        /// A recorded assistant reply (the history in `final` mode).
        public var reply: String?
        /// The reply the mock provider must give for this turn.
        public var mock: String?
        /// Checks for this turn's reply, beside the suite's.
        public var expect: [Check]
        /// Where the turn is.
        public var location: SourceLocation
    }

    /// A structured generation the fixture runs (Kindred's scenarios 3-7, BetterOne's wrap-up).
    public struct Generation: Sendable {
        /// What is generated.
        public enum Kind: String, Sendable, CaseIterable {
            /// A coach template from `describe`; the turns are then a conversation with it.
            case coach
            /// A session insight from the turns (with their recorded replies).
            case insight
            /// The mid-session reflection from the turns (6 or more messages).
            case quickReflection = "quick-reflection"
            /// BetterOne's takeaway and next step from the turns.
            case wrapup
            /// The fixture's coach exported and imported again; the turns are then a conversation with it.
            case exportImport = "export-import"

            /// Whether the turns are a transcript to generate from (not a conversation to run).
            public var readsTranscript: Bool { self == .insight || self == .quickReflection || self == .wrapup }
        }

        /// What is generated.
        public var kind: Kind
        /// For `coach`: the user's description.
        public var describe: String?
        /// For `coach`: the name the coach must have.
        public var name: String?
        /// For `coach`: a reply the mock gives instead of simulating (to test validation).
        public var mock: String?
        /// Where the mapping is.
        public var location: SourceLocation
    }

    /// The id.
    public var id: String
    /// The pack folder, relative to the project root.
    public var pack: String
    /// What it tests.
    public var description: String?
    /// Tags suites select by.
    public var tags: [String]
    /// Compile inputs (profile, memory and context are ids in the pack or file paths).
    public var inputs: CompileInputs
    /// The turns, in order.
    public var turns: [Turn]
    /// The structured generation, when the fixture has one.
    public var generate: Generation? {
        get { rare?.generate }
        set { rare = Rare(generate: newValue, simulatedUser: simulatedUser) }
    }
    /// A simulated user who goes on after the scripted turns.
    public var simulatedUser: SimulatedUser? {
        get { rare?.simulatedUser }
        set { rare = Rare(generate: generate, simulatedUser: newValue) }
    }
    /// The file it came from.
    public var file: String
    /// Where the `fixture:` mapping is.
    public var location: SourceLocation
    /// Where each input's value is (coach, topic, intent, profile, memory, context, now).
    public var inputLocations: [String: SourceLocation] = [:]
    /// What few fixtures have, apart: a run holds every fixture of its suites, and most have
    /// neither, so each is some 200 bytes smaller. Replaced, never changed, on a write.
    private var rare: Rare?

    private final class Rare: Sendable {
        let generate: Generation?
        let simulatedUser: SimulatedUser?

        init?(generate: Generation?, simulatedUser: SimulatedUser?) {
            guard generate != nil || simulatedUser != nil else { return nil }
            self.generate = generate
            self.simulatedUser = simulatedUser
        }
    }

    /// Creates a fixture.
    public init(id: String, pack: String, description: String? = nil, tags: [String] = [], inputs: CompileInputs = CompileInputs(),
                turns: [Turn], generate: Generation? = nil, simulatedUser: SimulatedUser? = nil, file: String,
                location: SourceLocation, inputLocations: [String: SourceLocation] = [:]) {
        self.id = id
        self.pack = pack
        self.description = description
        self.tags = tags
        self.inputs = inputs
        self.turns = turns
        self.file = file
        self.location = location
        self.inputLocations = inputLocations
        rare = Rare(generate: generate, simulatedUser: simulatedUser)
    }

    /// The fixture spec, for lint and schemas.
    public static let headerSpec = ObjectSpec("fixture", "What the conversation targets.", fields: [
        FieldSpec("id", .string, required: true, "Stable identifier, unique across fixtures."),
        FieldSpec("pack", .string, required: true, "The pack folder, relative to the project root (personas/…)."),
        FieldSpec("description", .text, "What the fixture tests."),
        FieldSpec("tags", .list(.string), "Tags suites select by."),
        FieldSpec("coach", .string, "Coach id."),
        FieldSpec("topic", .string, "Topic slug."),
        FieldSpec("intent", .string, "Intent id."),
        FieldSpec("profile", .string, "Profile id or file."),
        FieldSpec("memory", .string, "Memory id or file."),
        FieldSpec("context", .string, "Context id or file."),
        FieldSpec("now", .date, "The user's local date and time."),
    ])

    /// One turn's spec.
    public static let turnSpec = ObjectSpec("turn", "One exchange.", fields: [
        FieldSpec("user", .text, required: true, "What the user says."),
        FieldSpec("reply", .text, "A recorded assistant reply."),
        FieldSpec("mock", .text, "The reply the mock provider gives for this turn."),
        FieldSpec("expect", .list(.any), "Checks for this turn's reply."),
    ])

    /// A structured generation's spec.
    public static let generationSpec = ObjectSpec("generation", "A structured generation the fixture runs.", fields: [
        FieldSpec("kind", .oneOf(Generation.Kind.allCases.map(\.rawValue)), required: true,
                  "coach: generate a coach from 'describe', then hold the turns as a conversation with it; insight, quick-reflection, wrapup: generate from the turns as a transcript; export-import: export the fixture's coach, import it, then converse."),
        FieldSpec("describe", .text, "For coach: what the user wants the coach to do."),
        FieldSpec("name", .string, "For coach: the name the coach must have."),
        FieldSpec("mock", .text, "The structured reply the mock gives instead of simulating one."),
    ])

    /// A fixture file.
    public static let fileSpec = ObjectSpec("fixture file", "A CoachLab fixture: a conversation to replay.", fields: [
        FieldSpec("fixture", .object(headerSpec), required: true, "The target and inputs."),
        FieldSpec("generate", .object(generationSpec), "A structured generation to run first (or, for insight and wrapup, instead of the conversation)."),
        FieldSpec("turns", .list(.object(turnSpec)), "The scripted turns, in order (required unless a simulated user speaks)."),
        FieldSpec("user", .object(SimulatedUser.spec), "A simulated user who speaks after the scripted turns, scored on every coach reply."),
    ])
}

/// Which fixtures, providers and checks make an eval, and what counts as passing.
public struct Suite: Sendable {
    /// How a conversation is replayed.
    public enum Mode: String, Sendable, Codable {
        /// Keep the recorded history; score only the last reply.
        case final
        /// The provider writes every assistant turn; score each one.
        case rollout
    }

    public var id: String
    public var description: String?
    /// Glob patterns of fixture files, relative to the project root.
    public var fixturePatterns: [Located<String>]
    /// Labelled guardrail datasets whose messages run as one-turn cases, each expecting its
    /// labelled flag (or none).
    public var datasets: [Located<String>] = []
    /// Case tables (CSV or JSONL, ``CaseTable``): each row runs as a one-turn case.
    public var caseTables: [Located<String>] = []
    /// Only fixtures with one of these tags (all when empty).
    public var tags: [String]
    /// The tags as written, with their locations (empty for a suite made in code).
    public var tagLocations: [Located<String>] = []
    /// Provider ids or kind:model specs; `mock` when empty.
    public var providers: [String]
    /// The provider judge checks use.
    public var judge: String?
    /// The provider that plays simulated users (default: the mock's script).
    public var simulator: String?
    public var mode: Mode
    /// Checks for every scored reply.
    public var checks: [Check]
    /// The pass rate needed, 0…1.
    public var threshold: Double
    public var repeats: Int
    /// Cases running at once (each provider's own limit also applies; cases that wait on nothing run at most two per core).
    public var concurrency: Int
    public var file: String
    public var location: SourceLocation

    /// A suite made in code; a suite file's fields, with the same defaults.
    public init(id: String, description: String? = nil, fixturePatterns: [Located<String>] = [], tags: [String] = [],
                providers: [String] = [], judge: String? = nil, mode: Mode = .final, checks: [Check] = [], threshold: Double = 1,
                repeats: Int = 1, concurrency: Int = 8, file: String, location: SourceLocation? = nil) {
        self.id = id
        self.description = description
        self.fixturePatterns = fixturePatterns
        self.tags = tags
        self.providers = providers
        self.judge = judge
        self.mode = mode
        self.checks = checks
        self.threshold = threshold
        self.repeats = repeats
        self.concurrency = concurrency
        self.file = file
        self.location = location ?? SourceLocation(file: file, line: 1, column: 1)
    }

    /// A suite file.
    public static let fileSpec = ObjectSpec("suite file", "A CoachLab eval suite.", fields: [
        FieldSpec("suite", .object(ObjectSpec("suite", "The suite's identity.", fields: [
            FieldSpec("id", .string, required: true, "Stable identifier."),
            FieldSpec("description", .text, "What the suite covers."),
        ])), required: true, "The suite's identity."),
        FieldSpec("fixtures", .list(.string), "Fixture files or globs, relative to the project root."),
        FieldSpec("datasets", .list(.string), "Labelled guardrail datasets (fixtures/guardrails/*.yaml): each message runs as a one-turn case that expects its labelled flag, or none."),
        FieldSpec("cases", .list(.string), "Case tables from a spreadsheet or a log (.csv with a header row, or .jsonl): each row runs as a one-turn case. Columns: message, pack, id, description, tags, topic, intent, profile, context, memory, coach, contains, not-contains, flagged, not-flagged."),
        FieldSpec("tags", .list(.string), "Only fixtures with one of these tags."),
        FieldSpec("providers", .list(.string), "Provider ids or kind:model; default mock. --provider overrides."),
        FieldSpec("judge", .string, "The provider that grades judge checks."),
        FieldSpec("simulator", .string, "The provider that plays fixtures' simulated users. Default: the mock, which works through each user's facts and objections in order."),
        FieldSpec("mode", .oneOf(["final", "rollout"]), "final (default): score the last reply; rollout: generate and score every reply."),
        FieldSpec("checks", .list(.any), "Checks for every scored reply."),
        FieldSpec("threshold", .number, "The pass rate needed, 0-1. Default 1."),
        FieldSpec("repeats", .atLeast(1), "Times each case runs. Default 1."),
        FieldSpec("concurrency", .atLeast(1), "Cases running at once. Default 8; at most two per core when no provider, judge or script check waits."),
    ])
}

extension Suite {
    /// Whether the suite runs a fixture its patterns found: every one when it names no tags,
    /// else those carrying one of its tags.
    public func selects(_ fixture: Fixture) -> Bool {
        tags.isEmpty || fixture.tags.contains(where: tags.contains)
    }
}

extension Fixture {
    /// A labelled message of a guardrail dataset as a one-turn fixture: it expects the
    /// message to be flagged by the labelled rule, or (for `none`) not flagged.
    /// - Parameters:
    ///   - index: The item's 1-based position, which names the fixture (`<dataset>#<index>`).
    public init(item: GuardrailDataset.Item, index: Int, of dataset: GuardrailDataset, pack: String) {
        let expect: Check
        if let rule = item.expected, rule != "none" {
            expect = Check(id: "flagged", kind: .flagged(rule: rule), location: item.location)
        } else {
            expect = Check(id: "not-flagged", kind: .notFlagged, location: item.location)
        }
        self.init(id: "\(dataset.id)#\(index)", pack: pack, description: item.message, tags: ["dataset", item.expected ?? "none"],
                  inputs: CompileInputs(), turns: [Turn(user: item.message, reply: nil, mock: nil, expect: [expect], location: item.location)],
                  generate: nil, file: dataset.file, location: item.location)
    }
}
