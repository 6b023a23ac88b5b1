@testable import CoachLab
import Foundation
import Testing

/// `honours-alert` reads a flagged prompt's alert block with ``MockReading/alertText(in:)``,
/// which finds it from the prompt's lines alone. It must give the block the mock's whole
/// reading finds, or a check would hold a reply to an alert the mock never obeyed.
@Suite struct AlertTextTests {
    /// Every committed prompt of the shipped packs, with and without a live alert.
    static let shipped: [String] = {
        let root = TestSupport.root + "/prompts"
        let files = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".txt") }.sorted()
        return files.compactMap { try? String(contentsOfFile: root + "/" + $0, encoding: .utf8) }
    }()

    /// An alert found by each of the ways the reading finds one, and none.
    static let written = [
        "=== Coach ===\nYou are Tao.\n\n=== RISK ALERT ===\nThe user's latest message was flagged.\n- Give the 988 crisis line\n",
        "# Coach\nYou are Tao.\n\n# Safety alert\nThis message was flagged: suggest they see their GP.\n\n# Style\nShort replies.",
        "You are Tao, a coach.\nAsk one question at a time.\n\nBefore you answer, one more thing:\n- Tell them to call 999 now\n- Give them Samaritans on 116 123",
        "=== Safety rules ===\nNever diagnose.\n\n=== Style ===\nShort replies.",
        "",
    ]

    @Test func theAlertIsTheBlockTheWholeReadingFinds() throws {
        let prompts = Self.shipped + Self.written
        #expect(Self.shipped.count > 20)
        var withAlert = 0
        for system in prompts {
            let reading = MockReading(system: system)
            let expected = reading.alertRange.map { reading.lines[$0].joined(separator: "\n") }
            #expect(MockReading.alertText(in: system) == expected, "\(system.prefix(80))")
            // Asked again, from the cache.
            #expect(MockReading.alertText(in: system) == expected)
            if expected != nil { withAlert += 1 }
        }
        // Both kinds are covered: prompts with an alert block and prompts without one.
        #expect(withAlert >= 5)
        #expect(withAlert < prompts.count)
    }
}
