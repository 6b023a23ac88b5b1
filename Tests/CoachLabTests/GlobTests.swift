@testable import CoachLab
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
}
