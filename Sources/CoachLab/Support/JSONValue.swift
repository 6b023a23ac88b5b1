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
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let bool = try? container.decode(Bool.self) { self = .bool(bool) }
        else if let number = try? container.decode(Double.self) { self = .number(number) }
        else if let string = try? container.decode(String.self) { self = .string(string) }
        else if let array = try? container.decode([JSONValue].self) { self = .array(array) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
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

    /// Parses JSON bytes.
    /// - Throws: `DecodingError` for text that is not JSON.
    public static func parse(_ data: Data) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// Compact JSON with sorted keys.
    public var data: Data {
        let encoder = JSONEncoder.sorted()
        return (try? encoder.encode(self)) ?? Data("null".utf8)
    }

    /// Compact JSON text with sorted keys.
    public var text: String {
        // The store writes an empty list for nearly every case's tags: no encoder for that.
        if case .array(let items) = self, items.isEmpty { return "[]" }
        return String(decoding: data, as: UTF8.self)
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
