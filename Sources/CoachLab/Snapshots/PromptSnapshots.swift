import Foundation
import Synchronization

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
        // Loading a pack and compiling one of its variants are jobs of one queue, so a core
        // compiles the small packs' variants while the other still loads a large pack.
        let rendering = Rendering(packs: paths.count)
        WorkQueue<RenderJob>.drain(paths.indices.map { .load($0) }) { job, queue in
            switch job {
            case .load(let pack):
                let compiler = Result { try PackLoader(fileSystem: fileSystem).compiler(for: paths[pack]) }
                rendering.store(compiler, pack: pack)
                guard let compiler = try? compiler.get() else { return }
                for variant in compiler.pack.variants.indices { queue.add(.compile(compiler, pack: pack, variant: variant)) }
            case .compile(let compiler, let pack, let variant):
                rendering.store(Result { try file(of: compiler.pack.variants[variant], compiler: compiler, fileSystem: fileSystem) },
                                pack: pack, variant: variant)
            }
        }
        return try rendering.collect()
    }

    private enum RenderJob: Sendable {
        case load(Int)
        case compile(Compiler, pack: Int, variant: Int)
    }

    /// What the jobs of ``render(packs:fileSystem:)`` produce, each in a slot of its own.
    private final class Rendering: Sendable {
        private let slots: Mutex<Slots>

        private struct Slots {
            var compilers: [Result<Compiler, Error>?]
            var files: [[Result<File, Error>?]]
        }

        init(packs: Int) {
            slots = Mutex(Slots(compilers: Array(repeating: nil, count: packs), files: Array(repeating: [], count: packs)))
        }

        func store(_ compiler: Result<Compiler, Error>, pack: Int) {
            let variants = (try? compiler.get())?.pack.variants.count ?? 0
            slots.withLock {
                $0.compilers[pack] = compiler
                $0.files[pack] = Array(repeating: nil, count: variants)
            }
        }

        func store(_ file: Result<File, Error>, pack: Int, variant: Int) {
            slots.withLock { $0.files[pack][variant] = file }
        }

        /// Every pack's files in order, or the first failure in that order. Called once every
        /// job is done, when every slot is filled.
        func collect() throws -> [(pack: String, files: [File])] {
            try slots.withLock { slots in
                try zip(slots.compilers, slots.files).map { compiler, files in
                    let compiler = try compiler!.get()
                    return (compiler.pack.id, try files.map { try $0!.get() })
                }
            }
        }
    }

    /// The file in each pack's folder that lists the prompts `compile --all` wrote there: when a
    /// variant goes away, its file is removed only if it is listed, so a file someone else put
    /// in the folder is never deleted.
    public static let manifestName = ".compiled"

    /// Where the manifest of `packId` in `directory` lives.
    public static func manifestPath(packId: String, in directory: String) -> String {
        Paths.join(Paths.join(directory, packId), manifestName)
    }

    /// The paths (as a ``Drift`` names them) that `manifest`, the text of the manifest of
    /// `packId` in `directory`, lists. A line naming a path outside the folder is ignored.
    static func written(by manifest: String, packId: String, in directory: String) -> Set<String> {
        Set(manifest.split(separator: "\n")
            .filter { !$0.hasPrefix("#") && !$0.contains("/") && $0.hasSuffix(".txt") }
            .map { Paths.join(Paths.join(directory, packId), String($0)) })
    }

    /// The manifest listing `files`, one of a pack's sets.
    public static func manifest(of files: [File]) -> String {
        "# Written by coachlab compile --all; it removes only the files listed here.\n"
            + files.map { Paths.lastComponent($0.path) + "\n" }.sorted().joined()
    }

    /// What `compile --all` does to bring a pack's folder in `directory` up to date.
    public struct Update: Sendable, Equatable {
        /// Files missing or changed, to write.
        public var write: [File] = []
        /// How many files are already up to date, and are left alone (with their modification time).
        public var current = 0
        /// Files no variant declares that an earlier run wrote (the manifest lists them): to remove.
        public var remove: [String] = []
        /// Files no variant declares that compile did not write: left where they are.
        public var foreign: [String] = []
        /// Where the pack's manifest goes.
        public var manifestPath = ""
        /// The manifest's text, when it must be written (nil when it already says this).
        public var manifestText: String?
    }

    /// The update that makes `directory` hold exactly `files` of pack `packId`.
    public static func update(_ files: [File], packId: String, in directory: String, fileSystem: FileSystem) -> Update {
        var update = Update()
        let manifest = manifestPath(packId: packId, in: directory)
        let existing = (try? fileSystem.read(manifest)).map { String(decoding: $0, as: UTF8.self) }
        let ours = existing.map { written(by: $0, packId: packId, in: directory) } ?? []
        var stale = Set<String>()
        for drift in check(files, packId: packId, in: directory, fileSystem: fileSystem) {
            switch drift.kind {
            case .orphaned where ours.contains(drift.path): update.remove.append(drift.path)
            case .orphaned: update.foreign.append(drift.path)
            case .changed, .missing: stale.insert(drift.path)
            }
        }
        update.write = files.filter { stale.contains(path(of: $0, in: directory)) }
        update.current = files.count - update.write.count
        let listing = self.manifest(of: files)
        update.manifestPath = manifest
        update.manifestText = existing == listing ? nil : listing
        return update
    }

    /// What ``write(packs:to:fileSystem:)`` did.
    public struct Written: Sendable, Equatable {
        /// Prompts written, because they were missing or had changed.
        public var written = 0
        /// Prompts already up to date, left alone.
        public var current = 0
        /// Files of variants that are gone, which an earlier run wrote: removed.
        public var removed: [String] = []
        /// Files no variant declares that compile did not write: left where they are.
        public var foreign: [String] = []
    }

    /// What `compile --all --out DIRECTORY` does: every variant of each pack at `paths` is
    /// compiled (all of them, before anything is written), then each pack's folder is brought
    /// up to date (see ``update(_:packId:in:fileSystem:)``) and its manifest rewritten when it
    /// changed. Only files the manifest lists are ever removed.
    /// - Throws: ``CoachLabError`` when a pack fails to load or compile (nothing is written),
    ///   or when a file cannot be written or removed (the manifest of that pack is not rewritten).
    public static func write(packs paths: [String], to directory: String, fileSystem: FileSystem) throws -> Written {
        var result = Written()
        for (pack, files) in try render(packs: paths, fileSystem: fileSystem) {
            let update = update(files, packId: pack, in: directory, fileSystem: fileSystem)
            for path in update.remove { try fileSystem.remove(path) }
            for file in update.write { try fileSystem.write(file.text, to: path(of: file, in: directory)) }
            if let text = update.manifestText { try fileSystem.write(text, to: update.manifestPath) }
            result.written += update.write.count
            result.current += update.current
            result.removed += update.remove
            result.foreign += update.foreign
        }
        return result
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
