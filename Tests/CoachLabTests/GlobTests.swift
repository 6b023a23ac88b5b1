@testable import CoachLab
import CoachLabTestSupport
import Foundation
import Testing

/// Globs list what the shell would: files only, hidden names left out, paths in their normal
/// form whichever way the pattern was written.
@Suite struct GlobTests {
    static let fileSystem = FileSystem.inMemory([
        "top.yaml": "a: 1", "a/x.yaml": "a: 1", "a/y.yml": "a: 1", "a/.hidden.yaml": "a: 1",
        "a/dir.yaml/inner.yaml": "a: 1", "a/sub/z.yaml": "a: 1", "b/c/d.yaml": "a: 1",
    ])

    @Test(arguments: [
        ("*.yaml", ["top.yaml"]),
        ("a/*.yaml", ["a/x.yaml"]),
        ("./a/*.yaml", ["a/x.yaml"]),
        ("a/../a/*.y?l", ["a/y.yml"]),
        ("a/**/*.yaml", ["a/x.yaml", "a/dir.yaml/inner.yaml", "a/sub/z.yaml"]),
        ("*/c/*.yaml", ["b/c/d.yaml"]),
        ("a/*/*.yaml", ["a/dir.yaml/inner.yaml", "a/sub/z.yaml"]),
        ("a/x.yaml", ["a/x.yaml"]),
        ("a/missing.yaml", []),
        ("a/sub", []),
    ])
    func expandsToTheFilesTheShellWouldList(_ pattern: String, _ expected: [String]) {
        #expect(Glob.expand(pattern, fileSystem: Self.fileSystem) == expected)
    }

    /// A suite's check that a pattern matches something stops at the first file it accepts.
    @Test func aLimitedWalkStopsAtTheFirstFilesItAccepts() {
        #expect(Glob.expand("a/**/*.yaml", fileSystem: Self.fileSystem, limit: 1) == ["a/x.yaml"])
        #expect(Glob.expand("a/*", fileSystem: Self.fileSystem, limit: 1) { $0.hasSuffix(".yml") } == ["a/y.yml"])
        #expect(Glob.expand("a/**/*.yaml", fileSystem: Self.fileSystem, limit: 2).count == 2)
        #expect(Glob.expand("a/*.json", fileSystem: Self.fileSystem, limit: 1).isEmpty)
    }

