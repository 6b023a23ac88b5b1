import Foundation

/// Reads JSON bytes into a ``JSONValue`` in one pass, accepting and refusing what
/// `JSONDecoder().decode(JSONValue.self, from:)` accepts and refuses (the differential test in
/// JSONValueTests holds the two together), in a fraction of its time: decoding through
/// `Codable` tries each JSON type in turn and builds a `DecodingError` for every miss, and every
/// reply, streamed event and request body on both sides of an eval over HTTP is read here.
///
/// What `JSONDecoder` allows beyond RFC 8259 is allowed here too: a UTF-8 byte-order mark, a
/// comma after the last member or element, a repeated key (its first value is kept), and text
/// in UTF-16 or UTF-32 (handed to `JSONDecoder` itself).
/// Numbers that are not finite as a `Double`, or that are not zero but round to it, are refused.
struct JSONReader {
    /// The most containers open at once, as `JSONDecoder` allows.
    static let depthLimit = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The value `data` holds, with nothing but whitespace after it.
    /// - Throws: `DecodingError.dataCorrupted`, naming the byte offset where reading stopped.
    static func value(of data: Data) throws -> JSONValue {
        // JSONDecoder also reads UTF-16 and UTF-32, told apart by a byte-order mark or by a zero
        // in the first two bytes, where UTF-8 JSON can hold none: leave those texts to it.
        if data.count >= 2, data.starts(with: [0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE])
            || data[data.startIndex] == 0 || data[data.startIndex + 1] == 0 {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        }
        return try data.withUnsafeBytes { raw in
            var reader = JSONReader(raw.bindMemory(to: UInt8.self))
            return try reader.document()
        }
    }

