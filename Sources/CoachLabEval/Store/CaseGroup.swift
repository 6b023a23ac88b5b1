/// The repeats of one case in a run, counted by ``ResultStore/suiteCounts(run:)``.
struct CaseGroup {
    /// Compared by bytes, as SQLite compares text: Swift's `==` would take "é" and "e\u{301}"
    /// for one fixture.
    struct Key: Hashable {
        var suite: String
        var fixture: String
        var provider: String

        static func == (left: Key, right: Key) -> Bool {
            left.suite.utf8.elementsEqual(right.suite.utf8) && left.fixture.utf8.elementsEqual(right.fixture.utf8)
                && left.provider.utf8.elementsEqual(right.provider.utf8)
        }

        func hash(into hasher: inout Hasher) {
            Self.combine(suite, into: &hasher)
            Self.combine(fixture, into: &hasher)
            Self.combine(provider, into: &hasher)
        }

        private static func combine(_ text: String, into hasher: inout Hasher) {
            var text = text
            hasher.combine(text.utf8.count)
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    var cases = 0, passed = 0, failed = 0, errors = 0, repeats = 0
    /// The first repeat's outcome, and whether any other repeat's differs.
    var first: String
    var mixed = false

    mutating func add(_ outcome: String, repeatIndex: Int) {
        cases += 1
        switch outcome {
        case Outcome.pass.rawValue: passed += 1
        case Outcome.fail.rawValue: failed += 1
        case Outcome.error.rawValue: errors += 1
        default: break
        }
        repeats = max(repeats, repeatIndex)
        mixed = mixed || outcome != first
    }
}
