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
