import CoachLab
import CoachLabProviders

/// What a user asks of an eval run, before anything is read: the suites, providers and
/// settings, which cases to run, and whether the run continues a stored one. `coachlab eval`
/// and `coachlab compare` fill it from their flags; an app fills it in code.
public struct EvalRequest: Sendable {
    /// How a run relates to a stored one.
    public enum Continuation: Sendable, Hashable {
        /// Finished cases are kept; the rest run into the same run.
        case resume(String)
        /// Only the cases that errored run again, into the same run.
        case retryErrors(String)

        public var run: String {
            switch self {
            case .resume(let run), .retryErrors(let run): run
            }
        }
    }

    /// Suite files; empty means every suite in `evals/` (or the stored run's, when continuing).
    public var suites: [String] = []
    /// Replaces each suite's providers when not empty.
    public var providers: [String] = []
    /// Replaces each suite's repeats when set.
    public var repeats: Int?
    /// Overall cases running at once.
    public var concurrency: Int?
    /// For inline providers.
    public var baseURL: String?
    public var apiKeyVariable: String?
    /// Settings over every provider (max tokens, temperature, timeout…).
    public var settings = ProviderOverrides()
    /// Only cases whose id contains this text.
    public var filter: String?
    /// Only this slice of the cases.
    public var shard: Shard?
    /// A stored run this one continues.
    public var continuation: Continuation?
    /// Whether replies are streamed (time to first token).
    public var streaming = false
    /// Whether replies go through the sanitiser before they are scored.
    public var sanitize = false

    public init() {}
}
