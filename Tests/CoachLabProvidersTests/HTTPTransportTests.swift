@testable import CoachLabProviders
import Testing

/// The client behind every live request: what it adds to or takes from a provider's settings.
@Suite struct HTTPTransportTests {
    /// A request's own timeout is the only limit on waiting for its answer. AsyncHTTPClient's
    /// singleton configuration also ends a response after 90 s without a byte, which would cut
    /// short a request given longer (`--timeout 300` to a slow local model) and report it as
    /// a timeout of the longer limit.
    @Test func addsNoReadTimeoutOfItsOwn() {
        let configuration = AsyncHTTPClientTransport.configuration
        #expect(configuration.timeout.read == nil)
        #expect(configuration.timeout.connect == .seconds(10))
    }

    /// Connection set-up is not retried behind the provider's own policy, and a provider's
    /// configured concurrency (64 in the benchmarks) is not capped by the pool.
    @Test func leavesRetriesAndConcurrencyToTheProvider() {
        let configuration = AsyncHTTPClientTransport.configuration
        #expect(configuration.connectionPool.retryConnectionEstablishment == false)
        #expect(configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit >= 64)
    }
}
