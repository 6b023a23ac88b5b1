import CoachLabProviders
import Foundation
import Testing

extension SystemEnvironment {
    /// Nothing outside the test: any use of the disk, the network, variables, the clock,
    /// sleeping or randomness is recorded as an issue of the test that caused it.
    static var tests: SystemEnvironment { .unimplemented { Issue.record(Comment(rawValue: $0)) } }

    /// Requests through `transport`; waits go to `sleep` (none by default); no jitter; a fixed clock.
    static func tests(transport: any HTTPTransport, sleep: @escaping @Sendable (Double) async throws -> Void = { _ in },
                      variables: [String: String] = [:]) -> SystemEnvironment {
        var system = SystemEnvironment.tests
        system.transport = transport
        system.sleep = sleep
        system.variables = variables
        system.random = { 0 }
        system.now = { Date(timeIntervalSince1970: 1_700_000_000) }
        return system
    }
}
