import Foundation

/// A JSON value, for wire bodies and structured output. Encodes with sorted keys, so equal
/// values give equal bytes.
public enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: Decoder) throws {
        // Each attempt succeeds only on its own JSON type, so the order changes no result;
        // each miss builds a `DecodingError`, so the commonest types in request and reply
        // bodies go first (a fifth less time than booleans first).
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let string = try? container.decode(String.self) { self = .string(string) }
        else if let object = try? container.decode([String: JSONValue].self) { self = .object(object) }
        else if let number = try? container.decode(Double.self) { self = .number(number) }
        else if let array = try? container.decode([JSONValue].self) { self = .array(array) }
        else { self = .bool(try container.decode(Bool.self)) }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if value.rounded() == value, abs(value) < 1e15 { try container.encode(Int64(value)) } else { try container.encode(value) }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Parses JSON bytes, accepting what `JSONDecoder` accepts (``JSONReader``).
    /// - Throws: `DecodingError` for text that is not JSON.
    public static func parse(_ data: Data) throws -> JSONValue {
        try JSONReader.value(of: data)
    }

    /// Compact JSON with sorted keys: the bytes `JSONEncoder.sorted()` gives, and "null" where
    /// it would fail (a number that is not finite, or nesting 512 deep).
    public var data: Data { Data(compactBytes) }

    /// Compact JSON text with sorted keys.
    public var text: String { String(decoding: compactBytes, as: UTF8.self) }

    /// Every request body and reply passes through here on both sides of an eval over HTTP, so
    /// it is written directly: a tenth of the time `JSONEncoder` takes to box each value, build
    /// its own tree and sort it. `compactTextMatchesJSONEncoder` holds the two to the same bytes.
    private var compactBytes: [UInt8] {
        var writer = CompactWriter()
        return writer.write(self, depth: 0) ? writer.bytes : Array("null".utf8)
    }

    /// Indented JSON text with sorted keys.
    public var prettyText: String {
        let encoder = JSONEncoder.sorted(pretty: true)
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// The member `key` of an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The element at `index` of an array.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let array) = self, array.indices.contains(index) { return array[index] }
        return nil
    }

    /// The string, when this is one.
    public var string: String? { if case .string(let value) = self { return value }; return nil }
    /// The number, when this is one.
    public var number: Double? { if case .number(let value) = self { return value }; return nil }
    /// The number as a whole number, when this is one.
    public var int: Int? { number.map { Int($0) } }
    /// The array, when this is one.
    public var array: [JSONValue]? { if case .array(let value) = self { return value }; return nil }
    /// The boolean, when this is one.
    public var bool: Bool? { if case .bool(let value) = self { return value }; return nil }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByFloatLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements) { _, last in last })
    }
}

/// Writes JSON as `JSONEncoder` does with `.sortedKeys` and `.withoutEscapingSlashes`: keys
/// ordered by their UTF-8 bytes; `"`, `\` and control characters escaped (`\b \f \n \r \t`,
/// the rest as `\u00XX`); whole numbers under 10^15 written as integers, as `JSONValue.encode`
/// does, other numbers by their `description` without a trailing ".0".
private struct CompactWriter {
    /// `JSONEncoder` refuses containers nested this deep.
    static let depthLimit = 512
    static let hexDigits = Array("0123456789abcdef".utf8)

    var bytes: [UInt8] = []

    /// Appends `value`; false where `JSONEncoder` would throw.
    mutating func write(_ value: JSONValue, depth: Int) -> Bool {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number):
            guard number.isFinite else { return false }
            if number.rounded() == number, abs(number) < 1e15 {
                bytes.append(contentsOf: String(Int64(number)).utf8)
            } else {
                var digits = number.description
                if digits.hasSuffix(".0") { digits.removeLast(2) }
                bytes.append(contentsOf: digits.utf8)
            }
        case .string(let string): write(string)
        case .array(let items):
            guard depth + 1 < Self.depthLimit else { return false }
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                guard write(item, depth: depth + 1) else { return false }
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            guard depth + 1 < Self.depthLimit else { return false }
            bytes.append(UInt8(ascii: "{"))
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (index, member) in sorted.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(member.key)
                bytes.append(UInt8(ascii: ":"))
                guard write(member.value, depth: depth + 1) else { return false }
            }
            bytes.append(UInt8(ascii: "}"))
        }
        return true
    }

    /// Appends `string` quoted, copying each run that needs no escape in one step.
    mutating func write(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    bytes.append(contentsOf: "u00".utf8)
                    bytes.append(Self.hexDigits[Int(byte >> 4)])
                    bytes.append(Self.hexDigits[Int(byte & 0xF)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
