import Foundation

/// The time of day a prompt says it is.
extension MockReading {
    mutating func readTime(_ line: String, _ lower: String, _ index: Int) {
        let guidance: [(String, String)] = [
            (#"\bsmall hours\b|\bmiddle of the night\b"#, "night"), (#"^it(?: is|'s) late\b"#, "late"),
            (#"^it(?: is|'s) (?:early |late )?evening\b"#, "evening"), (#"^morning is\b|^it(?: is|'s) (?:early |late )?morning\b"#, "morning"),
            (#"^it(?: is|'s) (?:daytime|afternoon|midday)\b"#, "day"), (#"^it(?: is|'s) night\b"#, "night"),
        ]
        for (pattern, period) in guidance where Self.contains(pattern, lower) {
            note(.time, period, index)
            return
        }
        if let match = Self.matches(#"\bit is \d{1,2}:\d{2}\b.*\((night|morning|afternoon|evening)\)"#, in: lower).first {
            note(.time, match[1] == "afternoon" ? "day" : match[1], index)
            return
        }
        // "Time of day: night", "The user's local time is 23:45", "It's 2am for the user".
        if let match = Self.matches(#"\btime of day\s*(?::|is)\s*(night|morning|afternoon|evening|daytime|day)\b"#, in: lower).first {
            note(.time, ["afternoon": "day", "daytime": "day"][match[1]] ?? match[1], index)
        } else if let match = Self.matches(#"\b(?:local time|current time|the time now|the time)(?: is|:)\s*(\d{1,2}):\d{2}\b|^it(?: is|'s) (\d{1,2})(?::\d{2})?\s*(am|pm)\b"#, in: lower).first,
                  var hour = Int(match[1].isEmpty ? match[2] : match[1]), hour < 24 {
            if match[3] == "pm", hour < 12 { hour += 12 } else if match[3] == "am", hour == 12 { hour = 0 }
            note(.time, Self.period(ofHour: hour), index)
        }
    }

    /// The part of the day an hour falls in, as the time readers name them.
    static func period(ofHour hour: Int) -> String {
        switch hour {
        case 0..<5: "night"
        case 5..<12: "morning"
        case 12..<17: "day"
        case 17..<21: "evening"
        default: "late"
        }
    }
}

extension LineReader {
    /// The time of day a prompt says it is.
    static let time = LineReader(
        name: "time", kinds: [.time],
        clues: ["small hours", "middle of the night", "it is ", "it's ", "morning is", "time of day", "local time", "current time", "the time"],
        read: { reading, line, lower in reading.readTime(line, lower, 0) },
        examples: [
            ("It is late evening for the user.", [.time]),
            ("Local time: 23:15.", [.time]),
            ("It's 2am for the user.", [.time]),
            ("Time of day: night", [.time]),
        ],
        counterExamples: ["It's okay to rest.", "Take the time you need."])
}
