/// An ISO 8601 date or date-time as written in content or on the command line, keeping the
/// local wall-clock fields (the local hour is a compile input) and the offset when given.
public struct LocalDateTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// Seconds east of UTC; nil when the text gave no offset (read as UTC when ordering).
    public var offsetSeconds: Int?
    /// Whether the text gave only a date.
    public var isDateOnly: Bool

    /// Parses `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS][.fff][Z|±HH:MM]` (a space may stand for T).
    public init?(parsing text: String) {
        let scalars = Array(text.trimmed(.whitespaces).unicodeScalars)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= scalars.count else { return nil }
            var value = 0
            for scalar in scalars[index..<(index + digits)] {
                guard let digit = Int(String(scalar)), ("0"..."9").contains(scalar) else { return nil }
                value = value * 10 + digit
            }
            index += digits
            return value
        }
        func expect(_ character: Unicode.Scalar) -> Bool {
            guard index < scalars.count, scalars[index] == character else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
              (1...12).contains(month), (1...LocalDateTime.days(inMonth: month, year: year)).contains(day) else { return nil }
        self.year = year; self.month = month; self.day = day
        hour = 0; minute = 0; second = 0; offsetSeconds = nil; isDateOnly = true
        if index == scalars.count { return }
        guard expect("T") || expect(" "), let hour = number(2), expect(":"), let minute = number(2),
              (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.hour = hour; self.minute = minute; isDateOnly = false
        if expect(":") {
            guard let second = number(2), (0...60).contains(second) else { return nil }
            self.second = second
            if expect(".") {
                let start = index
                while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
                guard index > start else { return nil }
            }
        }
        if index == scalars.count { return }
        if expect("Z") {
            offsetSeconds = 0
        } else if index < scalars.count, scalars[index] == "+" || scalars[index] == "-" {
            let sign = scalars[index] == "-" ? -1 : 1
            index += 1
            guard let hours = number(2), (0...14).contains(hours) else { return nil }
            _ = expect(":")
            guard let minutes = number(2), (0...59).contains(minutes) else { return nil }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        }
        guard index == scalars.count else { return nil }
    }

    /// Seconds since 1970-01-01T00:00:00Z (UTC when no offset was given).
    public var epochSeconds: Int {
        let days = LocalDateTime.daysFromCivil(year: year, month: month, day: day)
        return days * 86_400 + hour * 3600 + minute * 60 + second - (offsetSeconds ?? 0)
    }

    /// The day of the week, 1 = Monday … 7 = Sunday.
    public var isoWeekday: Int {
        let days = LocalDateTime.daysFromCivil(year: year, month: month, day: day)
        return ((days % 7) + 7 + 3) % 7 + 1
    }

    /// The weekday's English name.
    public var weekdayName: String {
        ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][isoWeekday - 1]
    }

    /// The ordinal day of the year, 1-based.
    public var dayOfYear: Int {
        LocalDateTime.daysFromCivil(year: year, month: month, day: day)
            - LocalDateTime.daysFromCivil(year: year, month: 1, day: 1) + 1
    }

    /// The same wall-clock time and offset `days` days later (earlier when negative), on the
    /// proleptic Gregorian calendar.
    public func adding(days: Int) -> LocalDateTime {
        var shifted = self
        (shifted.year, shifted.month, shifted.day) = LocalDateTime.civilFromDays(LocalDateTime.daysFromCivil(year: year, month: month, day: day) + days)
        return shifted
    }

    /// `YYYY-MM-DD`.
    public var dateString: String { pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) }

    /// `HH:MM`.
    public var timeString: String { pad(hour, 2) + ":" + pad(minute, 2) }

    /// The canonical ISO 8601 text.
    public var description: String {
        if isDateOnly { return dateString }
        var text = dateString + "T" + timeString + ":" + pad(second, 2)
        if let offsetSeconds {
            if offsetSeconds == 0 { text += "Z" } else {
                let sign = offsetSeconds < 0 ? "-" : "+"
                let magnitude = abs(offsetSeconds)
                text += sign + pad(magnitude / 3600, 2) + ":" + pad(magnitude % 3600 / 60, 2)
            }
        }
        return text
    }

    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool { lhs.epochSeconds < rhs.epochSeconds }

    private func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Howard Hinnant's days-from-civil.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Howard Hinnant's civil-from-days, the inverse of ``daysFromCivil(year:month:day:)``: the
    /// proleptic Gregorian date `days` after 1970-01-01.
    public static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
