import CoachLab
import Foundation
import Testing

/// Golden files: every variant of every shipped pack must compile to exactly the text
/// committed under prompts/. Run with COACHLAB_RECORD=1 to re-record after a reviewed change.
@Suite struct GoldenPromptTests {
    @Test(arguments: TestSupport.shippedPacks)
    func compiledPromptsMatchTheCommittedOnes(_ name: String) throws {
        let compiler = try TestSupport.compiler(name)
        let files = try PromptSnapshots.render(compiler, fileSystem: TestSupport.fileSystem)
        #expect(!files.isEmpty)
        if ProcessInfo.processInfo.environment["COACHLAB_RECORD"] == "1" {
            for file in files {
                let url = URL(fileURLWithPath: TestSupport.root + "/prompts/" + file.path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.text.utf8).write(to: url)
            }
        }
        let drifts = PromptSnapshots.check(files, packId: compiler.pack.id, in: "prompts", fileSystem: TestSupport.fileSystem)
        #expect(drifts.isEmpty, "\(drifts.map(\.description).joined())")
    }

    @Test(arguments: TestSupport.shippedPacks)
    func shippedPacksLintCleanAndCompileWithoutWarnings(_ name: String) throws {
        let result = PackLoader(fileSystem: TestSupport.fileSystem).load("personas/\(name)")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let compiler = try Compiler(pack: try result.get())
        for variant in compiler.pack.variants {
            let prompt = try compiler.compile(CompileInputs(variant), fileSystem: TestSupport.fileSystem)
            #expect(prompt.warnings.isEmpty)
            #expect(prompt.budget.map { prompt.tokens <= $0 } ?? true)
            #expect(prompt.layers.allSatisfy { !$0.sources.isEmpty })
        }
    }

    @Test func editingARuleMakesCheckFailWithADiffNamingTheChange() throws {
        let compiler = try TestSupport.compiler("betterone")
        let committed = try PromptSnapshots.render(compiler, fileSystem: TestSupport.fileSystem)
        var pack = compiler.pack
        let index = try #require(pack.rules.firstIndex { $0.id == "one-idea" })
        let edited = YAMLValue.scalar(.init(text: "Offer two ideas per reply.", style: .plain,
                                            location: SourceLocation(file: "edit", line: 1, column: 1)))
        guard case .mapping(var entries, let location) = pack.rules[index].value else { Issue.record("rule is not a mapping"); return }
        let contentIndex = try #require(entries.firstIndex { $0.key == "content" })
        entries[contentIndex].value = edited
        pack.rules[index].value = .mapping(entries, location)
        let changed = try PromptSnapshots.render(try Compiler(pack: pack), fileSystem: TestSupport.fileSystem)
        let fileSystem = FileSystem.inMemory(Dictionary(uniqueKeysWithValues: committed.map { ("golden/" + $0.path, $0.text) }))
        let drifts = PromptSnapshots.check(changed, packId: "betterone", in: "golden", fileSystem: fileSystem)
        #expect(drifts.count == committed.count)  // the rules layer is in every variant
        let diff = try #require(drifts.first?.diff)
        #expect(diff.contains("-- One idea at a time: Offer a single idea or step per reply, never a list of tips."))
        #expect(diff.contains("+- One idea at a time: Offer two ideas per reply."))
    }

