import CoachLab
import Foundation

/// What `coachlab watch` compares between two saves: every declared variant's compiled
/// prompt, layer by layer, and the prompt each fixture of the pack starts from, so that only
/// the fixtures whose prompt (or file) changed are run again.
public struct WatchSnapshot: Sendable {
    /// Each variant's prompt, by variant id ("" for the pack with no inputs).
    public var prompts: [String: CompiledPrompt]
    /// Per fixture id: a hash of its first compiled prompt and of its own file.
    public var fixtures: [String: String]

    /// Compiles the pack's variants and the given fixtures' prompts.
    /// - Throws: ``CoachLabError`` when the pack does not load or compile (lint's diagnostics).
    public init(pack path: String, fixtures: [FixtureReference], fileSystem: FileSystem) throws {
        let pack = try PackLoader(fileSystem: fileSystem).load(path).get()
        let compiler = try Compiler(pack: pack)
        var prompts: [String: CompiledPrompt] = [:]
        let variants: [(String, CompileInputs)] = [("", CompileInputs())] + pack.variants.map { ($0.id, CompileInputs($0)) }
        for (id, inputs) in variants {
            // A variant that cannot compile now (a topic renamed mid-edit) is simply left out;
            // lint names it.
            prompts[id] = try? compiler.compile(inputs, fileSystem: fileSystem)
        }
        self.prompts = prompts
        var hashes: [String: String] = [:]
        let loader = EvalLoader(fileSystem: fileSystem)
        for reference in fixtures where reference.pack == path {
            let file = (try? fileSystem.read(reference.file)).map { StableHash.hex(String(decoding: $0, as: UTF8.self)) } ?? "missing"
            // Each turn's prompt as screened, so an edited alert or keyword counts too.
            let turns = loader.fixture(at: reference.file).0?.turns.map(\.user) ?? []
            let prompts = ([nil] + turns.map(Optional.some)).map { message -> String in
                var inputs = reference.inputs
                inputs.screen = message
                return (try? compiler.compile(inputs, fileSystem: fileSystem))?.hash ?? "uncompilable"
            }
            hashes[reference.id] = StableHash.hex(([file] + prompts).joined(separator: "\n"))
        }
        self.fixtures = hashes
    }

    /// One layer that changed in one variant.
    public struct LayerChange: Sendable, Hashable, CustomStringConvertible {
        public var variant: String
        public var layer: String
        /// Estimated tokens before and after; nil when the layer was not rendered.
        public var before: Int?
        public var after: Int?

        public var description: String {
            let name = variant.isEmpty ? layer : "\(variant): \(layer)"
            switch (before, after) {
            case (nil, let after?): return "\(name) added (\(after) tokens)"
            case (let before?, nil): return "\(name) removed (was \(before) tokens)"
            case (let before?, let after?): return "\(name) changed (\(before) → \(after) tokens)"
            default: return name
            }
        }
    }

    /// The layers whose text changed, variant by variant.
    public func layerChanges(since old: WatchSnapshot) -> [LayerChange] {
        var changes: [LayerChange] = []
        for variant in Set(prompts.keys).union(old.prompts.keys).sorted() {
            let before = Dictionary((old.prompts[variant]?.layers ?? []).map { ($0.id, $0) }) { first, _ in first }
            let after = Dictionary((prompts[variant]?.layers ?? []).map { ($0.id, $0) }) { first, _ in first }
            let order = (prompts[variant]?.layers ?? []).map(\.id) + (old.prompts[variant]?.layers ?? []).map(\.id).filter { after[$0] == nil }
            for id in order where before[id]?.text != after[id]?.text {
                changes.append(LayerChange(variant: variant, layer: id, before: before[id]?.tokens, after: after[id]?.tokens))
            }
        }
        return changes
    }

    /// The fixtures whose prompt or file changed, or that are new.
    public func fixturesToRun(since old: WatchSnapshot) -> Set<String> {
        Set(fixtures.keys.filter { old.fixtures[$0] != fixtures[$0] })
    }
}
