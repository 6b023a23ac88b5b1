import CoachLab
import CoachLabProviders
import Foundation

/// A fixture's structured generation, run and scored, and what it produced.
struct StructuredStep {
    /// The generation as a turn (numbered 0), with its checks.
    var turn: TurnResult
    /// The compiler for the conversation that follows, when it may go on.
    var compiler: Compiler?
    /// The coach the conversation is with (a generated or imported one).
    var coach: String?
    /// The model that answered.
    var model: String?
}

extension StructuredStep {
    /// Runs a fixture's structured generation and scores it: `structured` (the reply is valid
    /// JSON within the schema and limits), `coach-lint` (a generated coach passes lint in its
    /// pack) and `round-trip` (an exported and imported coach compiles to the same bytes).
    static func run(_ generate: Fixture.Generation, fixture: Fixture, compiler: Compiler, slot: ProviderSlot,
                    fileSystem: FileSystem) async throws -> StructuredStep {
        let pack = compiler.pack
        let transcript = Transcript(fixture.turns.flatMap { turn in
            [Transcript.Message(isUser: true, text: turn.user)] + (turn.reply.map { [Transcript.Message(isUser: false, text: $0)] } ?? [])
        })
        let task: StructuredTask
        let label: String
        switch generate.kind {
        case .coach:
            task = .coach(describing: generate.describe ?? "", name: generate.name, limits: pack.defaults)
            label = "[generate coach] \(generate.describe ?? "")"
        case .insight, .quickReflection:
            task = .insight(transcript, quick: generate.kind == .quickReflection)
            label = "[generate \(generate.kind.rawValue) from \(transcript.messages.count) messages]"
        case .wrapup:
            task = .wrapup(transcript)
            label = "[generate wrapup from \(transcript.messages.count) messages]"
        case .exportImport:
            return try exportImport(fixture: fixture, compiler: compiler, fileSystem: fileSystem)
        }
        let generator = StructuredGenerator(provider: slot.provider, sendsSchema: slot.configuration.sendsResponseSchema,
                                            scriptedReply: generate.mock)
        let outcome = try await slot.run { try await generator.generate(task) }
        let last = outcome.attempts.last?.reply
        let repairs = outcome.attempts.flatMap(\.parsed.repairs)
        var checks = [CheckResult(
            check: "structured", passed: outcome.isValid,
            reason: outcome.isValid
                ? "valid \(generate.kind.rawValue) on attempt \(outcome.attempts.count)" + (repairs.isEmpty ? "" : " (repaired: \(repairs.joined(separator: ", ")))")
                : "invalid after \(outcome.attempts.count) attempts: " + outcome.problems.joined(separator: "; "),
            weight: 1)]
        var next: Compiler?
        var coachID: String?
        if generate.kind == .coach, let value = outcome.value {
            let mapping = CoachDocuments.coach(fromGenerated: value)
            coachID = mapping["id"]?.string
            do {
                let path = "\(pack.directory)/coaches/\(coachID ?? "coach").yaml"
                if let existing = pack.coach(coachID ?? "") {
                    throw CoachLabError(usage: "the pack already has a coach '\(existing.id)'")
                }
                let placed = try CoachDocuments.place(mapping, comment: "generated", at: path, into: pack)
                next = try Compiler(pack: CoachDocuments.pack(pack, with: placed.coach))
                checks.append(CheckResult(check: "coach-lint", passed: true, reason: "coach '\(coachID ?? "")' passes lint on the rich path", weight: 1))
            } catch let error as CoachLabError {
                checks.append(CheckResult(check: "coach-lint", passed: false, reason: error.description, weight: 1))
            }
        } else if outcome.isValid {
            next = compiler
        }
        let usage = outcome.usage
        let turn = TurnResult(turn: 0, user: label, reply: last?.text ?? "", checks: checks, latency: outcome.latency,
                              inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, usageEstimated: usage.estimated,
                              cost: slot.configuration.prices.map { $0.cost(usage) }, finishReason: last?.finishReason.rawValue ?? "",
                              promptHash: "")
        return StructuredStep(turn: turn, compiler: next, coach: coachID, model: last?.model)
    }

    /// Exports the fixture's coach, imports it into the pack in its place, and checks the
    /// compiled prompt is byte for byte the same.
    static func exportImport(fixture: Fixture, compiler: Compiler, fileSystem: FileSystem) throws -> StructuredStep {
        let pack = compiler.pack
        guard let id = fixture.inputs.coach, let coach = pack.coach(id) else {
            throw CoachLabError(usage: "export-import needs the fixture's coach")
        }
        let exported = CoachDocuments.export(coach, from: pack)
        var without = pack
        without.coaches.removeAll { $0.id == id }
        var checks: [CheckResult] = []
        var next: Compiler?
        do {
            let imported = try CoachDocuments.importCoach(Data(exported.utf8), file: "\(id).coach.json", into: without)
            let roundTripped = try Compiler(pack: CoachDocuments.pack(without, with: imported.coach))
            let before = compiler.compile(try ResolvedInputs(fixture.inputs, pack: pack, fileSystem: fileSystem)).system
            let after = roundTripped.compile(try ResolvedInputs(fixture.inputs, pack: roundTripped.pack, fileSystem: fileSystem)).system
            let same = Array(before.utf8) == Array(after.utf8)
            let firstDifference = zip(before.utf8, after.utf8).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(before.utf8.count, after.utf8.count)
            checks.append(CheckResult(check: "round-trip", passed: same,
                                      reason: same ? "the imported coach compiles to the same \(before.utf8.count) bytes"
                                                   : "the imported coach's prompt differs from byte \(firstDifference)", weight: 1))
            next = roundTripped
        } catch let error as CoachLabError {
            checks.append(CheckResult(check: "round-trip", passed: false, reason: "import refused the export: \(error.description)", weight: 1))
        }
        let turn = TurnResult(turn: 0, user: "[export and import coach \(id)]", reply: exported, checks: checks, latency: 0,
                              inputTokens: 0, outputTokens: 0, usageEstimated: false, cost: nil, finishReason: "", promptHash: "")
        return StructuredStep(turn: turn, compiler: next, coach: id, model: nil)
    }
}
