import CoachLab
import CoachLabProviders
import Foundation

/// A suite with its fixtures, ready to run.
public struct LoadedSuite: Sendable {
    public var suite: Suite
    /// The fixtures, in order; those held in memory carry their parsed fixture.
    public private(set) var fixtures: [FixtureReference]

    /// A suite whose fixtures are held in memory (for library users and tests).
    public init(suite: Suite, fixtures: [Fixture]) {
        self.suite = suite
        self.fixtures = fixtures.map { FixtureReference($0, holding: true) }
    }

    /// A suite whose fixtures are read from their files as their cases run (for large runs),
    /// followed by fixtures held in memory (a dataset's messages).
    public init(suite: Suite, references: [FixtureReference], held: [Fixture] = []) {
        self.suite = suite
        fixtures = held.isEmpty ? references : references + held.map { FixtureReference($0, holding: true) }
    }

    /// The fixtures held in memory, in order.
    public var heldFixtures: [Fixture] { fixtures.compactMap(\.held) }
}
