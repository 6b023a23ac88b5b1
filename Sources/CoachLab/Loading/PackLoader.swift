import Foundation

/// The outcome of loading a pack: the pack when it could be assembled, and every
/// diagnostic found on the way (including warnings for a pack that loaded).
public struct PackLoadResult: Sendable {
    /// The pack, or nil when errors kept it from being assembled.
    public var pack: Pack?
    /// Every problem found, sorted.
    public var diagnostics: [Diagnostic]

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// The pack, or the errors as a thrown ``CoachLabError``.
    public func get() throws -> Pack {
        guard let pack, !hasErrors else {
            throw CoachLabError(.content, diagnostics.filter { $0.severity == .error })
        }
        return pack
    }
}

/// Loads a pack folder (or its `pack.yaml`): reads the root file and everything it includes,
/// validates each file against ``ContentSpecs/packFile``, merges them, and runs every
/// semantic check (``PackChecker``).
public struct PackLoader: Sendable {
    /// Where files come from.
    public var fileSystem: FileSystem

    /// Creates a loader.
    public init(fileSystem: FileSystem) {
        self.fileSystem = fileSystem
    }

    /// Loads the pack at `path`, a folder holding `pack.yaml` or the root file itself.
    /// - Parameter warnings: Whether to run the checks that can only warn (user data that
    ///   would pose as prompt structure, which the compiler quotes). A caller that keeps only
    ///   the errors, as a run preparing its packs does, passes false and skips that work; every
    ///   error is found either way.
    public func load(_ path: String, warnings: Bool = true) -> PackLoadResult {
        var (pack, diagnostics, complete) = assemble(path)
        if let pack, complete {
            PackChecker.check(pack, warnings: warnings, into: &diagnostics)
        }
        return PackLoadResult(pack: pack, diagnostics: diagnostics.sorted)
    }

    /// Loads the pack at `path` as ``load(_:warnings:)`` does and prepares its compiler, with
    /// the checks and the compiler's preparation side by side: both only read the pack, and
    /// together they are most of the time a pack takes to load, which a one-case run spent
    /// on one core. The compiler is kept only when the checks find no error, so a broken pack
    /// fails with the same errors as `Compiler(pack: load(path).get())`.
    /// - Throws: ``CoachLabError`` with the pack's errors, or with the compiler's.
    public func compiler(for path: String, warnings: Bool = true) throws -> Compiler {
        let (assembled, diagnostics, complete) = assemble(path)
        guard let pack = assembled, complete else {
            return try Compiler(pack: PackLoadResult(pack: assembled, diagnostics: diagnostics.sorted).get())
        }
        let (checked, compiler) = concurrently({
            var checked = diagnostics
            PackChecker.check(pack, warnings: warnings, into: &checked)
            return checked.sorted
        }, {
            Result { try Compiler(pack: pack) }
        })
        _ = try PackLoadResult(pack: pack, diagnostics: checked).get()
        return try compiler.get()
    }

    /// Reads the root file and everything it includes, and merges them: the pack (nil when
    /// errors kept it from being assembled), what was found on the way, and whether every
    /// file could be read (when one could not, what it defines is missing, and the checks
    /// would only repeat that one root cause).
    private func assemble(_ path: String) -> (pack: Pack?, diagnostics: Diagnostics, complete: Bool) {
        let path = Paths.normalize(path)
        var diagnostics = Diagnostics()
        let rootFile: String
        if fileSystem.isDirectory(path) {
            rootFile = Paths.join(path, "pack.yaml")
            guard fileSystem.exists(rootFile) else {
                diagnostics.error("no pack.yaml in '\(path)'", at: SourceLocation(file: path, line: 1, column: 1),
                                  hint: "a pack is a folder whose pack.yaml names it; see docs/packs.md")
                return (nil, diagnostics, false)
            }
        } else if fileSystem.exists(path) {
            rootFile = path
        } else {
            diagnostics.error("no such pack: '\(path)'", at: SourceLocation(file: path, line: 1, column: 1),
                              hint: "name a folder under personas/, such as personas/betterone")
            return (nil, diagnostics, false)
        }
        var state = LoadState(root: Paths.directory(of: rootFile))
        loadFile(rootFile, includedFrom: [], state: &state, diagnostics: &diagnostics)
        guard !state.fragments.isEmpty else { return (nil, diagnostics, false) }
        let pack = PackAssembler.assemble(fragments: state.fragments, directory: state.root, rootFile: rootFile,
                                          diagnostics: &diagnostics)
        return (pack, diagnostics, !state.incomplete)
    }

