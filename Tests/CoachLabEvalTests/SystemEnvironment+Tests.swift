import CoachLabProviders
import Foundation
import Testing

extension SystemEnvironment {
    /// Nothing outside the test: the mock needs none of it, so any use of the disk, the
    /// network, variables, the clock, sleeping or randomness is recorded as an issue.
    static var tests: SystemEnvironment { .unimplemented { Issue.record(Comment(rawValue: $0)) } }

    /// Requests to a local server on loopback; retries wait no time and have no jitter.
    static var loopback: SystemEnvironment {
        var system = tests
        system.transport = AsyncHTTPClientTransport.shared
        system.sleep = { _ in }
        system.random = { 0 }
        system.now = { Date(timeIntervalSince1970: 1_700_000_000) }
        return system
    }
}
