import CoachLabEval
import CoachLabProviders
import Testing

@Suite struct RunBudgetTests {
    static func result(cost: Double) -> CaseResult {
        let turn = TurnResult(turn: 1, user: "u", reply: "r", checks: [], latency: 0, inputTokens: 1, outputTokens: 1, usageEstimated: false,
                              cost: cost, finishReason: "stop", promptHash: "h")
        return CaseResult(suite: "s", fixture: "f", provider: "p", model: "m", repeatIndex: 1, outcome: .pass, score: 1, turns: [turn], error: nil, tags: [])
    }

    /// It stops once spent plus the cases in flight (at the mean cost so far) would pass the limit, and says so once.
    @Test func itStopsBeforeTheCasesInFlightWouldPassTheLimit() {
        let budget = RunBudget(limit: 1.0)
        #expect(!budget.record(Self.result(cost: 0.2), inFlight: 2), "0.2 + 2 × 0.2 = 0.6")
        #expect(!budget.record(Self.result(cost: 0.2), inFlight: 2), "0.4 + 2 × 0.2 = 0.8")
        #expect(!budget.record(Self.result(cost: 0.2), inFlight: 2), "0.6 + 2 × 0.2 = 1.0, which the limit allows")
        #expect(budget.record(Self.result(cost: 0.2), inFlight: 2), "0.8 + 2 × 0.2 = 1.2: stop")
        #expect(!budget.record(Self.result(cost: 0.2), inFlight: 0), "stopping is said once")
        #expect(budget.stopped && abs(budget.spent - 1.0) < 1e-9)
    }
}
