@testable import CoachLab
import Testing

/// A fixture is a value: its rarely set parts (a generation, a simulated user) live apart to
/// keep every held fixture small, and a write to one copy never shows in another.
struct FixtureValueTests {
    static let location = SourceLocation(file: "fixtures/luna/night.yaml", line: 1, column: 1)

    static func fixture() -> Fixture {
        Fixture(id: "night", pack: "personas/luna", turns: [], file: location.file, location: location)
    }

    @Test func writingARarePartOfACopyLeavesTheOriginalAlone() {
        let original = Self.fixture()
        var copy = original
        copy.simulatedUser = SimulatedUser(persona: "A night-shift nurse", goal: "sleep after a late shift", location: Self.location)
        copy.generate = Fixture.Generation(kind: .insight, describe: nil, name: nil, mock: nil, location: Self.location)
        #expect(original.simulatedUser == nil && original.generate == nil)
        #expect(copy.simulatedUser?.goal == "sleep after a late shift", "setting the generation kept the simulated user")
        #expect(copy.generate?.kind == .insight)

        var cleared = copy
        cleared.simulatedUser = nil
        #expect(cleared.simulatedUser == nil && cleared.generate?.kind == .insight)
        #expect(copy.simulatedUser != nil)
    }

    /// A run holds every fixture of its suites (10,000 in the scale benchmark): the rare parts
    /// used to be stored inline, 528 bytes a fixture.
    @Test func aFixtureStaysSmall() {
        #expect(MemoryLayout<Fixture>.size <= 336, "\(MemoryLayout<Fixture>.size) bytes")
    }
}
