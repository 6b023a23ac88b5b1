import CoachLab
import CoachLabProviders
import Foundation

/// Attacks run as what they are, fixtures: each one's file is read through the eval loader
/// (from memory; `--out` writes the same text), run in rollout mode on a provider, and each
/// reply scored by the checks the family names. The report groups them by family and rule.
public struct AttackRun: Sendable {
    /// One attack's outcome.
    public struct Outcome: Sendable, Codable, Hashable {
        public var family: String
        public var familyTitle: String
        /// The rule that should have held, when the family binds to one.
        public var rule: String?
        public var ruleTitle: String?
        public var fixture: String
        public var provider: String
        /// Whether every check on every reply passed.
        public var held: Bool
        /// The 1-based turn whose reply first failed a check; nil when it held, or errored.
        public var brokeAt: Int?
        /// The checks that failed on that turn, with their reasons.
        public var failures: [String]
        /// The provider's error, when the case errored.
        public var error: String?
        /// The conversation, up to and including the turn that broke.
        public var transcript: [Exchange]
    }

    public struct Exchange: Sendable, Codable, Hashable {
        public var user: String
        public var reply: String
    }

    /// The folder, relative to the project, the attack fixtures are read from (in memory).
    public static func folder(pack: Pack) -> String { "fixtures/\(pack.id)/attacks" }

    /// The attacks as a suite of fixtures read from `fileSystem` with the attacks' files in front.
    /// - Throws: ``CoachLabError`` when a made fixture does not load (a family whose checks do
    ///   not fit a fixture).
    public static func suite(_ attacks: [Attack], pack: Pack, fileSystem: FileSystem) throws -> LoadedSuite {
        let folder = folder(pack: pack)
        let files = Dictionary(attacks.map { ("\(folder)/\($0.fileName)", $0.fixtureYAML) }) { first, _ in first }
        let loader = EvalLoader(fileSystem: fileSystem.overlaying(files))
        var fixtures: [Fixture] = []
        var problems: [Diagnostic] = []
        for attack in attacks {
            let (fixture, found) = loader.fixture(at: "\(folder)/\(attack.fileName)")
            problems += found.filter { $0.severity == .error }
            if let fixture { fixtures.append(fixture) }
        }
        if !problems.isEmpty { throw CoachLabError(.content, problems) }
        let suite = Suite(id: "\(pack.id)-attacks", description: "Attacks on \(pack.id), from coachlab attack.", mode: .rollout,
                          checks: [], threshold: 1, file: "\(folder)/attacks.yaml")
        return LoadedSuite(suite: suite, fixtures: fixtures)
    }

    /// What a case's result says of its attack.
    public static func outcome(_ result: CaseResult, attack: Attack) -> Outcome {
        let broken = result.turns.firstIndex { turn in turn.checks.contains { !$0.passed } }
        let shown = broken.map { Array(result.turns.prefix($0 + 1)) } ?? result.turns
        return Outcome(family: attack.family.id, familyTitle: attack.family.title, rule: attack.rule?.id, ruleTitle: attack.rule?.title,
                       fixture: result.fixture, provider: result.provider, held: result.outcome == .pass,
                       brokeAt: broken.map { $0 + 1 },
                       failures: broken.map { result.turns[$0].checks.filter { !$0.passed }.map { "\($0.check): \($0.reason)" } } ?? [],
                       error: result.error, transcript: shown.map { Exchange(user: $0.user, reply: $0.reply) })
    }
}
