import Foundation
import Yams

/// Writes content as YAML that CoachLab reads back to the same values: mapping keys in the
/// order their ``ObjectSpec`` declares (the order people write them in), strings that would
/// read as another type quoted, multi-line text as literal blocks.
enum YAMLWriter {
    /// A YAML document for `value`, whose mappings follow `spec` where it has one.
    static func document(_ value: JSONValue, spec: ObjectSpec?) throws -> String {
        try Yams.serialize(node: node(value, spec: spec), indent: 2, width: -1, allowUnicode: true)
    }

    static func node(_ value: JSONValue, spec: ObjectSpec?) -> Node {
        switch value {
        case .null:
            return Node.scalar(.init("null"))
        case .bool(let flag):
            return Node.scalar(.init(flag ? "true" : "false"))
        case .number(let number):
            let text = number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
            return Node.scalar(.init(text))
        case .string(let text):
            return Node.scalar(scalar(text))
        case .array(let items):
            let itemSpec: ObjectSpec? = spec
            return Node.sequence(.init(items.map { node($0, spec: itemSpec) }))
        case .object(let object):
            let order = spec?.fields.map(\.name) ?? []
            let keys = order.filter { object[$0] != nil } + object.keys.filter { !order.contains($0) }.sorted()
            let pairs = keys.map { key -> (Node, Node) in
                (Node.scalar(.init(key)), node(object[key]!, spec: spec.flatMap { childSpec(of: $0.field(key)?.type) }))
            }
            return Node.mapping(.init(pairs))
        }
    }

    /// The object spec of a field's value, or of its list's items.
    static func childSpec(of type: FieldType?) -> ObjectSpec? {
        switch type {
        case .object(let spec): spec
        case .list(let item): childSpec(of: item)
        default: nil
        }
    }

    /// A string scalar styled so it reads back as the same string.
    static func scalar(_ text: String) -> Node.Scalar {
        if text.contains("\n") { return .init(text, .implicit, .literal) }
        return .init(text, .implicit, readsAsOtherType(text) ? .doubleQuoted : .any)
    }

    /// Whether a plain scalar with this text would read as a boolean, null, number or date.
    static func readsAsOtherType(_ text: String) -> Bool {
        if text.isEmpty || text != text.trimmingCharacters(in: .whitespaces) { return true }
        let lower = text.lowercased()
        if ["true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"].contains(lower) { return true }
        if Double(text) != nil || Int(text, radix: 16) != nil && lower.hasPrefix("0x") { return true }
        if let first = text.first, first.isNumber || first == "." || first == "-" || first == "+" {
            return text.allSatisfy { $0.isNumber || "-:.+_TtZz ".contains($0) }
        }
        return false
    }
}
