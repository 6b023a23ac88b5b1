import Foundation
import Synchronization

/// Compiled prompts shared across the cases of a run. A prompt depends on the compile inputs
/// and, through `risk`, on the deciding guardrail flag only, so every unflagged message of a
/// fixture set with the same profile and coach compiles once. The screening of each message
/// is still its own: it is put back on the prompt each time.
///
/// Each prompt is compiled once: a case that reaches a prompt while another case compiles it
/// waits for that prompt, as the first cases of a run (one per slot, 64 at `-j 64`) all reach
/// the same few prompts at once.
///
/// Bounded: when it holds ``capacity`` prompts it starts again, so a run's memory stays flat.
public final class PromptCache: Sendable {
    /// The most prompts held at once.
    public let capacity: Int
    private let state = Mutex(State())
    /// Prompts served from the cache so far.
    public var hits: Int { state.withLock { $0.hits } }
    /// Prompts compiled so far.
    public var misses: Int { state.withLock { $0.misses } }

    private struct State {
        var prompts: [Key: Once<CompiledPrompt>] = [:]
        var hits = 0, misses = 0
    }

    private struct Key: Hashable, Sendable {
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
        let cell = state.withLock { state in
            if let cell = state.prompts[cacheKey] {
                state.hits += 1
                return cell
            }
            state.misses += 1
            if state.prompts.count >= capacity { state.prompts.removeAll(keepingCapacity: true) }
            let cell = Once<CompiledPrompt>()
            state.prompts[cacheKey] = cell
            return cell
        }
        var prompt = cell.value {
            var turnInputs = resolved
            turnInputs.screen = message
            return compiler.compile(turnInputs, screening: screening)
        }
        // Whichever case compiled the prompt (another may have reached the cell first, even
        // the one that made it), this message's own screening goes on it.
        prompt.screening = screening
        return prompt
    }
}