    private mutating func document() throws -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        let value = try self.value(depth: 0)
        skipWhitespace()
        guard index == bytes.count else { throw failure("unexpected text after the value") }
        return value
    }

    private mutating func value(depth: Int) throws -> JSONValue {
        guard index < bytes.count else { throw failure("the text ends where a value should start") }
        switch bytes[index] {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw failure("no JSON value starts with this byte")
        }
    }

    private mutating func object(depth: Int) throws -> JSONValue {
        guard depth <= Self.depthLimit else { throw failure("containers nested more than \(Self.depthLimit) deep") }
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if try consume(UInt8(ascii: "}")) { return .object(members) }
        while true {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("a key must be a string") }
            let key = try string()
            skipWhitespace()
            guard try consume(UInt8(ascii: ":")) else { throw failure("a key must be followed by ':'") }
            skipWhitespace()
            let value = try self.value(depth: depth)
            if members[key] == nil { members[key] = value }
            skipWhitespace()
            if try consume(UInt8(ascii: "}")) { return .object(members) }
            guard try consume(UInt8(ascii: ",")) else { throw failure("members must be separated by ','") }
            skipWhitespace()
            if try consume(UInt8(ascii: "}")) { return .object(members) }
        }
    }

    private mutating func array(depth: Int) throws -> JSONValue {
        guard depth <= Self.depthLimit else { throw failure("containers nested more than \(Self.depthLimit) deep") }
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if try consume(UInt8(ascii: "]")) { return .array(items) }
        while true {
            items.append(try value(depth: depth))
            skipWhitespace()
            if try consume(UInt8(ascii: "]")) { return .array(items) }
            guard try consume(UInt8(ascii: ",")) else { throw failure("elements must be separated by ','") }
            skipWhitespace()
            if try consume(UInt8(ascii: "]")) { return .array(items) }
        }
    }

    /// A quoted string, starting at its opening quote. A run with no escape becomes the
    /// string directly; escapes are decoded into a buffer. Either way the UTF-8 is checked.
    private mutating func string() throws -> String {
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                defer { index += 1 }
                return try text(UnsafeBufferPointer(rebasing: bytes[start..<index]))
            }
            if byte == UInt8(ascii: "\\") { return try escapedString(from: start) }
            guard byte >= 0x20 else { throw failure("a control character must be escaped in a string") }
            index += 1
        }
        throw failure("a string is not closed")
    }

    private mutating func escapedString(from start: Int) throws -> String {
        var decoded = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return try decoded.withUnsafeBufferPointer(text)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw failure("a string is not closed") }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escaped)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"): UTF8.encode(try escapedScalar()) { decoded.append($0) }
                default: throw failure("'\\\(Character(UnicodeScalar(escaped)))' is not an escape")
                }
            default:
                // The run up to the next quote, escape or control character, copied in one step.
                let run = index
                while index < bytes.count, bytes[index] >= 0x20, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
                    index += 1
                }
                guard index > run else { throw failure("a control character must be escaped in a string") }
                decoded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
            }
        }
        throw failure("a string is not closed")
    }

    /// The scalar of a `\u` escape (its "\u" read), joining a surrogate pair.
    private mutating func escapedScalar() throws -> UnicodeScalar {
        let unit = try hexUnit()
        switch unit {
        case 0xD800...0xDBFF:
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw failure("a high surrogate escape must be followed by a low one")
            }
            index += 2
            let low = try hexUnit()
            guard (0xDC00...0xDFFF).contains(low),
                  let scalar = UnicodeScalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)) else {
                throw failure("a high surrogate escape must be followed by a low one")
            }
            return scalar
        default:
            // Every UTF-16 unit but a surrogate is a scalar of its own.
            guard let scalar = UnicodeScalar(unit) else { throw failure("a low surrogate escape must follow a high one") }
            return scalar
        }
    }

    private mutating func hexUnit() throws -> UInt16 {
        guard index + 4 <= bytes.count else { throw failure("'\\u' must be followed by four hex digits") }
        var unit: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("'\\u' must be followed by four hex digits")
            }
            unit = unit << 4 | UInt16(digit)
            index += 1
        }
        return unit
    }

    private func text(_ utf8: UnsafeBufferPointer<UInt8>) throws -> String {
        guard let text = String(validating: utf8, as: UTF8.self) else { throw failure("a string is not valid UTF-8") }
        return text
    }

    /// A number by RFC 8259's grammar. Whole numbers of up to 15 digits are exact as `Double`
    /// and are summed directly; the rest go through `Double(_:)`, which rounds correctly.
    private mutating func number() throws -> Double {
        let start = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let integerStart = index
        guard index < bytes.count, isDigit(bytes[index]) else { throw failure("a number must have digits") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let integerEnd = index
        var whole = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            whole = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("a decimal point must be followed by digits") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let mantissaEnd = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            whole = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("an exponent must have digits") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if whole, integerEnd - integerStart <= 15 {
            var magnitude: Int64 = 0
            for position in integerStart..<integerEnd { magnitude = magnitude * 10 + Int64(bytes[position] - UInt8(ascii: "0")) }
            return negative ? -Double(magnitude) : Double(magnitude)
        }
        let literal = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let number = Double(literal), number.isFinite else { throw failure("\(literal) does not fit in a Double") }
        // JSONDecoder refuses a number that rounds to zero unless its digits are all zero.
        if number == 0, bytes[integerStart..<mantissaEnd].contains(where: { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9") }) {
            throw failure("\(literal) does not fit in a Double")
        }
        return number
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func literal(_ word: StaticString) throws {
        let length = word.utf8CodeUnitCount
        guard index + length <= bytes.count,
              UnsafeBufferPointer(rebasing: bytes[index..<index + length]).elementsEqual(UnsafeBufferPointer(start: word.utf8Start, count: length)) else {
            throw failure("not a JSON value")
        }
        index += length
    }

    /// Steps over `byte` when it is next.
    private mutating func consume(_ byte: UInt8) throws -> Bool {
        guard index < bytes.count else { throw failure("the text ends inside a container") }
        guard bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func failure(_ message: String) -> DecodingError {
        DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "The given data was not valid JSON: \(message), at byte \(index)."))
    }
}