    /// `compile --all` removes a file no variant declares only when its manifest says an
    /// earlier run wrote it; anything else in the folder is left, and only stale files are written.
    @Test func anUpdateRemovesOnlyTheFilesItsManifestLists() throws {
        let files = try PromptSnapshots.render(try TestSupport.compiler("luna"), fileSystem: TestSupport.fileSystem)
        var disk = Dictionary(uniqueKeysWithValues: files.map { ("out/" + $0.path, $0.text) })
        disk["out/\(files[0].path)"] = "edited by hand\n"
        disk["out/luna/dropped-variant.txt"] = "an old prompt\n"
        disk["out/luna/notes.txt"] = "someone's notes\n"
        disk["out/luna/.compiled"] = "# listing\ndropped-variant.txt\n../elsewhere.txt\n"
        let update = PromptSnapshots.update(files, packId: "luna", in: "out", fileSystem: .inMemory(disk))
        #expect(update.remove == ["out/luna/dropped-variant.txt"])
        #expect(update.foreign == ["out/luna/notes.txt"])
        #expect(update.write.map(\.path) == [files[0].path])
        #expect(update.current == files.count - 1)
        #expect(update.manifestPath == "out/luna/.compiled")
        let listing = try #require(update.manifestText)
        #expect(listing.split(separator: "\n").dropFirst().map(String.init).sorted() == files.map { String($0.path.dropFirst("luna/".count)) }.sorted())

        // Once the folder holds the set and its manifest, there is nothing to do.
        var done = Dictionary(uniqueKeysWithValues: files.map { ("out/" + $0.path, $0.text) })
        done["out/luna/.compiled"] = listing
        let idle = PromptSnapshots.update(files, packId: "luna", in: "out", fileSystem: .inMemory(done))
        #expect(idle.write.isEmpty && idle.remove.isEmpty && idle.foreign.isEmpty && idle.manifestText == nil)
    }

    /// `compile --all --out`'s whole sequence, in memory: a first run writes every variant and
    /// the manifest; a second writes nothing; a variant that goes away takes only its own file,
    /// and someone's notes in the folder stay.
    @Test func writingTheSetTwiceWritesOnceAndRemovesOnlyWhatItWrote() throws {
        let (project, disk) = TestSupport.layered(over: TestSupport.fileSystem)
        try disk.write("someone's notes\n", to: "out/luna/notes.txt")
        let first = try PromptSnapshots.write(packs: ["personas/luna"], to: "out", fileSystem: project)
        let variants = try TestSupport.pack("luna").variants.count
        #expect(first.written == variants && first.current == 0 && first.foreign == ["out/luna/notes.txt"] && first.removed.isEmpty)
        #expect(String(decoding: try disk.read("out/luna/.compiled"), as: UTF8.self).split(separator: "\n").count == variants + 1)

        let second = try PromptSnapshots.write(packs: ["personas/luna"], to: "out", fileSystem: project)
        #expect(second.written == 0 && second.current == variants)

        // A file an earlier run wrote for a variant that has since gone.
        let manifest = String(decoding: try disk.read("out/luna/.compiled"), as: UTF8.self)
        try disk.write(manifest + "retired.txt\n", to: "out/luna/.compiled")
        try disk.write("an old prompt\n", to: "out/luna/retired.txt")
        let third = try PromptSnapshots.write(packs: ["personas/luna"], to: "out", fileSystem: project)
        #expect(third.removed == ["out/luna/retired.txt"] && !disk.exists("out/luna/retired.txt"))
        #expect(disk.exists("out/luna/notes.txt"))
        #expect(String(decoding: try disk.read("out/luna/.compiled"), as: UTF8.self) == manifest)
    }
}

@Suite struct SchemaTests {
    @Test(arguments: JSONSchemaEmitter.kinds)
    func committedSchemasAreCurrent(_ kind: String) throws {
        let emitted = try #require(JSONSchemaEmitter.schema(for: kind))
        let committed = String(decoding: try TestSupport.fileSystem.read("schemas/\(kind).schema.json"), as: UTF8.self)
        #expect(emitted == committed, "run 'swift run coachlab schema --out schemas'")
        let object = try JSONSerialization.jsonObject(with: Data(emitted.utf8)) as? [String: Any]
        #expect(object?["type"] as? String == "object")
    }

    @Test func packSchemaKnowsEveryTopLevelKeyAndRequiresRuleFields() throws {
        let text = try #require(JSONSchemaEmitter.schema(for: "pack"))
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let properties = try #require(schema["properties"] as? [String: Any])
        #expect(Set(properties.keys) == Set(ContentSpecs.packFile.fields.map(\.name)))
        let rules = try #require(properties["rules"] as? [String: Any])
        let rule = try #require(rules["items"] as? [String: Any])
        #expect(Set(rule["required"] as? [String] ?? []) == ["id", "title", "content"])
        #expect(rule["additionalProperties"] as? Bool == false)
    }
}