    struct LoadState {
        var root: String
        var fragments: [(file: String, value: YAMLValue)] = []
        var loaded: Set<String> = []
        /// Whether a file could not be read or parsed. What it defines is then missing, so
        /// checks that look things up would only repeat the one root cause.
        var incomplete = false
    }

    private func loadFile(_ file: String, includedFrom chain: [String], state: inout LoadState, diagnostics: inout Diagnostics) {
        state.loaded.insert(file)
        // A symbolic link may point anywhere; what it points at must be inside the pack, as an
        // include must.
        let real = fileSystem.realPath(file), realRoot = fileSystem.realPath(state.root)
        guard Paths.isInside(real, realRoot) else {
            diagnostics.error("'\(file)' is a symbolic link to '\(real)', outside the pack folder", at: SourceLocation(file: file, line: 1, column: 1),
                              hint: "packs are self-contained; copy the file into the pack instead of linking to it")
            state.incomplete = true
            return
        }
        let data: Data
        do {
            data = try fileSystem.read(file)
        } catch {
            diagnostics.error("cannot read file: \(error.localizedDescription)", at: SourceLocation(file: file, line: 1, column: 1))
            state.incomplete = true
            return
        }
        let value: YAMLValue
        do {
            value = try YAMLDocument.parse(data, file: file)
        } catch let error as CoachLabError {
            diagnostics.append(contentsOf: error.diagnostics)
            state.incomplete = true
            return
        } catch {
            diagnostics.error("\(error)", at: SourceLocation(file: file, line: 1, column: 1))
            state.incomplete = true
            return
        }
        SpecValidator.validate(value, spec: ContentSpecs.packFile, what: "pack file", into: &diagnostics)
        guard value.entries != nil else { return }
        state.fragments.append((file, value))
        for include in value.locatedList("include") {
            let targets = resolve(include, from: file, root: state.root, diagnostics: &diagnostics)
            if targets.isEmpty, !Paths.isGlob(include.value) { state.incomplete = true }
            for target in targets {
                if target == file || chain.contains(target) {
                    let cycle = (chain + [file, target]).drop { $0 != target }.joined(separator: " → ")
                    diagnostics.error("include cycle: \(cycle)", at: include.location,
                                      hint: "remove one of the includes that lead back to '\(target)'")
                    continue
                }
                if state.loaded.contains(target) {
                    diagnostics.warning("'\(target)' is included more than once; its content is merged only once",
                                        at: include.location)
                    continue
                }
                loadFile(target, includedFrom: chain + [file], state: &state, diagnostics: &diagnostics)
            }
        }
    }

    private func resolve(_ include: Located<String>, from file: String, root: String,
                         diagnostics: inout Diagnostics) -> [String] {
        let target = Paths.join(Paths.directory(of: file), include.value)
        guard !include.value.hasPrefix("/"), Paths.isInside(target, root) else {
            diagnostics.error("include '\(include.value)' escapes the pack folder '\(root)'", at: include.location,
                              hint: "includes must stay inside the pack; copy shared content into it")
            return []
        }
        guard Paths.isGlob(include.value) else {
            if fileSystem.isDirectory(target) {
                diagnostics.error("included '\(target)' is a directory, not a file", at: include.location,
                                  hint: "include its files with a glob, such as '\(include.value)/*.yaml'")
                return []
            }
            guard fileSystem.exists(target) else {
                diagnostics.error("included file '\(target)' does not exist", at: include.location,
                                  hint: fileHint(for: target))
                return []
            }
            return [target]
        }
        let matches = glob(target)
        if matches.isEmpty {
            diagnostics.warning("include pattern '\(include.value)' matches no files", at: include.location)
        }
        return matches
    }

    private func fileHint(for target: String) -> String? {
        let directory = Paths.directory(of: target)
        guard let names = try? fileSystem.list(directory) else { return nil }
        return Suggestions.closest(to: Paths.lastComponent(target), in: names).map { "did you mean '\($0)'?" }
    }

    private func glob(_ pattern: String) -> [String] { Glob.expand(pattern, fileSystem: fileSystem) }
}
