/// A transcript a person has graded, for measuring a judge against people
/// (`coachlab judge calibrate`): the conversation, the rubric (a named metric or inline), and
/// the person's verdict or score per criterion.
public struct Judgement: Sendable {
    /// One message of the transcript.
    public struct Message: Sendable, Hashable {
        public var isUser: Bool
        public var text: String
    }

    public var id: String
    /// The app it comes from (for reports).
    public var app: String?
    /// The named metric, when the rubric is one.
    public var metric: String?
    /// The rubric (resolved from the metric when it names one).
    public var rubric: Check.Rubric
    public var transcript: [Message]
    /// The person's score per criterion, on the rubric's scale (pass is 1, fail 0).
    public var labels: [String: Double]
    public var file: String
    public var location: SourceLocation

    /// Whether the person passed a criterion: their score at or above the rubric's threshold.
    public func humanPassed(_ criterion: String) -> Bool? {
        labels[criterion].map { rubric.scale.normalised($0) + 1e-9 >= rubric.threshold }
    }

    /// The spec of a judgement file.
    public static let fileSpec = ObjectSpec("judgement file", "A transcript with a person's verdict per criterion.", fields: [
        FieldSpec("judgement", .object(ObjectSpec("judgement", "What was graded and how.", fields: [
            FieldSpec("id", .string, required: true, "Unique among judgements."),
            FieldSpec("app", .string, "The app it comes from."),
            FieldSpec("metric", .string, "A named rubric in evals/rubrics/."),
            FieldSpec("rubric", .text, "An inline rubric, when no metric is named."),
            FieldSpec("criteria", .list(.any), "Inline criteria."),
            FieldSpec("scale", .oneOf(Check.Rubric.Scale.allCases.map(\.rawValue)), "Inline scale."),
            FieldSpec("threshold", .number, "Inline threshold."),
            FieldSpec("scope", .any, "reply (the last coach message) or conversation."),
        ])), required: true, "The rubric."),
        FieldSpec("transcript", .list(.object(ObjectSpec("message", "One message.", fields: [
            FieldSpec("user", .text, "What the user said."),
            FieldSpec("coach", .text, "What the coach replied."),
        ]))), required: true, "The conversation, oldest first, ending with the coach."),
        FieldSpec("labels", .any, required: true, "The person's verdict per criterion: pass or fail, or a score on the scale."),
    ])
}

extension EvalLoader {
    /// Loads a judgement file, with the named metric resolved.
    public func judgement(at path: String) -> (Judgement?, [Diagnostic]) {
        let root: Parsed
        switch parse(path, spec: Judgement.fileSpec) {
        case .success(let parsed): root = parsed
        case .failure(let failure): return (nil, failure.diagnostics)
        }
        var diagnostics = root.diagnostics
        guard let header = root.value["judgement"], let id = header.located("id")?.value else { return (nil, diagnostics) }
        let metric = header.located("metric")?.value
        guard let parsed = CheckParser.parseRubric(header, metric: metric, into: &diagnostics) else {
            diagnostics.append(.error("a judgement needs a metric or a rubric", at: header.location))
            return (nil, diagnostics)
        }
        let check = resolveMetric(Check(id: id, kind: .judge(parsed, provider: nil), location: header.location), item: header, into: &diagnostics)
        guard let rubric = check.kind.as(CheckKinds.Judge.self)?.rubric else { return (nil, diagnostics) }
        var transcript: [Judgement.Message] = []
        for item in root.value["transcript"]?.items ?? [] {
            if let text = item.located("user")?.value { transcript.append(.init(isUser: true, text: text)) }
            if let text = item.located("coach")?.value { transcript.append(.init(isUser: false, text: text)) }
        }
        if transcript.last?.isUser != false {
            diagnostics.append(.error("the transcript must end with the coach's reply", at: root.value["transcript"]?.location ?? header.location))
        }
        let names = Set(StructuredTask.criteria(of: rubric).map(\.name))
        var labels: [String: Double] = [:]
        for entry in root.value["labels"]?.entries ?? [] {
            let (key, value) = (entry.key, entry.value)
            let location = value.location
            guard names.contains(key) else {
                diagnostics.append(.error("'\(key)' is not a criterion of the rubric", at: location,
                                          hint: Suggestions.hint(for: key, in: names.sorted(), noun: "criterion")))
                continue
            }
            switch value.text?.lowercased() {
            case "pass": labels[key] = rubric.scale.range.upperBound
            case "fail": labels[key] = rubric.scale.range.lowerBound
            case let text?:
                guard let score = Double(text), rubric.scale.range.contains(score) else {
                    diagnostics.append(.error("a label is pass, fail or a score on the \(rubric.scale.rawValue) scale", at: location))
                    continue
                }
                labels[key] = score
            case nil:
                diagnostics.append(.error("a label is pass, fail or a score", at: location))
            }
        }
        for name in names.sorted() where labels[name] == nil && !diagnostics.contains(where: { $0.severity == .error }) {
            diagnostics.append(.error("no label for criterion '\(name)'", at: root.value["labels"]?.location ?? header.location))
        }
        let judgement = Judgement(id: id, app: header.located("app")?.value, metric: metric, rubric: rubric, transcript: transcript,
                                  labels: labels, file: path, location: header.location)
        return (diagnostics.contains { $0.severity == .error } ? nil : judgement, diagnostics)
    }
}
