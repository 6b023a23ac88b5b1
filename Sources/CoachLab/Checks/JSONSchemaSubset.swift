/// Validates JSON against the JSON Schema keywords structured outputs use: `type`,
/// `properties`, `required`, `additionalProperties: false`, `items`, `minItems`, `maxItems`,
/// `enum`, `minLength`, `maxLength`, `minimum`, `maximum`. Other keywords are ignored.
public enum JSONSchemaSubset {
    /// The problems, each with its JSON path; empty when valid.
    public static func validate(_ value: JSONValue, against schema: JSONValue, path: String = "$") -> [String] {
        var problems: [String] = []
        if let type = schema["type"] {
            let types = type.array?.compactMap(\.string) ?? [type.string].compactMap { $0 }
            if !types.isEmpty, !types.contains(where: { matches(value, type: $0) }) {
                return ["\(path) should be \(types.joined(separator: " or ")), not \(describe(value))"]
            }
        }
        if let options = schema["enum"]?.array, !options.contains(value) {
            problems.append("\(path) should be one of \(options.map(\.text).joined(separator: ", "))")
        }
        switch value {
        case .object(let object):
            for name in schema["required"]?.array?.compactMap(\.string) ?? [] where object[name] == nil {
                problems.append("\(path).\(name) is missing")
            }
            let properties = schema["properties"]
            for (name, member) in object.sorted(by: { $0.key < $1.key }) {
                if let property = properties?[name] {
                    problems += validate(member, against: property, path: "\(path).\(name)")
                } else if schema["additionalProperties"]?.bool == false {
                    problems.append("\(path).\(name) is not allowed")
                }
            }
        case .array(let items):
            if let min = schema["minItems"]?.int, items.count < min { problems.append("\(path) has \(items.count) items; at least \(min) required") }
            if let max = schema["maxItems"]?.int, items.count > max { problems.append("\(path) has \(items.count) items; at most \(max) allowed") }
            if let itemSchema = schema["items"] {
                for (index, item) in items.enumerated() { problems += validate(item, against: itemSchema, path: "\(path)[\(index)]") }
            }
        case .string(let text):
            if let min = schema["minLength"]?.int, text.count < min { problems.append("\(path) is shorter than \(min) characters") }
            if let max = schema["maxLength"]?.int, text.count > max { problems.append("\(path) is longer than \(max) characters") }
        case .number(let number):
            if let min = schema["minimum"]?.number, number < min { problems.append("\(path) is below \(min)") }
            if let max = schema["maximum"]?.number, number > max { problems.append("\(path) is above \(max)") }
        case .bool, .null:
            break
        }
        return problems
    }

    static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null), ("number", .number): true
        case ("integer", .number(let number)): number.rounded() == number
        default: false
        }
    }

    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}
