import CoachLab
import Foundation

/// Record and replay of provider exchanges. In `record` mode every request goes to the real
/// transport and its response is written to one small JSON file, keyed by a hash of the
/// provider id and the exact wire request (method, URL and body, which carry the model and
/// every setting). In `replay` mode the file answers and nothing is sent: a request with no
/// file (a changed compiled prompt, a changed setting) fails as stale and is never sent live.
///
/// Key-bearing headers are never written, and their values are scrubbed from everything
/// that is, so a cassette can be committed.
public struct CassetteTransport: HTTPTransport {
    public enum Mode: String, Sendable {
        case record, replay
    }

    public let mode: Mode
    /// The folder of cassettes: `<directory>/<provider>/<key>.json`.
    public let directory: String
    /// Where the cassettes are read and written.
    private let fileSystem: FileSystem
    private let live: (any HTTPTransport)?
    /// Secrets besides the request's own keys that a recorded answer may not repeat.
    private var redactor = SecretRedactor(secrets: [])

    /// A recording transport over `live`, writing to `directory` of `fileSystem`. An answer
    /// that repeats a key, of the request's or of `redactor`'s, in any form a reader could put
    /// back together (``SecretRedactor/isExposed(in:)``), is never written: the request fails
    /// with a configuration error that says so.
    public static func recording(to directory: String, through live: any HTTPTransport, fileSystem: FileSystem,
                                 redactor: SecretRedactor = SecretRedactor(secrets: [])) -> CassetteTransport {
        var transport = CassetteTransport(mode: .record, directory: directory, fileSystem: fileSystem, live: live)
        transport.redactor = redactor
        return transport
    }

    /// A replaying transport, reading `directory` of `fileSystem`: no network.
    public static func replaying(from directory: String, fileSystem: FileSystem) -> CassetteTransport {
        CassetteTransport(mode: .replay, directory: directory, fileSystem: fileSystem, live: nil)
    }

    private init(mode: Mode, directory: String, fileSystem: FileSystem, live: (any HTTPTransport)?) {
        self.mode = mode
        self.directory = directory
        self.fileSystem = fileSystem
        self.live = live
    }

    /// Headers whose values are secrets, lower-cased.
    static let secretHeaders: Set<String> = ["authorization", "proxy-authorization", "x-api-key", "api-key", "x-goog-api-key", "cookie", "set-cookie"]

    /// The cassette key of a request: FNV-1a over the provider id and the wire request, with
    /// secrets scrubbed so that a key change does not make every cassette stale.
    public static func key(for spec: HTTPRequestSpec, provider: String) -> String {
        let secrets = secretValues(spec)
        let body = scrub(String(decoding: spec.body, as: UTF8.self), secrets)
        let canonical = [provider, spec.method, scrub(spec.url, secrets), body].joined(separator: "\n")
        // Two independent 64-bit halves make an accidental collision implausible.
        return StableHash.hex(canonical) + StableHash.hex("cassette\u{0}" + canonical)
    }

    /// The file a request's cassette lives in.
    public func path(for spec: HTTPRequestSpec, provider: String) -> String {
        "\(directory)/\(Self.safeName(provider))/\(Self.key(for: spec, provider: provider)).json"
    }

    public func send(_ spec: HTTPRequestSpec, timeout: Double, provider: String) async throws -> HTTPResponse {
        let file = path(for: spec, provider: provider)
        switch mode {
        case .replay:
            guard let data = try? fileSystem.read(file) else {
                let folder = "\(directory)/\(Self.safeName(provider))"
                guard fileSystem.exists(folder) else {
                    // Nothing was ever recorded for this provider here: not stale, missing.
                    throw ProviderError(.configuration, provider: provider,
                                        message: "no cassettes were recorded for provider '\(provider)' in \(directory): record them once with coachlab eval --record (the provider's key set), then commit \(folder)")
                }
                throw ProviderError(.configuration, provider: provider,
                                    message: "stale: re-record (no cassette \(file) for this request; the compiled prompt or a setting changed since recording, so run coachlab eval --record)")
            }
            let cassette: Cassette
            do { cassette = try JSONDecoder().decode(Cassette.self, from: data) } catch {
                throw ProviderError(.configuration, provider: provider, message: "the cassette \(file) cannot be read: \(error)")
            }
            return HTTPResponse(status: cassette.response.status, headers: cassette.response.headers.map { HTTPHeader($0.key, $0.value) },
                                body: Self.stream(Array(cassette.response.body.utf8)))
        case .record:
            guard let live else { throw ProviderError(.configuration, provider: provider, message: "no transport to record from") }
            let response = try await live.send(spec, timeout: timeout, provider: provider)
            var body: [UInt8] = []
            for try await chunk in response.body { body += chunk }
            // Only successful exchanges are kept: a 429 or 500 must be retried live, not replayed.
            if (200..<300).contains(response.status) {
                let cassette = Cassette(spec: spec, provider: provider, status: response.status, headers: response.headers, body: body,
                                        secrets: redactor.secrets)
                // Scrubbing replaces a key written out whole; one spelled across the events of
                // a stream survives it, and such an answer is never written.
                if cassette.exposes(redactor.secrets + Self.secretValues(spec)) {
                    throw ProviderError(.configuration, provider: provider,
                                        message: "the answer spells out an API key across its streamed events, so it was not recorded: a cassette is meant to be committed (record this case against a server that does not echo keys)")
                }
                try write(cassette, to: file)
            }
            return HTTPResponse(status: response.status, headers: response.headers, body: Self.stream(body))
        }
    }

