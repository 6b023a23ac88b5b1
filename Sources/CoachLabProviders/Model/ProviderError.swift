/// The one error type every provider throws: what went wrong, whether a retry may help, and
/// the provider's own message (with any key redacted).
public struct ProviderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure. A struct over a private enum, so kinds can be added later.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case rateLimited = "rate limited"
            case overloaded
            case server = "server error"
            case timeout
            case network = "network error"
            case authentication = "authentication failed"
            case permission = "permission denied"
            case invalidRequest = "invalid request"
            case contextLength = "context too long"
            case insufficientQuota = "insufficient quota"
            case notFound = "not found"
            case malformedResponse = "malformed response"
            case streamInterrupted = "stream interrupted"
            case configuration
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// 429 and rate-limit errors.
        public static let rateLimited = Code(.rateLimited)
        /// 529, 503 and overload errors.
        public static let overloaded = Code(.overloaded)
        /// Other 5xx, 408 and 409.
        public static let server = Code(.server)
        /// No answer within the request's timeout.
        public static let timeout = Code(.timeout)
        /// The connection failed.
        public static let network = Code(.network)
        /// 401, or a key the provider rejects.
        public static let authentication = Code(.authentication)
        /// 403.
        public static let permission = Code(.permission)
        /// 400 and other requests the provider refuses as written.
        public static let invalidRequest = Code(.invalidRequest)
        /// The prompt and history exceed the model's context.
        public static let contextLength = Code(.contextLength)
        /// The account has no quota or credit left.
        public static let insufficientQuota = Code(.insufficientQuota)
        /// 404: an unknown model or path.
        public static let notFound = Code(.notFound)
        /// A body that is not what the protocol promises.
        public static let malformedResponse = Code(.malformedResponse)
        /// A stream that broke off or reported an error after it began.
        public static let streamInterrupted = Code(.streamInterrupted)
        /// The provider is not set up (missing key, unknown kind).
        public static let configuration = Code(.configuration)

        /// Whether a retry may succeed.
        public var isRetryable: Bool {
            switch base {
            case .rateLimited, .overloaded, .server, .timeout, .network, .streamInterrupted: true
            default: false
            }
        }

        public var description: String { base.rawValue }
    }

    /// What kind of failure.
    public var code: Code
    /// The provider's id.
    public var provider: String
    /// The HTTP status, when there was one.
    public var status: Int?
    /// The provider's own message.
    public var message: String
    /// A delay the provider asked for before retrying, in seconds.
    public var retryAfter: Double?
    /// An explicit retry verdict from the provider (`x-should-retry`), overriding the code's.
    public var shouldRetry: Bool?

    /// Creates an error.
    public init(_ code: Code, provider: String, status: Int? = nil, message: String, retryAfter: Double? = nil,
                shouldRetry: Bool? = nil) {
        self.code = code
        self.provider = provider
        self.status = status
        self.message = message
        self.retryAfter = retryAfter
        self.shouldRetry = shouldRetry
    }

    /// Whether a retry may succeed.
    public var isRetryable: Bool { shouldRetry ?? code.isRetryable }

    public var description: String {
        "\(provider): \(code)\(status.map { " (HTTP \($0))" } ?? ""): \(message)"
    }
}
