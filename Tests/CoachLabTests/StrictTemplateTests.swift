import CoachLab
import Foundation
import Testing

/// Templates read the pack's data strictly: a key one profile lacks behaves as an empty value
/// everywhere, so a guarded line never renders half-empty.
@Suite struct StrictTemplateTests {
    static func compile(_ profile: String) throws -> String {
        let pack = try PackLoader(fileSystem: TestSupport.fileSystem).load("Tests/CoachLabTests/Malformed/empty-of-a-missing-key.yaml").get()
        return try Compiler(pack: pack).compile(CompileInputs(profile: profile), fileSystem: .inMemory([:])).system
    }

    @Test func emptyOfAKeyTheProfileLacksIsTrue() throws {
        // It used to be false, so "Injuries: ." rendered for every profile without the key.
        #expect(try Self.compile("ben") == "You are talking with .")
        #expect(try Self.compile("ana") == "Injuries: left knee, right ankle.\nYou are talking with Ana.")
    }

    @Test func healthWalletNoLongerPrintsEmptyAllergyAndConditionLines() throws {
        let compiler = try TestSupport.compiler("healthwallet")
        let variant = try #require(compiler.pack.variants.first { $0.id == "labs-only" })
        let system = try compiler.compile(CompileInputs(variant), fileSystem: TestSupport.fileSystem).system
        #expect(!system.contains("Allergies: ."))
        #expect(!system.contains("Health conditions: ."))
    }
}

/// The run-wide prompt cache gives exactly what compiling each turn gives.
@Suite struct PromptCacheTests {
    @Test func cachedPromptsEqualFreshOnesFlaggedOrNot() throws {
        let compiler = try TestSupport.compiler("betterone")
        let key = CompileInputs(topic: compiler.pack.topics.first?.slug, profile: compiler.pack.profiles.first?.id)
        let resolved = try ResolvedInputs(key, pack: compiler.pack, fileSystem: TestSupport.fileSystem)
        let cache = PromptCache()
        let messages = ["I feel stuck at work.", "Do I have ADHD?", "How do I plan my week?", "Do I have ADHD?", "am i depressed"]
        for message in messages {
            var inputs = resolved
            inputs.screen = message
            let fresh = compiler.compile(inputs)
            let cached = cache.prompt(compiler, resolved: resolved, key: key, message: message)
            #expect(cached == fresh, "\(message)")
        }
        // Two unflagged messages share one prompt; each flagged decision has its own.
        #expect(cache.misses == 3 && cache.hits == 2)
    }

    @Test func casesThatReachAPromptAtOnceCompileItOnce() throws {
        // The first cases of a run (one per slot) all reach the same few prompts together;
        // each compiled its own until one waited for another's.
        let compiler = try TestSupport.compiler("betterone")
        let key = CompileInputs(topic: compiler.pack.topics.first?.slug, profile: compiler.pack.profiles.first?.id)
        let resolved = try ResolvedInputs(key, pack: compiler.pack, fileSystem: TestSupport.fileSystem)
        var inputs = resolved
        inputs.screen = "Do I have ADHD?"
        let fresh = compiler.compile(inputs)
        let cache = PromptCache()
        let lock = NSLock()
        nonisolated(unsafe) var prompts: [CompiledPrompt] = []
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            let prompt = cache.prompt(compiler, resolved: resolved, key: key, message: "Do I have ADHD?")
            lock.withLock { prompts.append(prompt) }
        }
        #expect(cache.misses == 1 && cache.hits == 63)
        #expect(prompts.count == 64 && prompts.allSatisfy { $0 == fresh })
    }
}