    /// Whether a pattern matches anything is answered without the sorted list, the same way.
    @Test func matchesAnyAgreesWithTheExpansion() {
        for pattern in ["*.yaml", "a/*.yaml", "a/**/*.yaml", "*/c/*.yaml", "a/*.json", "a/sub", "missing/*.yaml", "a/x.yaml"] {
            #expect(Glob.matchesAny(pattern, fileSystem: Self.fileSystem) == !Glob.expand(pattern, fileSystem: Self.fileSystem).isEmpty,
                    "\(pattern)")
        }
        #expect(!Glob.matchesAny("a/*", fileSystem: Self.fileSystem) { $0.hasSuffix(".json") })
    }

    /// Names of printable ASCII are matched by bytes, all others by characters: both give
    /// the shell's answer, and a character of several bytes or scalars is one `?`.
    @Test(arguments: [
        ("x.yaml", "*.yaml", true), ("x.yml", "*.yaml", false), ("ab.yaml", "a?.yaml", true), ("a.yaml", "a?.yaml", false),
        ("b1", "[abc]?", true), ("d1", "[abc]?", false), ("", "*", true), ("a*b", "a[*]b", true),
        ("é.yaml", "?.yaml", true), ("e\u{301}.yaml", "?.yaml", true), ("e\u{301}.yaml", "e.yaml", false),
        ("日記.yaml", "*.yaml", true), ("日記.yaml", "??.yaml", true), ("tab\there", "tab?here", true),
        ("\u{0600}.yaml", "*.yaml", false), ("\u{0600}.yaml", "?yaml", true),
    ])
    func componentsMatchByCharacters(_ name: String, _ pattern: String, _ expected: Bool) {
        #expect(Paths.matches(name, pattern: pattern) == expected)
    }

    /// Loading a suite of many fixtures of one pack asks whether the pack's folder exists once,
    /// not once a fixture, and still reports a fixture whose pack is missing.
    @Test func aSuitesFixturesAskAboutTheirPackFolderOnce() throws {
        var files: [String: String] = ["personas/app/pack.yaml": "pack: {id: app}"]
        for index in 0..<50 {
            files["fixtures/f\(index).yaml"] = "fixture: {id: f\(index), pack: personas/app}\nturns:\n  - user: hi\n"
        }
        files["fixtures/lost.yaml"] = "fixture: {id: lost, pack: personas/gone}\nturns:\n  - user: hi\n"
        let memory = FileSystem.inMemory(files)
        let asked = Counter()
        var counting = memory
        counting.isDirectory = { path in
            if path.hasPrefix("personas/") { asked.add(path) }
            return memory.isDirectory(path)
        }
        let loader = EvalLoader(fileSystem: counting)
        let loaded = loader.fixtureFiles(matching: "fixtures/*.yaml").map(loader.fixture(at:))
        #expect(loaded.count == 51)
        #expect(asked.counts == ["personas/app": 1, "personas/gone": 1])
        let problems = loaded.flatMap(\.1).map(\.message)
        #expect(problems == ["pack 'personas/gone' does not exist"])
    }

    /// A real folder's listing tells each name's kind as `isDirectory` would, links and
    /// broken links included.
    @Test func aRealListingTellsFoldersFromFilesAsIsDirectoryDoes() throws {
        let folder = try Scratch.folder("entries")
        let manager = FileManager.default
        try manager.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        try Data("a: 1".utf8).write(to: URL(fileURLWithPath: folder + "/file.yaml"))
        try Data("a: 1".utf8).write(to: URL(fileURLWithPath: folder + "/.hidden.yaml"))
        try manager.createSymbolicLink(atPath: folder + "/to-sub", withDestinationPath: folder + "/sub")
        try manager.createSymbolicLink(atPath: folder + "/to-file.yaml", withDestinationPath: folder + "/file.yaml")
        try manager.createSymbolicLink(atPath: folder + "/broken.yaml", withDestinationPath: folder + "/nowhere")
        let live = FileSystem.live
        let entries = try live.entries(folder).sorted { $0.name < $1.name }
        let expected = try live.list(folder).sorted().map { FileSystem.Entry(name: $0, isDirectory: live.isDirectory(folder + "/" + $0)) }
        #expect(entries == expected)
        #expect(entries.filter(\.isDirectory).map(\.name) == ["sub", "to-sub"])
        #expect(throws: (any Error).self) { try live.entries(folder + "/missing") }
        #expect(throws: (any Error).self) { try live.entries(folder + "/file.yaml") }
    }

    /// A glob over a real folder learns which names are files from the listing: 10,000
    /// fixtures cost no look-up each.
    @Test func aGlobOverARealFolderAsksNothingOfEachFile() throws {
        let folder = try Scratch.folder("glob")
        for index in 0..<20 { try Data("a: 1".utf8).write(to: URL(fileURLWithPath: folder + "/f\(index).yaml")) }
        try FileManager.default.createDirectory(atPath: folder + "/dir.yaml", withIntermediateDirectories: true)
        let asked = Counter()
        var counting = FileSystem.live
        counting.isDirectory = { path in
            asked.add(path)
            return FileSystem.live.isDirectory(path)
        }
        counting.exists = { path in
            asked.add(path)
            return FileSystem.live.exists(path)
        }
        let found = Glob.expand(folder + "/*.yaml", fileSystem: counting)
        #expect(found.count == 20)
        #expect(!found.contains(folder + "/dir.yaml"))
        #expect(asked.counts.keys.filter { $0.hasPrefix(folder + "/") }.isEmpty, "\(asked.counts)")
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var asked: [String: Int] = [:]
    func add(_ path: String) { lock.withLock { asked[path, default: 0] += 1 } }
    var counts: [String: Int] { lock.withLock { asked } }
}
