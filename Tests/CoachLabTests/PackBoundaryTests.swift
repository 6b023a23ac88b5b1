import CoachLab
import Foundation
import Testing
import CoachLabTestSupport

/// A pack is self-contained, and one broken file gives one error.
@Suite struct PackBoundaryTests {
    static func scratch() throws -> String {
        let directory = Scratch.path("pack")
        try FileManager.default.createDirectory(atPath: directory + "/app", withIntermediateDirectories: true)
        try "pack: {id: app, name: App}\ninclude: [persona.yaml]\nstack:\n  layers: [{id: a, template: \"You are {{persona.name}}.\"}]\n"
            .write(toFile: directory + "/app/pack.yaml", atomically: true, encoding: .utf8)
        return directory
    }

    @Test func aSymbolicLinkOutOfThePackIsRefused() throws {
        let directory = try Self.scratch()
        try "persona: {name: Secret}\n".write(toFile: directory + "/outside.yaml", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: directory + "/app/persona.yaml", withDestinationPath: directory + "/outside.yaml")
        let result = PackLoader(fileSystem: .live).load(directory + "/app")
        // It used to be read and compiled in, while `include: ../outside.yaml` was refused.
        #expect(result.diagnostics.contains { $0.severity == .error && $0.message.contains("symbolic link") && $0.message.contains("outside the pack") })
    }

    @Test func aSymbolicLinkWithinThePackIsFine() throws {
        let directory = try Self.scratch()
        try FileManager.default.createDirectory(atPath: directory + "/app/shared", withIntermediateDirectories: true)
        try "persona: {name: Sam}\n".write(toFile: directory + "/app/shared/persona.yaml", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: directory + "/app/persona.yaml", withDestinationPath: directory + "/app/shared/persona.yaml")
        let result = PackLoader(fileSystem: .live).load(directory + "/app")
        #expect(!result.hasErrors, "\(result.diagnostics)")
    }

    @Test func aDirectoryWhereAFileShouldBeIsCalledADirectory() throws {
        let directory = try Self.scratch()
        try FileManager.default.createDirectory(atPath: directory + "/app/persona.yaml", withIntermediateDirectories: true)
        let result = PackLoader(fileSystem: .live).load(directory + "/app")
        #expect(result.diagnostics.contains { $0.message.contains("is a directory, not a file") })
        #expect(!result.diagnostics.contains { $0.message.contains("does not exist") })
    }

    @Test func aDuplicateKeyInProfilesGivesOneErrorNotACascade() throws {
        let ticbuddy = try TestSupport.fileSystem.read("personas/ticbuddy/profiles.yaml")
        let broken = String(decoding: ticbuddy, as: UTF8.self).replacingOccurrences(of: "    age: 9\n", with: "    age: 9\n    age: 10\n")
        let result = PackLoader(fileSystem: TestSupport.fileSystem.overlaying(["personas/ticbuddy/profiles.yaml": broken]))
            .load("personas/ticbuddy")
        // Before, five "profile 'alex' does not exist" errors came first.
        #expect(result.diagnostics.filter { $0.severity == .error }.map(\.message) == ["duplicate key 'age' in mapping (first defined at line 7)"])
    }
}
