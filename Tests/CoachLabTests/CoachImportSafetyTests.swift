import CoachLab
import Foundation
import Testing
import CoachLabTestSupport

/// `coach import` must never lose a file: ids cannot collide or escape, hand-written coaches
/// are never replaced, and a refused import leaves the pack byte for byte as it was.
@Suite struct CoachImportSafetyTests {
    /// A scratch copy of the Kindred pack.
    static func kindredCopy() throws -> String {
        let directory = try Scratch.folder("import")
        try FileManager.default.copyItem(atPath: TestSupport.root + "/personas/kindred", toPath: directory + "/kindred")
        return directory + "/kindred"
    }

    /// Every file under `directory`, path → bytes.
    static func snapshot(_ directory: String) -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory)
        while let path = enumerator?.nextObject() as? String {
            if let data = FileManager.default.contents(atPath: directory + "/" + path) { files[path] = data }
        }
        return files
    }

    static let calm = #"{"id": "calm-copy", "name": "Calm Copy", "systemPrompt": "Be calm and kind."}"#

    static func load(_ pack: String) throws -> Pack { try PackLoader(fileSystem: .live).load(pack).get() }

    @Test(arguments: ["calm mind", "A-B", "a/b", "a b", "../../x", "line\nbreak", "..", "", "-x", "a--b", "é"])
    func idsThatWouldCollideOrEscapeAreRefused(_ id: String) throws {
        let pack = try TestSupport.pack("kindred")
        #expect {
            try CoachDocuments.importCoach(CoachPortabilityTests.portable(Self.calm), file: "in.json", into: pack, id: id)
        } throws: { error in
            (error as? CoachLabError)?.description.contains("is not a valid id") == true
        }
    }

    @Test func anInvalidIdInTheFileItselfSuggestsOne() throws {
        let pack = try TestSupport.pack("kindred")
        let spaced = #"{"id": "Calm Mind", "name": "Calm", "systemPrompt": "Calm."}"#
        #expect {
            try CoachDocuments.importCoach(CoachPortabilityTests.portable(spaced), file: "in.json", into: pack)
        } throws: { error in
            let text = (error as? CoachLabError)?.description ?? ""
            return text.contains("in.json:4:") && text.contains("--id calm-mind")
        }
    }

    @Test func aHandWrittenFileAtTheTargetIsNeverTouchedEvenWithReplace() throws {
        let directory = try Self.kindredCopy()
        let target = directory + "/coaches/calm-copy.yaml"
        // A person wrote this file; its coach has another id, so no id check notices it.
        let handWritten = "coaches:\n  - id: my-own-coach\n    name: Mine\n    systemPrompt: Written by hand.\n"
        try handWritten.write(toFile: target, atomically: true, encoding: .utf8)
        let before = Self.snapshot(directory)
        let imported = try CoachDocuments.importCoach(CoachPortabilityTests.portable(Self.calm), file: "in.json",
                                                      into: Self.load(directory))
        for replace in [false, true] {
            #expect {
                try CoachDocuments.install(imported, packPath: directory, replace: replace, fileSystem: .live)
            } throws: { error in
                (error as? CoachLabError)?.description.contains("was not written by `coachlab coach import`") == true
            }
        }
        #expect(Self.snapshot(directory) == before)
    }

    @Test func replaceReplacesOnlyAnEarlierImport() throws {
        let directory = try Self.kindredCopy()
        let first = try CoachDocuments.importCoach(CoachPortabilityTests.portable(Self.calm), file: "in.json",
                                                   into: Self.load(directory))
        try CoachDocuments.install(first, packPath: directory, replace: false, fileSystem: .live)
        let written = try String(contentsOfFile: directory + "/coaches/calm-copy.yaml", encoding: .utf8)
        #expect(written.contains(CoachDocuments.importMark))

        let changed = #"{"id": "calm-copy", "name": "Calm Copy", "systemPrompt": "Be calm, kind and brief."}"#
        let second = try CoachDocuments.importCoach(CoachPortabilityTests.portable(changed), file: "in.json",
                                                    into: Self.load(directory), replace: true)
        let before = Self.snapshot(directory)
        #expect(throws: CoachLabError.self) { try CoachDocuments.install(second, packPath: directory, replace: false, fileSystem: .live) }
        #expect(Self.snapshot(directory) == before)
        try CoachDocuments.install(second, packPath: directory, replace: true, fileSystem: .live)
        #expect(try Self.load(directory).coach("calm-copy")?.systemPrompt?.value == "Be calm, kind and brief.")
    }

    /// The import writes through the file system it is given: in memory, over the shipped
    /// pack, nothing reaches the disk.
    @Test func anImportWritesThroughTheFileSystemItIsGiven() throws {
        let (project, layer) = TestSupport.layered(over: TestSupport.fileSystem)
        let pack = try PackLoader(fileSystem: project).load("personas/kindred").get()
        let imported = try CoachDocuments.importCoach(CoachPortabilityTests.portable(Self.calm), file: "in.json", into: pack)
        try CoachDocuments.install(imported, packPath: "personas/kindred", replace: false, fileSystem: project)
        #expect(String(decoding: try layer.read(imported.path), as: UTF8.self) == imported.packFile)
        #expect(!FileSystem.live.exists(TestSupport.root + "/" + imported.path))
        #expect(try PackLoader(fileSystem: project).load("personas/kindred").get().coach("calm-copy") != nil)
    }

    @Test func aCoachThePackWouldNotLoadLeavesThePackByteForByte() throws {
        let directory = try Self.kindredCopy()
        let packFile = directory + "/pack.yaml"
        let text = try String(contentsOfFile: packFile, encoding: .utf8)
        try text.replacingOccurrences(of: "  - coaches/*.yaml\n", with: "  - coaches/[chs]*.yaml\n")
            .write(toFile: packFile, atomically: true, encoding: .utf8)
        let before = Self.snapshot(directory)
        let zen = #"{"id": "zen-copy", "name": "Zen", "systemPrompt": "Be calm and kind."}"#
        let imported = try CoachDocuments.importCoach(CoachPortabilityTests.portable(zen), file: "in.json",
                                                      into: Self.load(directory))
        #expect {
            try CoachDocuments.install(imported, packPath: directory, replace: false, fileSystem: .live)
        } throws: { error in
            (error as? CoachLabError)?.description.contains("does not include") == true
        }
        // The old importer wrote the file, saw the coach missing and deleted it; now nothing is
        // written at all.
        #expect(Self.snapshot(directory) == before)
    }
}
