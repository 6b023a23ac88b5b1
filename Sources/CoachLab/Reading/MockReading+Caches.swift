import Foundation

/// The last few hundred readings, by prompt text: cases that reach a prompt while another
/// case is reading it wait for that reading rather than make their own.
enum ReadingCache {
    static let shared = BoundedCache<SampledTextKey, MockReading>(bound: 512)

    static func reading(_ system: String) -> MockReading {
        shared.value(for: SampledTextKey(system)) { MockReading(system: system) }
    }

    /// Readings given the alert's lines or the prompt's structure, keyed by all three.
    static let hinted = BoundedCache<HintedKey, MockReading>(bound: 256)

    struct HintedKey: Hashable {
        var system: SampledTextKey
        var alert: String?
        var structure: PromptStructure?
    }

    static func reading(_ system: String, alert: String?, structure: PromptStructure?) -> MockReading {
        hinted.value(for: HintedKey(system: SampledTextKey(system), alert: alert, structure: structure)) {
            MockReading(system: system, alert: alert, structure: structure)
        }
    }
}

/// What each prompt line said (``MockReading/LineReading``), by its text and whether it sits
/// in the alert.
enum LineCache {
    static let shared = BoundedCache<String, MockReading.LineReading>(bound: 16_384)

    static func reading(_ line: String, inAlert: Bool, read: () -> MockReading.LineReading) -> MockReading.LineReading {
        shared.value(for: (inAlert ? "a" : "-") + line, compute: read)
    }
}

/// The alert block of the last few hundred prompts (``MockReading/alertText(in:)``), by
/// prompt text: every flagged case under one prompt asks for the same block.
enum AlertCache {
    static let shared = BoundedCache<SampledTextKey, String?>(bound: 512)

    static func text(_ system: String, read: () -> String?) -> String? {
        shared.value(for: SampledTextKey(system), compute: read)
    }
}
