/// Builds the compile context, the root object templates and conditions read:
/// `pack`, `persona`, `reply`, `rules`, `topic`, `intent`, `knowledge`, `profile`, `context`,
/// `memory`, `coach`, `risk` and `now`. Values are the pack's YAML, so they keep their sources.
enum ContextBuilder {
    /// The parts of the context the compiler computes, with their shapes, for lint.
    static func shape(for pack: Pack) -> ContextShape {
        let nowShape = ContextShape.object(Dictionary(uniqueKeysWithValues: nowFields.map { ($0, ContextShape.leaf) }), open: false)
        let riskShape = ContextShape.object([
            "trigger": .leaf, "stage": .leaf, "matched": .leaf, "excerpt": .leaf, "kind": .leaf,
            "rule": ContextShape(ContentSpecs.rule), "alert": ContextShape(ContentSpecs.alert),
        ], open: false)
        let memoryShape = ContextShape.object([
            "insights": .numberedList(of: ContextShape(ContentSpecs.insight)), "count": .leaf, "clearedAt": .leaf,
        ], open: false)
        let coachShape = ContextShape(ContentSpecs.coach).adding(["path": .leaf, "isRich": .leaf, "isFallback": .leaf])
        return .object([
            "pack": ContextShape(ContentSpecs.packInfo),
            "persona": ContextShape(ContentSpecs.persona),
            "reply": ContextShape(ContentSpecs.reply).adding([
                "phrases": .object(["sentences": .leaf, "words": .leaf, "questions": .leaf, "forbidden": .leaf], open: false),
                "forbids": .object(Dictionary(uniqueKeysWithValues: ReplyContract.Form.allCases.map { ($0.rawValue, ContextShape.leaf) }), open: false),
            ]),
            "rules": .numberedList(of: ContextShape(ContentSpecs.rule)),
            "topic": ContextShape(ContentSpecs.topic),
            "intent": ContextShape(ContentSpecs.intent),
            "knowledge": .numberedList(of: ContextShape(ContentSpecs.knowledge)),
            "profile": ContextShape.union(of: pack.profiles.map(\.value), spec: ContentSpecs.profile),
            "context": ContextShape.union(of: pack.contexts.map(\.value), spec: ContentSpecs.context),
            "memory": memoryShape,
            "coach": coachShape,
            "risk": riskShape,
            "now": nowShape,
        ], open: false)
    }

    /// The shapes of the pack's free-form data, computed once per compiler.
    struct DataShapes: Sendable {
        var profile: ContextShape
        var context: ContextShape

        init(pack: Pack) {
            profile = ContextShape.union(of: pack.profiles.map(\.value), spec: ContentSpecs.profile)
            context = ContextShape.union(of: pack.contexts.map(\.value), spec: ContentSpecs.context)
        }
    }

    static let nowFields = ["iso", "date", "time", "hour", "minute", "weekday", "partOfDay",
                            "isNight", "isLateNight", "isMorning", "isAfternoon", "isEvening"]

    /// The context for one compile, and the user values neutralised on the way in (see
    /// ``UserText``): profiles, contexts, coaches and memory are data, never prompt structure.
    static func build(pack: Pack, inputs: ResolvedInputs, screening: ScreeningResult?,
                      titles: Set<String>, shapes: DataShapes) -> (ContextValue, [UserText.Neutralisation]) {
        var log: [UserText.Neutralisation] = []
        func data(_ value: ContextValue) -> ContextValue { UserText.neutralising(value, titles: titles, log: &log) }
        var root: [String: ContextValue] = [:]
        root["pack"] = ContextValue(pack.info)
        root["persona"] = pack.persona.map(ContextValue.init)
        root["reply"] = pack.reply.map(ContextValue.init(contract:))
        root["rules"] = .numbered(pack.rulesByPriority.map { ContextValue($0.value) })
        if let topic = inputs.topic {
            root["topic"] = ContextValue(topic.value)
            let intentId = inputs.intent?.id
            let knowledge = topic.knowledge.filter { object in
                guard let intentId, !object.intents.isEmpty else { return true }
                return object.intents.contains { $0.value == intentId }
            }
            root["knowledge"] = .numbered(knowledge.map { ContextValue($0.value) })
        }
        root["intent"] = inputs.intent.map { ContextValue($0.value) }
        root["profile"] = inputs.profile.map { shapes.profile.filling(data(ContextValue($0.value))) }
        root["context"] = inputs.context.map { shapes.context.filling(data(ContextValue($0.value))) }
        if let coach = inputs.coach {
            let rich = coach.template != nil
            root["coach"] = data(ContextValue(coach.value))
                .setting("path", .plain(rich ? "rich" : "fallback"))
                .setting("isRich", .bool(rich, []))
                .setting("isFallback", .bool(!rich, []))
        }
        if let memory = inputs.memory {
            let insights = selectInsights(memory, coach: inputs.coach, limit: pack.defaults.memoryLimit)
            if !insights.isEmpty {
                root["memory"] = .object([
                    "insights": .numbered(insights.map { data(ContextValue($0.value)) }),
                    "count": .plain(String(insights.count)),
                    "clearedAt": .plain(memory.clearedAt?.description ?? ""),
                ])
            }
        }
        if let flag = screening?.decision, let rule = pack.rule(flag.ruleId) {
            root["risk"] = .object([
                "trigger": .plain(flag.stage == 1 ? "rule_based" : "ai_classifier"),
                "stage": .plain(String(flag.stage)),
                "kind": .plain(flag.kind.rawValue),
                "matched": .plain(flag.matched),
                "excerpt": .plain(flag.excerpt),
                "rule": ContextValue(rule.value),
                "alert": rule.guardrail?.alert.map(ContextValue.init) ?? .object([:]),
            ])
        }
        if let now = inputs.now { root["now"] = nowValue(now) }
        return (.object(root), log)
    }

    /// The newest `limit` insights made after memory was last cleared (by the user or on
    /// the coach), belonging to the coach or to no coach, oldest first.
    static func selectInsights(_ memory: Memory, coach: Coach?, limit: Int) -> [Memory.Insight] {
        let cutoff = [memory.clearedAt, coach?.memoryClearedAt].compactMap { $0 }.max()
        let eligible = memory.insights.enumerated().filter { _, insight in
            if let cutoff, insight.createdAt <= cutoff { return false }
            if let owner = insight.coach?.value, let coach, owner != coach.id { return false }
            return true
        }
        let sorted = eligible.sorted { a, b in
            a.element.createdAt != b.element.createdAt ? a.element.createdAt < b.element.createdAt : a.offset < b.offset
        }
        return sorted.suffix(max(0, limit)).map(\.element)
    }

    /// The local time as the context sees it. Night is 22:00-04:59; late night 00:00-03:59.
    static func nowValue(_ now: LocalDateTime) -> ContextValue {
        let hour = now.hour
        let part: String
        switch hour {
        case 5..<12: part = "morning"
        case 12..<17: part = "afternoon"
        case 17..<22: part = "evening"
        default: part = "night"
        }
        return .object([
            "iso": .plain(now.description),
            "date": .plain(now.dateString),
            "time": .plain(now.timeString),
            "hour": .plain(String(hour)),
            "minute": .plain(String(now.minute)),
            "weekday": .plain(now.weekdayName),
            "partOfDay": .plain(part),
            "isNight": .bool(part == "night", []),
            "isLateNight": .bool(hour < 4, []),
            "isMorning": .bool(part == "morning", []),
            "isAfternoon": .bool(part == "afternoon", []),
            "isEvening": .bool(part == "evening", []),
        ])
    }
}
