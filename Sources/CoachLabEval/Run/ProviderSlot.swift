import CoachLabProviders

/// A provider a run calls, with its configuration and the limit on its calls at once, shared by
/// every case of the run that calls it: as the coach, a judge, an embedder or a simulated user.
public struct ProviderSlot: Sendable {
    public var provider: any ChatProvider
    public var configuration: ProviderConfiguration
    var semaphore: AsyncSemaphore

    init(provider: any ChatProvider, configuration: ProviderConfiguration, semaphore: AsyncSemaphore) {
        self.provider = provider
        self.configuration = configuration
        self.semaphore = semaphore
    }

    /// Runs `body` holding one of the provider's places, waiting for one when all are taken.
    public func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await semaphore.run(body)
    }
}
