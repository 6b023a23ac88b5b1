import CoachLab
import CoachLabProviders
import Foundation
import Testing

/// Counts classifier calls and answers with a fixed text.
final class FixedAnswerProvider: ChatProvider, @unchecked Sendable {
    let id = "fixed"
    let model = "fixed"
    let answer: String
    private let lock = NSLock()
    private var count = 0
    var calls: Int { lock.withLock { count } }

    init(_ answer: String) { self.answer = answer }

    func complete(_ request: ChatRequest) async throws -> ProviderReply {
        lock.withLock { count += 1 }
        return try await CannedProvider(replies: [answer]).complete(request)
    }

    func stream(_ request: ChatRequest) -> AsyncThrowingStream<StreamEvent, Error> {
        (try? CannedProvider(replies: [answer]))?.stream(request) ?? AsyncThrowingStream { $0.finish() }
    }
}

@Suite struct TwoStageScreenerTests {
    static let pack = try! PackLoader(fileSystem: .live).load("personas/betterone").get()

    @Test func stageTwoRunsOnlyWhenStageOneFoundNothingUnlessThePackSaysAlways() async throws {
        let classifier = FixedAnswerProvider("FLAGGED|No financial or legal advice|money")
        let screener = TwoStageScreener(pack: Self.pack, classifier: classifier)
        let keyword = try await screener.screen("Do I have ADHD?")
        #expect(keyword.verdict == nil && classifier.calls == 0)
        #expect(keyword.screening.decision?.ruleId == "no-diagnosis")

        let missed = try await screener.screen("My finances are a mess.")
        #expect(classifier.calls == 1)
        #expect(missed.screening.decision?.stage == 2 && missed.screening.decision?.ruleId == "no-financial-legal")

        var always = Self.pack
        always.defaults.stage2Always = true
        let both = try await TwoStageScreener(pack: always, classifier: classifier).screen("Do I have ADHD?")
        #expect(classifier.calls == 2)
        // Stage 1's higher-priority rule still decides; the classifier's flag is kept beside it.
        #expect(both.screening.flags.map(\.ruleId) == ["no-diagnosis", "no-financial-legal"])
    }

    @Test func anUnparsableAnswerIsUnknownAndFlagsNothing() async throws {
        let outcome = try await TwoStageScreener(pack: Self.pack, classifier: FixedAnswerProvider("Seems fine to me!"))
            .screen("My finances are a mess.")
        #expect(outcome.isUnknown)
        #expect(!outcome.screening.isFlagged)
        #expect(outcome.answer == "Seems fine to me!")
    }

    @Test func thePackSettingIsRead() throws {
        let pack = try PackLoader(fileSystem: .inMemory(["p/pack.yaml": """
            pack: {id: p, name: P}
            stack: {layers: [{id: a, template: x}]}
            defaults: {screening: {stage2: always}}
            """])).load("p").get()
        #expect(pack.defaults.stage2Always)
        #expect(!Self.pack.defaults.stage2Always)
    }
}
