import CoachLab
@testable import CoachLabProviders
import Foundation
import Testing

/// Answers every request with a status and a body sent in the given chunks.
struct ChunkedTransport: HTTPTransport {
    var status = 200
    var contentType = "application/json"
    var headers: [HTTPHeader] = []
    var chunks: [String]
    func send(_ request: HTTPRequestSpec, timeout: Double, provider: String) async throws -> HTTPResponse {
        let chunks = self.chunks.map { Array($0.utf8) }
        return HTTPResponse(status: status, headers: [HTTPHeader("content-type", contentType)] + headers,
                            body: AsyncThrowingStream { continuation in
                                for chunk in chunks { continuation.yield(chunk) }
                                continuation.finish()
                            })
    }
}

/// Keys never reach a reply, and no reply is unbounded.
@Suite struct ReplySafetyTests {
    static let request = ChatRequest(system: "Be kind.", messages: [ChatMessage(.user, "Hi")])

    static func openAI(_ transport: ChunkedTransport, key: String?, redactor: SecretRedactor? = nil,
                       limit: Int = HTTPProvider.defaultMaximumResponseBytes) -> HTTPProvider {
        HTTPProvider(id: "p", wire: OpenAIWire(legacyMaxTokens: false), baseURL: "http://127.0.0.1:1/v1", apiKey: key,
                     defaults: GenerationSettings(model: "m"), system: .tests(transport: transport), retry: .none,
                     redactor: redactor, maximumResponseBytes: limit)
    }

    static func whole(_ text: String) -> ChunkedTransport {
        let body = try! JSONSerialization.data(withJSONObject: [
            "id": "x", "model": "m",
            "choices": [["index": 0, "message": ["role": "assistant", "content": text], "finish_reason": "stop"]],
        ])
        return ChunkedTransport(chunks: [String(decoding: body, as: UTF8.self)])
    }

    static func streamed(_ pieces: [String]) -> ChunkedTransport {
        var events = pieces.map { piece -> String in
            let delta = try! JSONSerialization.data(withJSONObject: ["choices": [["index": 0, "delta": ["content": piece]]]])
            return "data: \(String(decoding: delta, as: UTF8.self))\n\n"
        }
        events.append("data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
        return ChunkedTransport(contentType: "text/event-stream", chunks: events)
    }

    static func leaks(_ text: String, _ secret: String) -> Bool {
        text.range(of: secret, options: .caseInsensitive) != nil
    }

    @Test func aKeyEchoedInASuccessfulReplyIsRedactedInAnyCase() async throws {
        let key = "sk-live-Abc123xyz789"
        let reply = try await Self.openAI(Self.whole("Your key is \(key.uppercased()), and again \(key)."), key: key)
            .complete(Self.request)
        #expect(!Self.leaks(reply.text, key))
        #expect(reply.text == "Your key is [redacted], and again [redacted].")
    }

    @Test func shortKeysAreRedactedToo() async throws {
        let reply = try await Self.openAI(Self.whole("the key was k3y9z, fine"), key: "k3y9z").complete(Self.request)
        #expect(reply.text == "the key was [redacted], fine")
    }

    @Test func aKeySplitAcrossStreamedPiecesNeverAppearsInAPiece() async throws {
        let key = "sk-live-Abc123xyz789"
        let pieces = ["Sure. Your key: sk-li", "VE-ABC1", "23xyz789 is ", "safe with me."]
        let provider = Self.openAI(Self.streamed(pieces), key: key)
        var shown: [String] = []
        var final: ProviderReply?
        for try await event in provider.stream(Self.request) {
            switch event {
            case .delta(let piece): shown.append(piece)
            case .finished(let reply): final = reply
            case .restarted: break
            }
        }
        let joined = shown.joined()
        #expect(!Self.leaks(joined, key) && !Self.leaks(final?.text ?? "", key))
        #expect(joined == "Sure. Your key: [redacted] is safe with me.")
        #expect(final?.text == joined)
    }

    @Test func secretsFromTheEnvironmentAreRedactedWhateverProviderAsked() async throws {
        let environment = ["PATH": "/usr/bin", "HOME": "/root", "SERVICE_TOKEN": "tok-998877", "db_password": "hunter2x",
                           "MONKEY": "banana", "USE_API_KEY": "true"]
        let redactor = SecretRedactor.environment(environment, adding: [nil])
        // MONKEY is no key, and "true" is a word, not a secret.
        #expect(Set(redactor.secrets) == ["tok-998877", "hunter2x"])
        let reply = try await Self.openAI(Self.whole("tok-998877 / HUNTER2X / /usr/bin"), key: nil, redactor: redactor)
            .complete(Self.request)
        #expect(reply.text == "[redacted] / [redacted] / /usr/bin")
    }

    @Test func aStreamLargerThanTheLimitIsRefusedWithAClearError() async throws {
        let huge = String(repeating: "a", count: 64 * 1024)
        let provider = Self.openAI(Self.streamed([huge, huge]), key: nil, limit: 100_000)
        do {
            for try await _ in provider.stream(Self.request) {}
            Issue.record("an oversized stream was accepted")
        } catch let error as ProviderError {
            #expect(error.code == .malformedResponse)
            #expect(error.message.contains("exceeds 100000 bytes"))
        }
    }

    @Test func aWholeBodyLargerThanTheLimitIsRefusedToo() async throws {
        let provider = Self.openAI(Self.whole(String(repeating: "b", count: 200_000)), key: nil, limit: 100_000)
        await #expect(throws: ProviderError.self) { try await provider.complete(Self.request) }
    }

    @Test func aReplyWithNullContentIsAnErrorNotAFail() async throws {
        let body = #"{"id":"x","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null},"finish_reason":"stop"}]}"#
        do {
            _ = try await Self.openAI(ChunkedTransport(chunks: [body]), key: nil).complete(Self.request)
            Issue.record("a reply without content was accepted (and would have been scored as a fail)")
        } catch let error as ProviderError {
            #expect(error.code == .malformedResponse)
            #expect(error.message.contains("no content"))
        }
        // A filtered reply explains its own emptiness, and is scored.
        let filtered = body.replacingOccurrences(of: "\"stop\"", with: "\"content_filter\"")
        let reply = try await Self.openAI(ChunkedTransport(chunks: [filtered]), key: nil).complete(Self.request)
        #expect(reply.text.isEmpty && reply.finishReason == .contentFilter)
    }

    @Test func aRedirectIsAnErrorNeverFollowed() async throws {
        let redirect = ChunkedTransport(status: 302, headers: [HTTPHeader("location", "http://elsewhere.example/v1")], chunks: [""])
        do {
            _ = try await Self.openAI(redirect, key: "sk-abcdef").complete(Self.request)
            Issue.record("a redirect was scored")
        } catch let error as ProviderError {
            #expect(error.code == .configuration && error.status == 302)
            #expect(error.message.contains("http://elsewhere.example/v1"))
        }
        await #expect(throws: ProviderError.self) {
            for try await _ in Self.openAI(redirect, key: nil).stream(Self.request) {}
        }
    }
}

