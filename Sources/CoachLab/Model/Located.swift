/// A value and where it was written.
public struct Located<Value: Sendable & Hashable>: Sendable, Hashable {
    /// The value.
    public var value: Value
    /// Where it was written.
    public var location: SourceLocation

    /// Creates a located value.
    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }
}

extension YAMLValue {
    /// The text under `key` with its location, when present and a non-null scalar.
    public func located(_ key: String) -> Located<String>? {
        guard let value = self[key], let text = value.text else { return nil }
        return Located(text, at: value.location)
    }

    /// The texts of a list of scalars under `key`, with locations; non-scalars are skipped.
    public func locatedList(_ key: String) -> [Located<String>] {
        (self[key]?.items ?? []).compactMap { item in item.text.map { Located($0, at: item.location) } }
    }

    /// The whole number under `key`, when present and valid.
    public func integer(_ key: String) -> Int? { self[key]?.text.flatMap { Int($0) } }

    /// The number under `key`, when present and valid.
    public func number(_ key: String) -> Double? { self[key]?.text.flatMap { Double($0) } }

    /// The boolean under `key`, when present and valid.
    public func boolean(_ key: String) -> Bool? { self[key]?.text.flatMap(YAMLValue.booleanValue) }

    /// The date under `key`, when present and valid.
    public func date(_ key: String) -> LocalDateTime? { self[key]?.text.flatMap(LocalDateTime.init(parsing:)) }
}
