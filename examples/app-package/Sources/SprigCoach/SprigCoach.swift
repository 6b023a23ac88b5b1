import CoachLab
import Foundation

/// The app's coach: compiles the system prompt for each turn from the pack bundled with the app.
///
/// The pack is loaded and checked once; each turn compiles in memory, from the user's own data
/// and the message just typed, which the pack's rules screen for risk.
public struct SprigCoach: Sendable {
    /// What the app knows about its user, from its own storage, not from a file.
    public struct Member: Sendable {
        public var name: String
        public var habit: String
        public var streakDays: Int

        public init(name: String, habit: String, streakDays: Int) {
            self.name = name
            self.habit = habit
            self.streakDays = streakDays
        }
    }

    private let compiler: Compiler
    private let files: FileSystem

    /// Loads the bundled pack.
    /// - Throws: `CoachLabError` with the pack's errors, which `coachlab lint` reports the same way.
    public init() throws {
        guard let pack = Bundle.module.url(forResource: "Pack", withExtension: nil) else {
            throw CoachLabError(usage: "the app bundle has no Pack folder")
        }
        files = FileSystem.rooted(at: pack.path)
        compiler = try PackLoader(fileSystem: files).compiler(for: "sprig", warnings: false)
    }

    /// The reply length and form the pack promises, for a client that checks replies itself.
    public var contract: ReplyContract? { compiler.pack.reply }

    /// The system prompt for the turn that answers `message`.
    ///
    /// The member's fields are data: whatever they hold is quoted into the prompt, never read as
    /// template structure.
    public func systemPrompt(for member: Member, message: String) throws -> CompiledPrompt {
        var inputs = try ResolvedInputs(CompileInputs(), pack: compiler.pack, fileSystem: files)
        inputs.profile = Entity(id: "member", fields: ["name": member.name, "habit": member.habit,
                                                       "streakDays": String(member.streakDays)])
        inputs.screen = message
        return compiler.compile(inputs)
    }
}
