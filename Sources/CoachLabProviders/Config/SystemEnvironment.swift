import CoachLab
import Foundation

/// Everything outside the process that providers and the runner touch, as one value: the file
/// system, environment variables, the HTTP transport, the clock, sleeping and randomness.
/// The command-line tool passes ``live``; a test passes ``unimplemented(report:)`` with just
/// the parts it means to use filled in, so a use it did not plan for is reported instead of
/// silently reading the disk, the network, the real clock or the user's API keys.
public struct SystemEnvironment: Sendable {
    /// Reads content: packs named by a provider configuration, `providers.yaml`.
    public var fileSystem: FileSystem
    /// Environment variables: API keys, and the secrets removed from replies.
    public var variables: [String: String]
    /// Sends HTTP requests.
    public var transport: any HTTPTransport
    /// The current time (a `Retry-After` date is counted from it).
    public var now: @Sendable () -> Date
    /// Waits this many seconds (between retries).
    public var sleep: @Sendable (Double) async throws -> Void
    /// A number in 0..<1 (retry jitter).
    public var random: @Sendable () -> Double

    /// Creates an environment from its parts.
    public init(fileSystem: FileSystem, variables: [String: String], transport: any HTTPTransport,
                now: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (Double) async throws -> Void,
                random: @escaping @Sendable () -> Double) {
        self.fileSystem = fileSystem
        self.variables = variables
        self.transport = transport
        self.now = now
        self.sleep = sleep
        self.random = random
    }

    /// The real thing: the disk, the process's environment variables, AsyncHTTPClient, the
    /// system clock, `Task.sleep` and the system's random numbers.
    public static var live: SystemEnvironment {
        SystemEnvironment(fileSystem: .live, variables: ProcessInfo.processInfo.environment, transport: SharedClientTransport(),
                          now: { Date() }, sleep: { try await Task.sleep(nanoseconds: UInt64(max(0, $0) * 1e9)) },
                          random: { Double.random(in: 0..<1) })
    }

    /// An environment none of whose parts is implemented: each use calls `report` with what
    /// was used, then fails where it can (reads, requests and sleeps throw) or answers inertly
    /// where it cannot (no variables, the reference date, 0). Tests set the parts they need
    /// and pass `Issue.record` as `report`.
    public static func unimplemented(report: @escaping @Sendable (String) -> Void) -> SystemEnvironment {
        let missing = { @Sendable (part: String) -> Error in
            report("SystemEnvironment.\(part) was used but not given")
            return Unimplemented(part: part)
        }
        return SystemEnvironment(
            fileSystem: FileSystem(read: { _ in throw missing("fileSystem") }, list: { _ in throw missing("fileSystem") },
                                   isDirectory: { _ in _ = missing("fileSystem"); return false },
                                   exists: { _ in _ = missing("fileSystem"); return false },
                                   write: { _, _, _ in throw missing("fileSystem") }, remove: { _ in throw missing("fileSystem") }),
            variables: [:],
            transport: UnimplementedTransport(missing: missing),
            now: { _ = missing("now"); return Date(timeIntervalSinceReferenceDate: 0) },
            sleep: { _ in throw missing("sleep") },
            random: { _ = missing("random"); return 0 })
    }
}

extension SystemEnvironment {
    /// What a part of ``unimplemented(report:)`` throws when used.
    public struct Unimplemented: Error, CustomStringConvertible {
        /// The part used: fileSystem, transport, sleep…
        public var part: String
        public var description: String { "SystemEnvironment.\(part) is not implemented here" }
    }
}

/// The process's shared AsyncHTTPClient, created by the first request: a run that never
/// leaves the process (the embedded mock, a cassette) never starts its event-loop threads.
private struct SharedClientTransport: HTTPTransport {
    func send(_ request: HTTPRequestSpec, timeout: Double, provider: String) async throws -> HTTPResponse {
        try await AsyncHTTPClientTransport.shared.send(request, timeout: timeout, provider: provider)
    }
}

/// The transport of ``SystemEnvironment/unimplemented(report:)``: every request fails.
private struct UnimplementedTransport: HTTPTransport {
    let missing: @Sendable (String) -> Error

    func send(_ request: HTTPRequestSpec, timeout: Double, provider: String) async throws -> HTTPResponse {
        throw missing("transport")
    }
}
