@testable import CoachLab
@testable import CoachLabEval
import CoachLabProviders
import Foundation
import Testing

/// The JSON report writes each case itself; the text must be what `JSONEncoder.sorted(pretty:
/// true)` gives for the same case, indented as the report nests it, byte for byte.
@Suite struct CaseJSONTests {
    /// The encoder's text for a case, each line after the first indented as the report nests it.
    static func encoded(_ result: CaseResult, indent: Int) throws -> String {
        let text = String(decoding: try JSONEncoder.sorted(pretty: true).encode(result), as: UTF8.self)
        return text.replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: indent))
    }

    /// The first line where two texts differ, for a readable failure.
    static func firstDifference(_ a: String, _ b: String) -> String {
        let (left, right) = (a.components(separatedBy: "\n"), b.components(separatedBy: "\n"))
        for index in 0..<max(left.count, right.count) where left.indices.contains(index) != right.indices.contains(index)
            || (left.indices.contains(index) && left[index] != right[index]) {
            return "line \(index + 1): \(left.indices.contains(index) ? left[index].debugDescription : "-") against "
                + (right.indices.contains(index) ? right[index].debugDescription : "-")
        }
        return "no difference"
    }

    static let alphabet: [String] = ["a", "Z", "7", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{8}", "\u{C}", "\u{1}", "\u{1F}",
                                     "\u{7F}", "é", "😀", "\u{2028}", ":", "{", "]", ",", "\r\n", "\u{0}"]

    static func text(_ generator: inout SeededGenerator) -> String {
        (0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }.joined()
    }

    static func number(_ generator: inout SeededGenerator) -> Double {
        switch Int.random(in: 0..<8, using: &generator) {
        case 0: return [0, -0.0, 1, 0.5, 100, 1e15, 1e16, 1e-5, 1e21, 0.1 + 0.2, Double.leastNonzeroMagnitude].randomElement(using: &generator)!
        case 1: return Double(Int.random(in: -1_000_000...1_000_000, using: &generator))
        case 2: return Double.random(in: 0...1, using: &generator)
        case 3: return Double.random(in: -1e20...1e20, using: &generator)
        case 4: return Double.random(in: 0...1e-3, using: &generator)
        case 5: return Double(sign: .plus, exponent: Int.random(in: -1000...1000, using: &generator),
                              significand: Double.random(in: 1..<2, using: &generator))
        default: return (Double.random(in: 0...100, using: &generator) * 1000).rounded() / 1000
        }
    }

    static func maybe<T>(_ generator: inout SeededGenerator, _ make: (inout SeededGenerator) -> T) -> T? {
        Bool.random(using: &generator) ? make(&generator) : nil
    }

    static func list(_ generator: inout SeededGenerator) -> [String] {
        (0..<Int.random(in: 0...3, using: &generator)).map { _ in text(&generator) }
    }

    static func flag(_ generator: inout SeededGenerator) -> GuardrailFlag {
        GuardrailFlag(ruleId: text(&generator), ruleTitle: text(&generator), priority: Int.random(in: -5...100, using: &generator),
                      stage: Int.random(in: 1...2, using: &generator),
                      kind: [.keyword, .frame, .lexicon, .pattern, .classifier].randomElement(using: &generator)!,
                      matched: text(&generator), excerpt: text(&generator), start: Int.random(in: 0...500, using: &generator),
                      end: Int.random(in: 0...500, using: &generator), lexiconEntries: maybe(&generator, list))
    }

    static func turn(_ generator: inout SeededGenerator) -> TurnResult {
        let checks = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
            CheckResult(check: text(&generator), passed: Bool.random(using: &generator), score: number(&generator),
                        reason: text(&generator), weight: number(&generator))
        }
        var turn = TurnResult(turn: Int.random(in: 0...20, using: &generator), user: text(&generator), reply: text(&generator), checks: checks,
                              flaggedRule: maybe(&generator, text), flag: maybe(&generator, flag), latency: number(&generator),
                              timeToFirstToken: maybe(&generator, number), inputTokens: Int.random(in: 0...100_000, using: &generator),
                              outputTokens: Int.random(in: 0...4_000, using: &generator), usageEstimated: Bool.random(using: &generator),
                              cost: maybe(&generator, number), finishReason: text(&generator), promptHash: text(&generator))
        turn.sanitized = maybe(&generator, list)
        turn.cached = Bool.random(using: &generator)
        turn.simulated = Bool.random(using: &generator)
        return turn
    }

    static func result(_ generator: inout SeededGenerator) -> CaseResult {
        CaseResult(suite: text(&generator), fixture: text(&generator), provider: text(&generator), model: text(&generator),
                   repeatIndex: Int.random(in: 1...10, using: &generator), outcome: [.pass, .fail, .error].randomElement(using: &generator)!,
                   score: number(&generator), turns: (0..<Int.random(in: 0...3, using: &generator)).map { _ in turn(&generator) },
                   error: maybe(&generator, text), tags: list(&generator), pack: text(&generator))
    }

    @Test func randomCasesAreWrittenAsTheEncoderWritesThem() throws {
        var generator = SeededGenerator(seed: 1127)
        for round in 0..<3_000 {
            let result = Self.result(&generator)
            let indent = round % 3 == 0 ? 0 : 4
            let written = try CaseJSON.text(result, indent: indent)
            let expected = try Self.encoded(result, indent: indent)
            #expect(written == expected, "\(Self.firstDifference(written, expected))")
            if written != expected { return }
        }
    }

    /// A shipped suite's real cases, run on the mock, are written as the encoder writes them.
    @Test func aRealRunsCasesAreWrittenAsTheEncoderWritesThem() async throws {
        let store = try ResultStore(clock: Date.init)
        var request = EvalRequest()
        request.suites = ["evals/betterone.yaml"]
        let plan = try EvalPlan.make(request, registry: ProviderRegistry(system: .tests), store: store,
                                     catalog: SuiteCatalog(fileSystem: EvalSupport.fileSystem())) { _, _ in MockProvider() }
        _ = try await RunExecution.run(plan, store: store)
        let cases = try RunReport(run: plan.run, suites: plan.suites.map(\.suite), store: store).allCases()
        #expect(cases.count > 10)
        #expect(cases.contains { $0.turns.contains { $0.flaggedRule != nil } }, "some turn is flagged")
        for result in cases {
            #expect(try CaseJSON.text(result, indent: 4) == Self.encoded(result, indent: 4))
        }
    }

    /// A number that is not finite is refused, as the encoder refuses it.
    @Test func aNumberThatIsNotFiniteIsRefused() {
        var result = CaseResult(suite: "s", fixture: "f", provider: "mock", model: "m", repeatIndex: 1, outcome: .pass, score: .nan,
                                turns: [], error: nil, tags: [])
        #expect(throws: EncodingError.self) { try CaseJSON.text(result, indent: 0) }
        #expect(throws: EncodingError.self) { try Self.encoded(result, indent: 0) }
        result.score = .infinity
        #expect(throws: EncodingError.self) { try CaseJSON.text(result, indent: 0) }
    }
}