/// What the probes of the secrets issue found the redactor missed.
@Suite struct RedactorReachTests {
    /// A key broken by a line break (a script that wraps its output) or spelled out with spaces.
    @Test func aKeyBrokenBySpacesOrLineBreaksIsRedacted() {
        let redactor = SecretRedactor(secrets: ["sk-Zq9PLMNOxyzw7781AbCdEf"])
        #expect(redactor.redact("key=sk-Zq9PLMN\nOxyzw7781AbCdEf") == "key=[redacted]")
        #expect(redactor.redact("s k - Z q 9 P L M N O x y z w 7 7 8 1 A b C d E f!") == "[redacted]!")
        #expect(redactor.redact("a plain sentence") == "a plain sentence")
    }

    /// Names the first list missed, values in a key's shape whatever their name, and a URL's password.
    @Test func secretLookingVariablesAreFoundByNameShapeAndURL() {
        let redactor = SecretRedactor.environment([
            "GH_PAT": "ghp_patvalue1234", "PRIVATE_PEM": "pem_value_1234", "SESSION_COOKIE": "cookie-value-99",
            "BEARER": "bearer-value-1", "Passphrase": "correct horse", "SIGNING_CERT": "c3rtAbcdef123456",
            "DATABASE_URL": "postgres://u:dbpass_1234@h/db", "UPSTREAM": "sk-proj-abcdefghij0123456789",
            "SESSION_NAME": "main", "EDITOR": "vim",
        ])
        for secret in ["ghp_patvalue1234", "pem_value_1234", "cookie-value-99", "bearer-value-1", "correct horse", "c3rtAbcdef123456",
                       "dbpass_1234", "sk-proj-abcdefghij0123456789"] {
            #expect(redactor.redact("x \(secret) y") == "x [redacted] y", "\(secret)")
        }
        // A weak name with an ordinary value, and an ordinary variable, are not secrets.
        #expect(redactor.redact("main vim") == "main vim")
    }

    /// Kept files (cassettes, the cache): a key in pieces of 8 or more characters leaves none.
    @Test func aKeyInPiecesLeavesNoPieceInAKeptFile() {
        let redactor = SecretRedactor(secrets: ["sk-live-Rt5YhQ2wXz9KpL"])
        let scrubbed = redactor.scrubbingFragments("sk-live-Rt5 and then YhQ2wXz9KpL What next?", with: "[scrubbed]")
        #expect(!scrubbed.contains("sk-live-") && !scrubbed.contains("YhQ2wXz9"), "\(scrubbed)")
        #expect(scrubbed.hasSuffix("What next?"))
    }
}
