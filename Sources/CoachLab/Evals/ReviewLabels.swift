/// What a person marked in an HTML report: each reply they passed or failed, whole or check by
/// check, with a note. The report keeps the marks in the browser and exports them as this
/// file (JSON), which `coachlab review import` reads. Each label carries the conversation up to
/// its reply, so the file stands alone: it needs neither the report nor the result store.
public struct ReviewLabels: Sendable {
    /// One mark on one reply.
    public struct Label: Sendable {
        /// Where the reply came from.
        public var run, suite, fixture, provider: String
        public var model: String?
        /// The fixture's pack folder, as the run knew it.
        public var pack: String?
        /// The repeat and turn, from 1.
        public var repeatIndex, turn: Int
        /// The check result the mark is on (`tone.warmth`), or nil for the whole reply.
        public var check: String?
        /// The person's verdict.
        public var passed: Bool
        public var note: String?
        /// What the run said: the check's verdict, or for the whole reply whether every check passed.
        public var automated: Bool?
        /// The check's reason, as the run gave it.
        public var reason: String?
        /// The conversation, oldest first, ending with the reviewed reply.
        public var transcript: [Judgement.Message]
        public var location: SourceLocation

        /// The reviewed reply.
        public var reply: String { transcript.last { !$0.isUser }?.text ?? "" }
        /// The user's message the reply answered.
        public var message: String { transcript.last { $0.isUser }?.text ?? "" }
        /// The reply this label is on, the same for every label on it.
        public var replyKey: String { [run, suite, fixture, String(repeatIndex), provider, String(turn)].joined(separator: "\u{0}") }
        /// "suite/fixture turn N (provider)", for messages.
        public var place: String { "\(suite)/\(fixture)\(repeatIndex > 1 ? "#\(repeatIndex)" : "") turn \(turn) (\(provider))" }
    }

    /// The value of `format` in every labels file.
    public static let format = "coachlab-review"

    public var labels: [Label]
    public var file: String

    /// The spec of a labels file.
    public static let fileSpec = ObjectSpec("review labels", "The marks a person made in an HTML report, exported for coachlab review import.", fields: [
        FieldSpec("format", .oneOf([format]), required: true, "Always \(format)."),
        FieldSpec("version", .atLeast(1), "The file's version: 1."),
        FieldSpec("report", .text, "The report's title."),
        FieldSpec("runs", .list(.string), "The runs the report showed."),
        FieldSpec("exported", .string, "When the file was exported (ISO 8601)."),
        FieldSpec("labels", .list(.object(ObjectSpec("label", "One mark on one reply.", fields: [
            FieldSpec("run", .string, required: true, "The run."),
            FieldSpec("suite", .string, required: true, "The suite's id."),
            FieldSpec("case", .string, required: true, "The fixture's id."),
            FieldSpec("repeat", .atLeast(1), "The repeat, from 1."),
            FieldSpec("provider", .string, required: true, "The provider that replied."),
            FieldSpec("model", .string, "Its model."),
            FieldSpec("pack", .string, "The fixture's pack folder."),
            FieldSpec("turn", .atLeast(1), required: true, "The turn, from 1."),
            FieldSpec("check", .string, "The check result the mark is on; none for the whole reply."),
            FieldSpec("verdict", .oneOf(["pass", "fail"]), required: true, "The person's verdict."),
            FieldSpec("note", .text, "The person's note."),
            FieldSpec("automated", .oneOf(["pass", "fail"]), "What the run said."),
            FieldSpec("reason", .text, "The check's reason in the run."),
            FieldSpec("transcript", .list(.object(ObjectSpec("message", "One message.", fields: [
                FieldSpec("user", .text, "What the user said."),
                FieldSpec("coach", .text, "What the coach replied."),
            ]))), required: true, "The conversation, oldest first, ending with the reviewed reply."),
        ]))), required: true, "The marks."),
    ])
}

extension EvalLoader {
    /// Loads a labels file the HTML report exported; every problem is located in it.
    public func reviewLabels(at path: String) -> (ReviewLabels?, [Diagnostic]) {
        let root: Parsed
        switch parse(path, spec: ReviewLabels.fileSpec) {
        case .success(let parsed): root = parsed
        case .failure(let failure): return (nil, failure.diagnostics)
        }
        var diagnostics = root.diagnostics
        guard !diagnostics.contains(where: { $0.severity == .error }) else { return (nil, diagnostics) }
        var labels: [ReviewLabels.Label] = []
        for item in root.value["labels"]?.items ?? [] {
            var transcript: [Judgement.Message] = []
            for message in item["transcript"]?.items ?? [] {
                if let text = message.located("user")?.value { transcript.append(.init(isUser: true, text: text)) }
                if let text = message.located("coach")?.value { transcript.append(.init(isUser: false, text: text)) }
            }
            guard transcript.last?.isUser == false, transcript.contains(where: \.isUser) else {
                diagnostics.append(.error("the transcript must hold the user's message and end with the reviewed reply",
                                          at: item["transcript"]?.location ?? item.location))
                continue
            }
            let automated = item.located("automated")?.value
            labels.append(ReviewLabels.Label(
                run: item.located("run")?.value ?? "", suite: item.located("suite")?.value ?? "", fixture: item.located("case")?.value ?? "",
                provider: item.located("provider")?.value ?? "", model: item.located("model")?.value, pack: item.located("pack")?.value,
                repeatIndex: item.integer("repeat") ?? 1, turn: item.integer("turn") ?? 1, check: item.located("check")?.value,
                passed: item.located("verdict")?.value == "pass", note: item.located("note")?.value.nonBlank,
                automated: automated.map { $0 == "pass" }, reason: item.located("reason")?.value, transcript: transcript, location: item.location))
        }
        if labels.isEmpty, !diagnostics.contains(where: { $0.severity == .error }) {
            diagnostics.append(.error("the file holds no labels", at: root.value["labels"]?.location ?? root.value.location,
                                      hint: "mark replies in the report, then export again"))
        }
        return (diagnostics.contains { $0.severity == .error } ? nil : ReviewLabels(labels: labels, file: path), diagnostics)
    }
}

private extension String {
    var nonBlank: String? { allSatisfy(\.isWhitespace) ? nil : self }
}
