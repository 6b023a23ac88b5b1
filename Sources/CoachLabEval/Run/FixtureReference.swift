import CoachLab
import CoachLabProviders
import Foundation

/// What the runner needs to know about a fixture before its cases run, and the parsed
/// fixture itself when the catalog kept it (``SuiteCatalog/heldFixtureLimit``); otherwise it
/// is read from its file when a case needs it, so a run's memory stays bounded however many
/// fixtures a generated suite has. A reference is one pointer, whichever it holds. Equality
/// and hashing ignore whether it holds the fixture.
public struct FixtureReference: Sendable, Hashable {
    /// What is kept of a fixture that is not held.
    private struct Summary: Sendable {
        var id, file, pack: String
        var tags: [String]
        var judgeChecks: [Check]
        var inputs: CompileInputs
        var inputLocations: [String: SourceLocation]
        var location: SourceLocation
    }

    private enum Source: Sendable {
        case held(Fixture)
        case summary(Summary)
    }

    /// The fixture, and the three facts the runner asks of every fixture before its cases
    /// run, found once: a held fixture would otherwise be copied out for each question.
    private final class Storage: Sendable {
        let source: Source
        let usesJudge, usesScript, hasSimulatedUser: Bool

        init(_ source: Source, of fixture: Fixture) {
            self.source = source
            usesJudge = fixture.turns.contains { $0.expect.contains(where: \.callsModel) }
            usesScript = fixture.turns.contains { $0.expect.contains(where: \.isScript) }
            hasSimulatedUser = fixture.simulatedUser != nil
        }
    }

    private let storage: Storage

    /// A reference to `fixture`, keeping it in memory when `holding`.
    public init(_ fixture: Fixture, holding: Bool = false) {
        storage = Storage(holding ? .held(fixture) : .summary(Summary(
            id: fixture.id, file: fixture.file, pack: fixture.pack, tags: fixture.tags, judgeChecks: Self.judgeChecks(of: fixture),
            inputs: fixture.inputs, inputLocations: fixture.inputLocations, location: fixture.location)), of: fixture)
    }

    /// The parsed fixture, when kept in memory.
    public var held: Fixture? {
        if case .held(let fixture) = storage.source { return fixture }
        return nil
    }

    private func field<T>(_ held: (Fixture) -> T, _ summary: (Summary) -> T) -> T {
        switch storage.source {
        case .held(let fixture): held(fixture)
        case .summary(let kept): summary(kept)
        }
    }

    public var id: String { field(\.id, \.id) }
    public var file: String { field(\.file, \.file) }
    public var pack: String { field(\.pack, \.pack) }
    public var tags: [String] { field(\.tags, \.tags) }
    /// The judge checks of its turns (each needs its judge provider ready before cases run).
    public var judgeChecks: [Check] { field(Self.judgeChecks(of:), \.judgeChecks) }
    /// Whether a turn's checks include `judge`.
    public var usesJudge: Bool { storage.usesJudge }
    /// Whether a turn's checks include `script`, which runs a process.
    public var usesScript: Bool { storage.usesScript }
    /// Whether a simulated user speaks after the scripted turns.
    public var hasSimulatedUser: Bool { storage.hasSimulatedUser }
    /// What the fixture asks its pack for, and where it says so: checked before any case
    /// runs, without reading the file again.
    public var inputs: CompileInputs { field(\.inputs, \.inputs) }
    public var inputLocations: [String: SourceLocation] { field(\.inputLocations, \.inputLocations) }
    public var location: SourceLocation { field(\.location, \.location) }

    private static func judgeChecks(of fixture: Fixture) -> [Check] {
        fixture.turns.flatMap { $0.expect.filter(\.callsModel) }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.storage === rhs.storage
            || (lhs.id, lhs.file, lhs.pack, lhs.tags, lhs.hasSimulatedUser, lhs.location) == (rhs.id, rhs.file, rhs.pack, rhs.tags, rhs.hasSimulatedUser, rhs.location)
            && lhs.judgeChecks == rhs.judgeChecks && lhs.usesScript == rhs.usesScript && lhs.inputs == rhs.inputs && lhs.inputLocations == rhs.inputLocations
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(file)
        hasher.combine(location)
    }
}
