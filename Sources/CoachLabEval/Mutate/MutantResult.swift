import CoachLab

/// What became of one mutant.
public struct MutantResult: Sendable, Codable {
    /// Killed by a suite, caught by lint, survived, equivalent (it changed no compiled prompt
    /// the suites use, and no screening decision), or unread: it survived on an instruction
    /// line the mock cannot read (``ReadingCoverage``), where no check could have caught it.
    public enum Verdict: String, Sendable, Codable {
        case killed, lint, survived, equivalent, unread
    }

    public var id: String
    public var pack: String
    public var `operator`: Mutant.Operator
    /// `file:line` of the change in the original pack.
    public var location: String
    public var description: String
    public var before: String
    public var after: String
    public var verdict: Verdict
    /// The case and check that failed (killed), or the lint error (lint).
    public var caughtBy: String?
    /// For a survivor: the fixture or check that would catch it.
    public var hint: String?
}