    private func write(_ cassette: Cassette, to file: String) throws {
        let encoder = JSONEncoder.sorted(pretty: true)
        do {
            try fileSystem.write(encoder.encode(cassette) + Data("\n".utf8), to: file)
        } catch {
            let reason = (error as? CoachLabError)?.diagnostics.first?.message ?? error.localizedDescription
            throw ProviderError(.configuration, provider: cassette.provider, message: "cannot write the cassette \(file): \(reason)")
        }
    }

    static func stream(_ bytes: [UInt8]) -> AsyncThrowingStream<[UInt8], Error> {
        AsyncThrowingStream { continuation in
            if !bytes.isEmpty { continuation.yield(bytes) }
            continuation.finish()
        }
    }

    static func secretValues(_ spec: HTTPRequestSpec) -> [String] {
        spec.headers.filter { $0.isSecret || secretHeaders.contains($0.name.lowercased()) }.flatMap { header -> [String] in
            // "Bearer sk-…" also hides the bare key, wherever it was echoed, however short a
            // key the redactor would hide (the scheme's own word is not a secret).
            let schemes: Set<String> = ["bearer", "basic", "token", "digest"]
            let parts = header.value.split(separator: " ").map(String.init)
                .filter { $0.count >= SecretRedactor.minimumLength && !schemes.contains($0.lowercased()) }
            return [header.value] + parts
        }
    }

    static func scrub(_ text: String, _ secrets: [String]) -> String {
        var text = text
        for secret in secrets where !secret.isEmpty {
            // In any case: a server that upper-cases the key it echoes must not leak it.
            text = text.replacingOccurrences(of: secret, with: "[scrubbed]", options: .caseInsensitive)
        }
        // A key passed as a query parameter (?key=…) goes too.
        if let range = text.range(of: #"([?&](key|api_key|apikey)=)[^&#\s"]+"#, options: .regularExpression) {
            let name = text[range].prefix { $0 != "=" }
            text.replaceSubrange(range, with: name + "=[scrubbed]")
        }
        return text
    }

    static func safeName(_ provider: String) -> String {
        String(provider.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" })
    }
}

/// One recorded exchange, as committed under `fixtures/cassettes/`.
struct Cassette: Codable {
    struct Request: Codable {
        var method: String
        var url: String
        var headers: [String: String]
        /// The body as JSON when it is JSON (so a review shows the prompt), else as text.
        var body: JSONValue
    }

    struct Response: Codable {
        var status: Int
        var headers: [String: String]
        var body: String
    }

    var format = 1
    var provider: String
    var key: String
    var request: Request
    var response: Response
    /// When a response cache stored it (ISO 8601); nil in a committed cassette.
    var savedAt: String?

    /// The exchange with the request's keys, and `secrets`, scrubbed from everything written.
    init(spec: HTTPRequestSpec, provider: String, status: Int, headers: [HTTPHeader], body: [UInt8], secrets extra: [String] = []) {
        let secrets = CassetteTransport.secretValues(spec) + extra.filter { $0.count >= SecretRedactor.minimumLength }
        // Whole, broken by spaces or line breaks, or in pieces of 8 characters or more.
        let pieces = SecretRedactor(secrets: secrets)
        let scrub = { (text: String) in pieces.scrubbingFragments(CassetteTransport.scrub(text, secrets), with: "[scrubbed]") }
        self.provider = provider
        key = CassetteTransport.key(for: spec, provider: provider)
        var requestHeaders: [String: String] = [:]
        for header in spec.headers {
            let secret = header.isSecret || CassetteTransport.secretHeaders.contains(header.name.lowercased())
            requestHeaders[header.name.lowercased()] = secret ? "[scrubbed]" : scrub(header.value)
        }
        let requestText = scrub(String(decoding: spec.body, as: UTF8.self))
        request = Request(method: spec.method, url: scrub(spec.url), headers: requestHeaders,
                          body: (try? JSONValue.parse(Data(requestText.utf8))) ?? .string(requestText))
        // Of the response headers only the content type matters for decoding; request ids and
        // cookies would only make every re-recording a diff.
        let kept = headers.filter { $0.name.lowercased() == "content-type" }.map { ($0.name.lowercased(), $0.value) }
        response = Response(status: status, headers: Dictionary(kept) { first, _ in first }, body: scrub(String(decoding: body, as: UTF8.self)))
    }
}

extension Cassette {
    /// Whether the scrubbed response still holds one of `secrets` in a form a reader can put
    /// back together (``SecretRedactor/isExposed(in:)``).
    func exposes(_ secrets: [String]) -> Bool {
        SecretRedactor(secrets: secrets).isExposed(in: response.body)
    }
}
