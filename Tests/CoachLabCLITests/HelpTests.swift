@testable import coachlab
import ArgumentParser
import Foundation
import Testing

/// Every command's help, as a terminal of 80 columns shows it: no line is wider, so an example
/// never wraps in the middle of a command and copies and pastes as it reads.
@Suite struct HelpTests {
    /// Every command path, subcommands included: ["eval"], ["coach", "export"], …
    static let paths: [[String]] = {
        func walk(_ command: any ParsableCommand.Type, _ prefix: [String]) -> [[String]] {
            let name = command.configuration.commandName ?? ""
            let path = prefix + (name.isEmpty ? [] : [name])
            return [path] + command.configuration.subcommands.flatMap { walk($0, path) }
        }
        return CoachLabCommand.configuration.subcommands.flatMap { walk($0, []) }
    }()

    @Test func noHelpLineIsWiderThanEightyColumns() async throws {
        #expect(Self.paths.count >= 20)
        for path in Self.paths {
            let help = try await CLI.run(path + ["--help"], environment: ["COLUMNS": "80"])
            let text = help.stdout + help.stderr
            #expect(text.contains("USAGE: coachlab"), "\(path)")
            for line in text.split(separator: "\n") where line.count > 80 {
                Issue.record("coachlab \(path.joined(separator: " ")) --help: \(line.count) columns: \(line)")
            }
        }
    }

    /// A default is stated once: by the option's own "(default: …)", not again in its help.
    @Test func eachDefaultIsStatedOnce() async throws {
        for path in [["runs"], ["init"]] {
            let help = try await CLI.run(path + ["--help"])
            for line in help.stdout.split(separator: "\n") where line.contains("(default:") {
                #expect(!line.contains("Default"), "\(path): \(line)")
            }
        }
    }
}
