/// The committed compiled prompts of a pack: one text file per declared variant, at
/// `DIR/<pack id>/<variant id>.txt`. `compile --all --out` writes them and `compile --check`
/// compares, so prompt changes show up as reviewable diffs.
public enum PromptSnapshots {
    /// One file of the snapshot set.
    public struct File: Sendable, Equatable {
        /// The path relative to the snapshot directory.
        public var path: String
        /// The compiled system prompt, with a final newline.
        public var text: String
    }

    /// A difference between the committed and the compiled prompts.
    public struct Drift: Sendable, Equatable, CustomStringConvertible {
        /// What kind of difference.
        public enum Kind: Sendable, Equatable { case changed, missing, orphaned }
        /// What kind.
        public var kind: Kind
        /// The path relative to the snapshot directory.
        public var path: String
        /// A unified diff for changed files.
        public var diff: String

        public var description: String {
            switch kind {
            case .changed: return diff
            case .missing: return "missing: \(path) is declared but not committed; run 'coachlab compile --all --out'\n"
            case .orphaned: return "orphaned: \(path) is committed but no variant declares it; delete it\n"
            }
        }
    }

    /// Compiles every variant the pack declares.
    /// - Throws: ``CoachLabError`` when a variant's inputs cannot be resolved.
    public static func render(_ compiler: Compiler, fileSystem: FileSystem) throws -> [File] {
        try compiler.pack.variants.map { try file(of: $0, compiler: compiler, fileSystem: fileSystem) }
    }

    private static func file(of variant: Variant, compiler: Compiler, fileSystem: FileSystem) throws -> File {
        let prompt = try compiler.compile(CompileInputs(variant), fileSystem: fileSystem)
        return File(path: "\(compiler.pack.id)/\(variant.id).txt", text: prompt.system + "\n")
    }

    /// Every variant of each pack at `paths`, loaded and compiled on every core, in the order
    /// of `paths`. Nothing is returned unless every pack loads and compiles.
    /// - Throws: ``CoachLabError`` from the first pack, in order, that fails.
    public static func render(packs paths: [String], fileSystem: FileSystem) throws -> [(pack: String, files: [File])] {
        let compilers = try paths.concurrentMap { path in
            Result { try Compiler(pack: PackLoader(fileSystem: fileSystem).load(path).get()) }
        }.map { try $0.get() }
        // Variants, not packs, share the cores: the packs differ in size.
        let variants = compilers.indices.flatMap { index in compilers[index].pack.variants.map { (index, $0) } }
        let rendered = try variants.concurrentMap { index, variant in
            Result { try file(of: variant, compiler: compilers[index], fileSystem: fileSystem) }
        }.map { try $0.get() }
        var files = rendered[...]
        return compilers.map { compiler in
            defer { files = files.dropFirst(compiler.pack.variants.count) }
            return (compiler.pack.id, Array(files.prefix(compiler.pack.variants.count)))
        }
    }

    /// Where `file` lives in the snapshot directory `directory`: the path a ``Drift`` names.
    public static func path(of file: File, in directory: String) -> String {
        Paths.join(directory, file.path)
    }

    /// Compares compiled files with what `directory` holds.
    public static func check(_ files: [File], packId: String, in directory: String, fileSystem: FileSystem) -> [Drift] {
        var drifts: [Drift] = []
        for file in files {
            let path = self.path(of: file, in: directory)
            guard let data = try? fileSystem.read(path) else {
                drifts.append(Drift(kind: .missing, path: path, diff: ""))
                continue
            }
            let committed = String(decoding: data, as: UTF8.self)
            if committed != file.text {
                drifts.append(Drift(kind: .changed, path: path,
                                    diff: UnifiedDiff.diff(old: committed, new: file.text, oldName: "a/\(path) (committed)",
                                                           newName: "b/\(path) (compiled)")))
            }
        }
        let packDirectory = Paths.join(directory, packId)
        let expected = Set(files.map { path(of: $0, in: directory) })
        for name in ((try? fileSystem.list(packDirectory)) ?? []).sorted() where name.hasSuffix(".txt") {
            let path = Paths.join(packDirectory, name)
            if !expected.contains(path) { drifts.append(Drift(kind: .orphaned, path: path, diff: "")) }
        }
        return drifts
    }
}
