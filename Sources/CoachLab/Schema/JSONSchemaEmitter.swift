import Foundation

/// Emits JSON Schemas (draft 2020-12) for CoachLab's file kinds from ``ContentSpecs``,
/// so editors validate and complete content with the same rules `lint` applies.
public enum JSONSchemaEmitter {
    /// The names of the kinds `schema(for:)` accepts.
    public static var kinds: [String] { ContentSpecs.fileKinds.map(\.name) }

    /// Where every schema's `$id` lives.
    static let address = "https://coachlab.dev/schemas/"
    /// How every schema opens: its `$id`, the first of its sorted keys.
    static let opening = "{\n  \"$id\" : \"" + address

    /// The schema for a file kind as pretty, key-sorted JSON text, or nil for an unknown kind.
    public static func schema(for kind: String) -> String? {
        guard let spec = ContentSpecs.fileKinds.first(where: { $0.name == kind })?.spec else { return nil }
        var schema = object(spec)
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema["$id"] = address + "\(kind).schema.json"
        return serialize(schema)
    }

    static func serialize(_ value: Any) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: value,
                                                options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private static func object(_ spec: ObjectSpec) -> [String: Any] {
        var properties: [String: Any] = [:]
        for field in spec.fields {
            var property = type(field.type)
            property["description"] = field.summary
            properties[field.name] = property
        }
        var schema: [String: Any] = [
            "type": "object",
            "title": spec.name,
            "description": spec.summary,
            "properties": properties,
            "additionalProperties": spec.open,
        ]
        let required = spec.fields.filter(\.required).map(\.name)
        if !required.isEmpty { schema["required"] = required }
        return schema
    }

    private static func type(_ type: FieldType) -> [String: Any] {
        switch type {
        case .string, .text: return ["type": "string", "minLength": 1]
        case .integer: return ["type": "integer"]
        case .atLeast(let least): return ["type": "integer", "minimum": least]
        case .number: return ["type": "number"]
        case .boolean: return ["type": "boolean"]
        case .date:
            return ["type": "string",
                    "pattern": #"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$"#]
        case .oneOf(let options): return ["enum": options]
        case .list(let element): return ["type": "array", "items": self.type(element)]
        case .object(let spec): return object(spec)
        case .map(let element): return ["type": "object", "additionalProperties": self.type(element)]
        case .any: return [:]
        }
    }
}
