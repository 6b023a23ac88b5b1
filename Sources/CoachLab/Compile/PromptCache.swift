import Foundation

/// Compiled prompts shared across the cases of a run. A prompt depends on the compile inputs
/// and, through `risk`, on the deciding guardrail flag only, so every unflagged message of a
/// fixture set with the same profile and coach compiles once. The screening of each message
/// is still its own: it is put back on the prompt each time.
///
/// Bounded: when it holds ``capacity`` prompts it starts again, so a run's memory stays flat.
public final class PromptCache: @unchecked Sendable {
    /// The most prompts held at once.
    public let capacity: Int
    private let lock = NSLock()
    private var prompts: [Key: CompiledPrompt] = [:]
    private var hitCount = 0, missCount = 0
    /// Prompts served from the cache so far.
    public var hits: Int { lock.withLock { hitCount } }
    /// Prompts compiled so far.
    public var misses: Int { lock.withLock { missCount } }

    private struct Key: Hashable {
        var pack: String
        var inputs: CompileInputs
        var decision: String?
    }

    /// An empty cache.
    public init(capacity: Int = 2048) { self.capacity = max(1, capacity) }

    /// The prompt for `inputs` with `message` screened, compiled only the first time its inputs
    /// and deciding flag are seen.
    /// - Parameters:
    ///   - key: The unresolved inputs `resolved` came from (its screen is ignored).
    public func prompt(_ compiler: Compiler, resolved: ResolvedInputs, key: CompileInputs, message: String) -> CompiledPrompt {
        let screening = compiler.screen(message)
        var inputs = key
        inputs.screen = nil
        let decision = screening.decision.map { "\($0.ruleId)|\($0.stage)|\($0.kind.rawValue)|\($0.matched)|\($0.excerpt)" }
        let cacheKey = Key(pack: compiler.pack.id, inputs: inputs, decision: decision)
        let found: CompiledPrompt? = lock.withLock {
            let prompt = prompts[cacheKey]
            if prompt != nil { hitCount += 1 }
            return prompt
        }
        if var cached = found {
            cached.screening = screening
            return cached
        }
        var turnInputs = resolved
        turnInputs.screen = message
        let prompt = compiler.compile(turnInputs, screening: screening)
        lock.withLock {
            missCount += 1
            if prompts.count >= capacity { prompts.removeAll(keepingCapacity: true) }
            prompts[cacheKey] = prompt
        }
        return prompt
    }
}
