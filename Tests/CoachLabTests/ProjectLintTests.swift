import CoachLab
import Testing

/// Lint as a library, over a file system value: what the paths name, and every problem at
/// its file:line:col, without the binary or the disk beyond the package's own files.
struct ProjectLintTests {
    @Test func theShippedProjectIsClean() throws {
        let result = try ProjectLint(fileSystem: TestSupport.fileSystem).lint([])
        #expect(result.errors == 0 && result.warnings == 0, "\(result.diagnostics)")
        #expect(result.packs == 5)
        #expect(result.fixtures > 50 && result.suites > 10 && result.datasets > 0)
        #expect(result.summary.hasPrefix("linted 5 packs, \(result.fixtures) fixtures"))
    }

    @Test func anAuthorsMistakeInAnAddedFixtureIsFoundAtItsField() throws {
        let fileSystem = TestSupport.fileSystem.overlaying([
            "fixtures/luna/typo.yaml": "fixture:\n  id: luna-typo\n  pack: personas/luna\n  topik: sleep\nturns:\n  - user: Hi\n",
        ])
        let result = try ProjectLint(fileSystem: fileSystem).lint(["fixtures/luna"])
        let problem = try #require(result.diagnostics.first { $0.location.file == "fixtures/luna/typo.yaml" })
        #expect(problem.severity == .error)
        #expect((problem.location.line, problem.location.column) == (4, 3))
        #expect(problem.description.contains("topik"))
        #expect(result.packs == 0, "a fixtures folder names no packs")
    }

    @Test func aFolderWithoutPacksIsAUsageError() {
        let fileSystem = FileSystem.inMemory(["notes/readme.yaml": "title: notes\n"])
        #expect(throws: CoachLabError.self) { try ProjectLint(fileSystem: fileSystem).lint(["notes"]) }
        #expect(throws: CoachLabError.self) { try ProjectLint(fileSystem: fileSystem).lint(["missing"]) }
    }

    @Test func foldersAreWalkedForYAMLFilesInOrder() {
        let fileSystem = FileSystem.inMemory(["f/b.yaml": "x: 1\n", "f/a/c.yml": "x: 1\n", "f/a/skip.txt": "no\n"])
        #expect(ProjectLint(fileSystem: fileSystem).yamlFiles(in: "f") == ["f/a/c.yml", "f/b.yaml"])
        #expect(ProjectLint(fileSystem: fileSystem).topLevelKey(of: "f/b.yaml") == "x")
    }
}
