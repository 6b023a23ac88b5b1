import CoachLab
import CoachLabTestSupport
import Foundation
import Testing

/// The write side of `FileSystem`: the same promises in memory and on disk (whole files or
/// nothing, `createNew` never replaces, removal only of files), and the outputs a command
/// replaces only when they are of its own kind.
@Suite struct FileSystemWritingTests {
    struct Refused: Error {}

    /// A scratch folder on disk, as a file system rooted there.
    static func disk() throws -> (FileSystem, String) {
        let folder = try Scratch.folder("writes")
        return (.rooted(at: folder), folder)
    }

    static func text(_ fileSystem: FileSystem, _ path: String) throws -> String {
        String(decoding: try fileSystem.read(path), as: UTF8.self)
    }

    static func both() throws -> [FileSystem] {
        [.inMemory(["notes/mine.txt": "mine\n"]), try {
            let (disk, folder) = try disk()
            try FileManager.default.createDirectory(atPath: folder + "/notes", withIntermediateDirectories: true)
            try "mine\n".write(toFile: folder + "/notes/mine.txt", atomically: false, encoding: .utf8)
            return disk
        }()]
    }

    /// Where a path that leaves the file system (a database, a process) is on the disk: under
    /// a rooted one's folder, through an overlay on it too; as given for the others.
    @Test func aPathOnDiskIsUnderTheRootedFolder() throws {
        let (disk, folder) = try Self.disk()
        #expect(disk.directory == folder)
        #expect(disk.onDisk("runs/s.sqlite") == folder + "/runs/s.sqlite")
        #expect(disk.onDisk("/var/s.sqlite") == "/var/s.sqlite")
        #expect(disk.overlaying(["a.txt": "a"]).onDisk("s.sqlite") == folder + "/s.sqlite")
        #expect(FileSystem.live.directory == nil && FileSystem.live.onDisk("s.sqlite") == "s.sqlite")
        #expect(FileSystem.inMemory([:]).onDisk("s.sqlite") == "s.sqlite")
    }

    /// A folder or a missing path read as a file says which, the same on disk and in memory:
    /// Foundation on Linux calls a folder "error 256".
    @Test func readingAFolderOrNothingSaysWhich() throws {
        for fileSystem in try Self.both() {
            #expect(throws: FileSystem.ReadFailure.folder) { try fileSystem.read("notes") }
            #expect(throws: FileSystem.ReadFailure.noSuchFile) { try fileSystem.read("notes/gone.txt") }
            #expect(try Self.text(fileSystem, "notes/mine.txt") == "mine\n")
        }
        #expect(FileSystem.ReadFailure.folder.localizedDescription == "it is a folder, not a file")
        #expect(FileSystem.ReadFailure.noSuchFile.localizedDescription == "no such file")
    }

    @Test func writesReplaceWholeFilesAndMakeTheirFolders() throws {
        for fileSystem in try Self.both() {
            try fileSystem.write("one\n", to: "out/deep/report.txt")
            #expect(try Self.text(fileSystem, "out/deep/report.txt") == "one\n")
            #expect(fileSystem.isDirectory("out/deep") && fileSystem.exists("out/deep/report.txt"))
            try fileSystem.write("two\n", to: "out/deep/report.txt")
            #expect(try Self.text(fileSystem, "out/deep/report.txt") == "two\n")
            #expect(try fileSystem.list("out/deep") == ["report.txt"], "no temporary file is left beside it")
        }
    }

