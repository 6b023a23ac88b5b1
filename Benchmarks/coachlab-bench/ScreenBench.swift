import CoachLab
import Foundation

/// Stage-1 throughput: 1 MB of messages screened against 1,000 keywords over 10 rules, one in
/// twenty of them holding a keyword, then the same messages each with a keyword; next to a
/// naive baseline that lower-cases each message and loops `contains` over every keyword.
enum ScreenBench {
    static func run(iterations: Int, naive runNaive: Bool) throws {
        var generator = SeededGenerator(seed: 42)
        let syllables = ["ka", "lo", "mi", "ta", "ru", "sen", "dor", "vi", "pel", "qua", "no", "ze", "bri", "tho", "ul"]
        func word() -> String { (0..<Int.random(in: 2...3, using: &generator)).map { _ in syllables.randomElement(using: &generator)! }.joined() }
        // 10 rules × 100 keywords of one to three words.
        var rulesYAML = "rules:\n"
        var keywords: [String] = []
        for rule in 0..<10 {
            let phrases = (0..<100).map { _ in (0..<Int.random(in: 1...3, using: &generator)).map { _ in word() }.joined(separator: " ") }
            keywords += phrases
            rulesYAML += "  - id: rule-\(rule)\n    title: Rule \(rule)\n    content: c\n    guardrail:\n      keywords:\n"
            rulesYAML += phrases.map { "        - \"\($0)\"\n" }.joined()
            rulesYAML += "      alert: {instructions: [i]}\n"
        }
        let pack = try PackLoader(fileSystem: .inMemory(["bench/pack.yaml": "pack: {id: bench, name: Bench}\nstack: {layers: [{id: a, template: \"x{{#risk}}{{risk.alert.reason}}{{/risk}}\"}]}\n" + rulesYAML]))
            .load("bench").get()
        let screener = Screener(rules: pack.rules)
        let strict = Screener(rules: pack.rules, typos: false)
        // About 1 MB of messages: ordinary words, with a keyword in roughly one message in twenty.
        let filler = ["I", "keep", "putting", "off", "my", "plans", "and", "the", "week", "feels", "long", "Can", "we", "talk", "about",
                      "focus", "today", "because", "work", "is", "busy", "café", "naïve", "it’s", "fine"]
        // The same again with a keyword in every message: the worst case, since a message in
        // which no word may start a phrase is only folded and looked up word by word.
        var keywordGenerator = SeededGenerator(seed: 43)
        var messages: [String] = []
        var allFlagged: [String] = []
        var bytes = 0, allFlaggedBytes = 0
        while bytes < 1 << 20 {
            var parts = (0..<Int.random(in: 8...24, using: &generator)).map { _ in filler.randomElement(using: &generator)! }
            var flaggedParts = parts
            flaggedParts.insert(keywords.randomElement(using: &keywordGenerator)!, at: parts.count / 2)
            if Int.random(in: 0..<20, using: &generator) == 0 { parts.insert(keywords.randomElement(using: &generator)!, at: parts.count / 2) }
            let message = parts.joined(separator: " ") + "."
            messages.append(message)
            bytes += message.utf8.count
            let flagged = flaggedParts.joined(separator: " ") + "."
            allFlagged.append(flagged)
            allFlaggedBytes += flagged.utf8.count
        }
        func time(iterations: Int = iterations, _ body: () -> Int) -> (seconds: Double, flagged: Int) {
            var best = Double.infinity
            var flagged = 0
            for _ in 0..<iterations {
                let start = DispatchTime.now().uptimeNanoseconds
                flagged = body()
                best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            return (best, flagged)
        }
        let ours = time { messages.reduce(0) { $0 + (screener.screen($1).isFlagged ? 1 : 0) } }
        let exact = time { messages.reduce(0) { $0 + (strict.screen($1).isFlagged ? 1 : 0) } }
        let worst = time { allFlagged.reduce(0) { $0 + (screener.screen($1).isFlagged ? 1 : 0) } }
        let worstExact = time { allFlagged.reduce(0) { $0 + (strict.screen($1).isFlagged ? 1 : 0) } }
        let megabytes = Double(bytes) / 1_048_576
        let worstMegabytes = Double(allFlaggedBytes) / 1_048_576
        print(String(format: """
            stage-1 screening: %d messages, %.2f MB, %d keywords over 10 rules (best of %d, release build)
              Screener (word-index matcher)   %8.1f MB/s  %7.0f messages/s  flagged %d
              Screener, typos: false          %8.1f MB/s  %7.0f messages/s  flagged %d
            the same with a keyword in every message (%.2f MB):
              Screener                        %8.1f MB/s  %7.0f messages/s  flagged %d
              Screener, typos: false          %8.1f MB/s  %7.0f messages/s  flagged %d
            """, messages.count, megabytes, keywords.count, iterations,
                     megabytes / ours.seconds, Double(messages.count) / ours.seconds, ours.flagged,
                     megabytes / exact.seconds, Double(messages.count) / exact.seconds, exact.flagged,
                     worstMegabytes,
                     worstMegabytes / worst.seconds, Double(allFlagged.count) / worst.seconds, worst.flagged,
                     worstMegabytes / worstExact.seconds, Double(allFlagged.count) / worstExact.seconds, worstExact.flagged))
        guard runNaive else { return }
        let lowered = keywords.map { $0.lowercased() }
        let naive = time(iterations: 1) {
            messages.reduce(0) { count, message in
                let text = message.lowercased()
                return count + (lowered.contains { text.contains($0) } ? 1 : 0)
            }
        }
        print(String(format: "  naive lowercased() + contains   %8.1f MB/s  %7.0f messages/s  flagged %d (once; substring matches, no word boundaries)",
                     megabytes / naive.seconds, Double(messages.count) / naive.seconds, naive.flagged))
    }
}

