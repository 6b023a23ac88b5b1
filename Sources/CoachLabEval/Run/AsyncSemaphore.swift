/// Limits how many calls run at once (per provider). Waiters resume in order; a cancelled
/// waiter gives up its place.
actor AsyncSemaphore {
    private var available: Int
    private var waiters: [(id: Int, continuation: CheckedContinuation<Void, Error>)] = []
    private var nextId = 0

    init(_ limit: Int) { available = max(1, limit) }

    func acquire() async throws {
        if available > 0 {
            available -= 1
            return
        }
        let id = nextId
        nextId += 1
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiters.append((id, continuation))
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
    }

    func release() {
        if waiters.isEmpty {
            available += 1
        } else {
            waiters.removeFirst().continuation.resume()
        }
    }

    private func cancel(_ id: Int) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(throwing: CancellationError())
    }

    /// Runs `body` holding one permit.
    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await acquire()
        defer { release() }
        return try await body()
    }
}
