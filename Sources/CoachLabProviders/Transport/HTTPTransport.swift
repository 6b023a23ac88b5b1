import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A response whose body arrives as it is read.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The headers.
    public var headers: [HTTPHeader]
    /// The body, chunk by chunk.
    public var body: AsyncThrowingStream<[UInt8], Error>

    public init(status: Int, headers: [HTTPHeader], body: AsyncThrowingStream<[UInt8], Error>) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Sends HTTP requests. Providers take one, so tests can point them at any server, and the
/// network stays out of the pure core.
public protocol HTTPTransport: Sendable {
    /// Sends a request; `timeout` bounds the whole exchange, body included.
    /// - Throws: ``ProviderError`` (`timeout`, `network`) or `CancellationError`.
    func send(_ request: HTTPRequestSpec, timeout: Double, provider: String) async throws -> HTTPResponse
}

/// The transport over AsyncHTTPClient, which streams bodies on Linux (`URLSession.bytes`
/// does not exist there).
public struct AsyncHTTPClientTransport: HTTPTransport {
    private let client: HTTPClient

    /// One client for the whole process. It is AsyncHTTPClient's singleton configuration
    /// with more connections per host: the default (8) would cap an eval at 8 requests in
    /// flight to a provider whose configured concurrency is 64. It lives as long as the
    /// process, so it is never shut down.
    public static let shared = dedicated()

    /// A transport with a connection pool of its own, configured as ``shared`` is: for code
    /// that must not share idle connections with the rest of the process (tests that start
    /// and stop many local servers, whose ports the system may hand out again). Make one per
    /// process and keep it, or call ``shutdown()`` when done: a client must be shut down
    /// before it is released.
    public static func dedicated() -> AsyncHTTPClientTransport {
        AsyncHTTPClientTransport(client: HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration))
    }

    /// The client configuration of ``shared`` and ``dedicated()``: AsyncHTTPClient's singleton
    /// configuration with these changes.
    static var configuration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 256
        // A redirect would resend the request, key included, to wherever it points, and a
        // 302 turns the POST into a body-less GET. The provider reports it as an error instead.
        configuration.redirectConfiguration = .disallow
        // A refused or unreachable server fails the attempt at once (or after 10 s), and the
        // provider's own retry policy decides what happens next. AsyncHTTPClient's own
        // retrying would hold every attempt until its deadline: four minutes to report that
        // a local server is not running.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(10)
        // Each request's own timeout (--timeout, a provider's `timeout:`) bounds it whole: a
        // deadline until the response head, then a watchdog over the body (``send``). The
        // singleton's 90 s idle-read timeout would end a slower answer early, and report it as
        // a timeout of the longer limit: a local model given 300 s that thinks for 100 s before
        // its first byte would fail at 90 s.
        configuration.timeout.read = nil
        return configuration
    }

    /// Uses the given client.
    public init(client: HTTPClient) { self.client = client }

    /// Shuts the client down, for a ``dedicated()`` transport whose owner is done with it:
    /// requests still running fail, and its idle connections close.
    public func shutdown() async throws { try await client.shutdown() }

    public func send(_ spec: HTTPRequestSpec, timeout: Double, provider: String) async throws -> HTTPResponse {
        var request = HTTPClientRequest(url: spec.url)
        request.method = HTTPMethod(rawValue: spec.method)
        for header in spec.headers { request.headers.add(name: header.name, value: header.value) }
        request.body = .bytes(ByteBuffer(bytes: spec.body))
        let deadline = NIODeadline.now() + .nanoseconds(Int64(max(timeout, 0.001) * 1e9))
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, deadline: deadline)
        } catch {
            throw Self.classify(error, provider: provider, timeout: timeout)
        }
        let headers = response.headers.map { HTTPHeader($0.name, $0.value) }
        let body = response.body
        // AsyncHTTPClient's deadline covers the exchange only until the response head; a
        // watchdog bounds the body too, so a stalled stream still times out.
        let stream = AsyncThrowingStream<[UInt8], Error> { continuation in
            let reader = Task {
                do {
                    for try await buffer in body {
                        continuation.yield(Array(buffer.readableBytesView))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: Self.classify(error, provider: provider, timeout: timeout))
                }
            }
            let watchdog = Task {
                let remaining = deadline.uptimeNanoseconds > NIODeadline.now().uptimeNanoseconds
                    ? deadline.uptimeNanoseconds - NIODeadline.now().uptimeNanoseconds : 0
                try await Task.sleep(nanoseconds: remaining)
                continuation.finish(throwing: ProviderError(.timeout, provider: provider, message: "no complete answer within \(timeout) s"))
                reader.cancel()
            }
            continuation.onTermination = { _ in
                reader.cancel()
                watchdog.cancel()
            }
        }
        return HTTPResponse(status: Int(response.status.code), headers: headers, body: stream)
    }

    static func classify(_ error: Error, provider: String, timeout: Double) -> Error {
        if error is CancellationError || error is ProviderError { return error }
        if let client = error as? HTTPClientError {
            if client == .deadlineExceeded || client == .readTimeout || client == .connectTimeout || client == .writeTimeout {
                return ProviderError(.timeout, provider: provider, message: "no complete answer within \(timeout) s")
            }
            if client == .cancelled { return CancellationError() }
            if client == .remoteConnectionClosed {
                return ProviderError(.streamInterrupted, provider: provider, message: "the server closed the connection mid-response")
            }
        }
        return ProviderError(.network, provider: provider, message: "\(error)")
    }
}
