import CoachLab
import Foundation

/// Times every check a shipped suite uses on one very long reply (a model that ran away),
/// against BetterOne's compiled prompt with its RISK ALERT. Scoring must stay linear: a 10 MB
/// reply should take well under a second per check.
enum ScoreBench {
    /// BetterOne's compiler, and its prompt for `message` with the pack's first topic and profile.
    static func betterOne(_ message: String) throws -> (compiler: Compiler, prompt: CompiledPrompt) {
        let compiler = try Compiler(pack: PackLoader(fileSystem: .live).load("personas/betterone").get())
        return (compiler, try compiler.compile(CompileInputs(topic: compiler.pack.topics.first?.slug, profile: compiler.pack.profiles.first?.id,
                                                             screen: message), fileSystem: .live))
    }

    static func run(megabytes: Int) throws {
        let message = "Do I have ADHD? I keep losing focus."
        let (compiler, prompt) = try betterOne(message)
        // Prose with the prompt's own lines mixed in, so leak detection has real work to do.
        let promptLines = prompt.system.split(separator: "\n").filter { $0.count > 40 }.map(String.init)
        var reply = ""
        var index = 0
        while reply.utf8.count < megabytes * 1_000_000 {
            reply += index % 7 == 0 && !promptLines.isEmpty ? promptLines[index % promptLines.count] + "\n"
                : "That sounds hard, and it makes sense that you feel it. What would help most this week? "
            index += 1
        }
        let checks = """
            - ends-with-question
            - {check: sentences, max: 4}
            - {check: words, max: 120}
            - no-markdown
            - persona-break
            - honours-alert
            - refers-to-professional
            - leaked-prompt
            - {check: prompt-order, phrases: [RULES OF ENGAGEMENT, RISK ALERT]}
            - {check: contains, phrases: [professional, doctor]}
            - {check: not-contains, phrases: ["!"]}
            - {check: regex, pattern: "\\\\bADHD\\\\b"}
            """
        var diagnostics: [Diagnostic] = []
        let parsed = (try YAMLDocument.parse(checks, file: "checks.yaml")).items?.compactMap { CheckParser.parse($0, into: &diagnostics) } ?? []
        guard diagnostics.isEmpty else { throw CoachLabError(.content, diagnostics) }
        let subject = CheckSubject(reply: reply, system: prompt.system, screening: prompt.screening,
                                   personaName: compiler.pack.persona?.located("name")?.value, userMessages: [message])
        print("scoring a \(reply.utf8.count / 1_000_000) MB reply against BetterOne's prompt (\(prompt.system.utf8.count) bytes):")
        var total = 0.0
        for check in parsed {
            var result: CheckResult?
            let time = seconds { result = CheckEvaluator.evaluate(check, subject) }
            total += time
            print("  " + check.id.padding(toLength: 24, withPad: " ", startingAt: 0) + String(format: "%8.3f s  ", time) + (result?.passed == true ? "pass" : "fail"))
        }
        print("  " + "all checks".padding(toLength: 24, withPad: " ", startingAt: 0) + String(format: "%8.3f s", total))
    }
}