    @Test func aReplacedFileKeepsItsPermissions() throws {
        let (disk, folder) = try Self.disk()
        try disk.write("private\n", to: "memory.yaml")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: folder + "/memory.yaml")
        try disk.write("still private\n", to: "memory.yaml")
        let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/memory.yaml")
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try Self.text(disk, "memory.yaml") == "still private\n")
    }

    @Test func createNewNeverReplacesAFile() throws {
        for fileSystem in try Self.both() {
            #expect(throws: CoachLabError.self) { try fileSystem.write("theirs\n", to: "notes/mine.txt", mode: .createNew) }
            #expect(try Self.text(fileSystem, "notes/mine.txt") == "mine\n")
            try fileSystem.write("new\n", to: "notes/new.txt", mode: .createNew)
            #expect(try Self.text(fileSystem, "notes/new.txt") == "new\n")
            #expect(try fileSystem.list("notes") == ["mine.txt", "new.txt"])
        }
    }

    /// The file appears while the body runs, after the first check: still never replaced.
    @Test func createNewNeverReplacesAFileThatAppearsDuringTheWrite() throws {
        for fileSystem in try Self.both() {
            do {
                try fileSystem.write("late.txt", .createNew) { emit in
                    try fileSystem.write("someone else's\n", to: "late.txt")
                    try emit(Data("ours\n".utf8))
                }
                Issue.record("the write replaced a file that appeared during it")
            } catch let error as CoachLabError {
                #expect(error.description.contains("late.txt:1:1: error: ") && error.description.contains("late.txt exists, and is never overwritten"), "\(error)")
            }
            #expect(try Self.text(fileSystem, "late.txt") == "someone else's\n")
        }
    }

    @Test func aFailingBodyLeavesTheOldFileAndNoPartOfTheNewOne() throws {
        for fileSystem in try Self.both() {
            #expect(throws: Refused.self) {
                try fileSystem.stream(to: "notes/mine.txt") { write in
                    try write(String(repeating: "x", count: 200_000))
                    throw Refused()
                }
            }
            #expect(try Self.text(fileSystem, "notes/mine.txt") == "mine\n")
            #expect(try fileSystem.list("notes") == ["mine.txt"])
        }
    }

    @Test func streamedPiecesArriveWholeAndInOrder() throws {
        let pieces = (0..<5_000).map { "line \($0) " + String(repeating: "·", count: $0 % 40) + "\n" }
        for fileSystem in try Self.both() {
            try fileSystem.stream(to: "big.txt") { write in for piece in pieces { try write(piece) } }
            #expect(try Self.text(fileSystem, "big.txt") == pieces.joined())
        }
    }

    @Test func removalTakesFilesAndEmptyFoldersOnly() throws {
        for fileSystem in try Self.both() {
            #expect(throws: CoachLabError.self) { try fileSystem.remove("notes") }
            #expect(throws: CoachLabError.self) { try fileSystem.remove("notes/absent.txt") }
            try fileSystem.remove("notes/mine.txt")
            #expect(!fileSystem.exists("notes/mine.txt") && fileSystem.isDirectory("notes"))
            try fileSystem.remove("notes")
            #expect(!fileSystem.exists("notes"))
        }
    }

    @Test func aFileCannotBeWrittenWhereAFolderIsOrUnderAFile() throws {
        for fileSystem in try Self.both() {
            #expect(throws: CoachLabError.self) { try fileSystem.write("x", to: "notes") }
            #expect(throws: CoachLabError.self) { try fileSystem.write("x", to: "notes/mine.txt/inside.txt") }
            #expect(try Self.text(fileSystem, "notes/mine.txt") == "mine\n")
        }
    }

    /// On disk the reason is the system's: Foundation said only "The operation could not be
    /// completed. (NSCocoaErrorDomain error 512.)".
    @Test func aFolderThatCannotBeMadeSaysWhy() throws {
        let (disk, _) = try Self.disk()
        try disk.write("mine\n", to: "notes/mine.txt")
        let error = try #require(throws: CoachLabError.self) { try disk.write("x", to: "notes/mine.txt/deeper/inside.txt") }
        #expect(error.description.contains("notes/mine.txt/deeper: Not a directory"), "\(error)")
        #expect(!error.description.contains("NSCocoaErrorDomain"), "\(error)")
        #expect(DiskWrites.makeFolders(NSTemporaryDirectory()) == nil)
    }

    @Test func aFileSystemBuiltForReadingRefusesWrites() {
        let readOnly = FileSystem(read: { _ in Data() }, list: { _ in [] }, isDirectory: { _ in false }, exists: { _ in true })
        #expect(throws: CoachLabError.self) { try readOnly.write("x", to: "a.txt") }
        #expect(throws: CoachLabError.self) { try readOnly.remove("a.txt") }
    }

    @Test func writesThroughAnOverlayReachTheFileSystemBeneath() throws {
        let base = FileSystem.inMemory(["a.txt": "a"])
        let overlay = base.overlaying(["b.txt": "b"])
        try overlay.write("c", to: "c.txt")
        #expect(try Self.text(base, "c.txt") == "c")
        #expect(!base.exists("b.txt"))
    }

    // MARK: - Outputs replaced only when they are of the command's kind

    static let fixture = """
        # Hand-written: the night fixture with its checks.
        fixture:
          id: night
          pack: personas/luna
        turns:
          - user: I can't sleep.
        """

    @Test func aRecordingReplacesOnlyAnEarlierRecording() throws {
        let fileSystem = FileSystem.inMemory(["fixtures/luna/night.yaml": Self.fixture])
        let recording = FixtureRecording(id: "night", pack: "personas/luna", inputs: CompileInputs(), turns: [.init(user: "Hi", reply: "Hello.")])
        #expect(throws: CoachLabError.self) { try fileSystem.write(recording.yaml, to: "fixtures/luna/night.yaml", replacing: .recording) }
        #expect(try Self.text(fileSystem, "fixtures/luna/night.yaml") == Self.fixture)

        try fileSystem.write(recording.yaml, to: "fixtures/luna/recorded.yaml", replacing: .recording)
        let again = FixtureRecording(id: "recorded", pack: "personas/luna", inputs: CompileInputs(), turns: [.init(user: "Hi", reply: "Hey.")])
        try fileSystem.write(again.yaml, to: "fixtures/luna/recorded.yaml", replacing: .recording)
        #expect(try Self.text(fileSystem, "fixtures/luna/recorded.yaml") == again.yaml)
    }

    @Test func theRefusalNamesThePathAndTheKind() throws {
        let fileSystem = FileSystem.inMemory(["calm.json": "{\"name\": \"my notes\"}"])
        do {
            try fileSystem.checkReplaceable("calm.json", by: .coachExport)
            Issue.record("a file that is no portable coach was about to be replaced")
        } catch let error as CoachLabError {
            #expect(error.kind == .usage)
            #expect(error.description.hasPrefix("calm.json:1:1: error: calm.json exists and is not a portable coach file; it is never overwritten"))
        }
        #expect(throws: CoachLabError.self) { try FileSystem.inMemory(["out/x": ""]).checkReplaceable("out", by: .coachExport) }
        try fileSystem.checkReplaceable("free.json", by: .coachExport)
        // An empty file holds no one's work: CI's step summary starts as one.
        try FileSystem.inMemory(["summary.md": "", "blank.md": "\n"]).write("## CoachLab\n", to: "summary.md", replacing: .coachExport)
        try FileSystem.inMemory(["blank.md": " \n"]).checkReplaceable("blank.md", by: .coachExport)
    }

    /// Each kind recognises what its own writer writes, and not the others'.
    @Test func eachKindRecognisesItsOwnWritersOutput() throws {
        let kindred = try TestSupport.pack("kindred")
        let coach = try #require(kindred.coach("calm-mind"))
        let export = CoachDocuments.export(coach, from: kindred)
        let generated = try CoachDocuments.packFile(coach: ["id": "new-coach", "name": "New"],
                                                    comment: "\(CoachDocuments.generatedMark.dropFirst(2)) from the description:\n\"calm\"")
        let recording = FixtureRecording(id: "x", pack: "personas/luna", inputs: CompileInputs(), turns: []).yaml
        let outputs: [(OutputKind, String)] = [(.coachExport, export), (.generatedCoach, generated), (.recording, recording)]
        for (kind, text) in outputs {
            for (other, _) in outputs {
                #expect(other.recognises(text) == (other.name == kind.name), "\(other.name) on \(kind.name)'s file")
            }
            #expect(!kind.recognises(Self.fixture) && !kind.recognises(""))
        }
    }
}
