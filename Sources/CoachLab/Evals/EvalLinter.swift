/// Lint for fixtures and suites beyond their shape: a fixture's inputs must exist in its
/// pack, the rules its checks name must be the pack's, and fixture ids must be unique.
public struct EvalLinter: Sendable {
    public var fileSystem: FileSystem

    public init(fileSystem: FileSystem = .live) { self.fileSystem = fileSystem }

    /// Every problem in the given fixture and suite files.
    public func lint(fixtures: [String], suites: [String]) -> [Diagnostic] {
        let loader = EvalLoader(fileSystem: fileSystem)
        var diagnostics: [Diagnostic] = []
        var packs: [String: Pack?] = [:]
        var ids: [String: SourceLocation] = [:]
        for path in fixtures {
            let (fixture, problems) = loader.fixture(at: path)
            diagnostics += problems
            guard let fixture else { continue }
            if let first = ids[fixture.id] {
                diagnostics.append(.error("duplicate fixture id '\(fixture.id)' (first at \(first))", at: fixture.location))
            }
            ids[fixture.id] = fixture.location
            if packs[fixture.pack] == nil {
                packs[fixture.pack] = fileSystem.isDirectory(fixture.pack) ? try? PackLoader(fileSystem: fileSystem).load(fixture.pack).get() : nil
            }
            guard let pack = packs[fixture.pack] ?? nil else { continue }
            do { _ = try ResolvedInputs(fixture.inputs, pack: pack, fileSystem: fileSystem) } catch let error as CoachLabError {
                diagnostics.append(.error(error.message ?? error.description, at: Self.location(of: error, in: fixture), hint: error.hint))
            } catch {}
            for turn in fixture.turns {
                for check in turn.expect {
                    if case .flagged(let rule?) = check.kind, pack.rule(rule) == nil {
                        diagnostics.append(.error("rule '\(rule)' does not exist in pack '\(pack.id)'", at: check.location ?? turn.location,
                                                  hint: Suggestions.hint(for: rule, in: pack.rules.map(\.id), noun: "rule")))
                    }
                }
            }
            if fixture.turns.isEmpty {
                diagnostics.append(.error("a fixture needs at least one turn", at: fixture.location))
            }
        }
        for path in suites {
            diagnostics += loader.suite(at: path).1
        }
        return Array(Set(diagnostics)).sorted()
    }

    /// Where an input error belongs: at the input whose quoted value the message names, else
    /// at the fixture mapping.
    static func location(of error: CoachLabError, in fixture: Fixture) -> SourceLocation {
        let message = error.message ?? error.description
        let inputs = fixture.inputs
        let values: [(String, String?)] = [("intent", inputs.intent), ("topic", inputs.topic), ("coach", inputs.coach),
                                           ("profile", inputs.profile), ("memory", inputs.memory), ("context", inputs.context)]
        for (field, value) in values {
            if let value, message.contains("'\(value)'"), let location = fixture.inputLocations[field] { return location }
        }
        return fixture.location
    }
}
