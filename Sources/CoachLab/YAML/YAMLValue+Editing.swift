import Yams

/// A step into a YAML value: a mapping key or a sequence index.
public enum YAMLStep: Sendable, Hashable, CustomStringConvertible {
    case key(String)
    case index(Int)

    public var description: String {
        switch self {
        case .key(let key): key
        case .index(let index): "[\(index)]"
        }
    }
}

extension YAMLValue {
    /// The value at `path`, or nil when the path leads nowhere.
    public func value(at path: [YAMLStep]) -> YAMLValue? {
        guard let step = path.first else { return self }
        switch (self, step) {
        case (.mapping(let entries, _), .key(let key)):
            return entries.first { $0.key == key }?.value.value(at: Array(path.dropFirst()))
        case (.sequence(let items, _), .index(let index)) where items.indices.contains(index):
            return items[index].value(at: Array(path.dropFirst()))
        default:
            return nil
        }
    }

    /// This value with the node at `path` replaced by `replacement`, or removed when it is
    /// nil (a sequence item or a mapping entry). Unchanged when the path leads nowhere.
    public func replacing(_ path: [YAMLStep], with replacement: YAMLValue?) -> YAMLValue {
        guard let step = path.first else { return replacement ?? self }
        let rest = Array(path.dropFirst())
        switch (self, step) {
        case (.mapping(var entries, let location), .key(let key)):
            guard let position = entries.firstIndex(where: { $0.key == key }) else { return self }
            if rest.isEmpty, replacement == nil {
                entries.remove(at: position)
            } else {
                entries[position].value = entries[position].value.replacing(rest, with: replacement)
            }
            return .mapping(entries, location)
        case (.sequence(var items, let location), .index(let index)) where items.indices.contains(index):
            if rest.isEmpty, replacement == nil {
                items.remove(at: index)
            } else {
                items[index] = items[index].replacing(rest, with: replacement)
            }
            return .sequence(items, location)
        default:
            return self
        }
    }

    /// A string scalar at the location of this value (for replacements).
    public func withText(_ text: String) -> YAMLValue {
        .scalar(Scalar(text: text, style: text.contains("\n") ? .block : .quoted, location: location))
    }

    /// YAML text that reads back as the same values: plain scalars stay plain (so numbers and
    /// booleans keep their type), quoted ones stay quoted and multi-line text becomes a literal
    /// block. Comments and the original layout are not kept.
    /// - Throws: Yams' emitter error, which a value read from YAML does not produce.
    public func yamlText() throws -> String {
        try Yams.serialize(node: node(), indent: 2, width: -1, allowUnicode: true)
    }

    private func node() -> Node {
        switch self {
        case .scalar(let scalar):
            if scalar.isNull { return Node.scalar(.init("null")) }
            if scalar.text.contains("\n") { return Node.scalar(.init(scalar.text, .implicit, .literal)) }
            return Node.scalar(.init(scalar.text, .implicit, scalar.style == .plain ? .plain : .doubleQuoted))
        case .sequence(let items, _):
            return Node.sequence(.init(items.map { $0.node() }))
        case .mapping(let entries, _):
            return Node.mapping(.init(entries.map { (Node.scalar(.init($0.key)), $0.value.node()) }))
        }
    }
}
