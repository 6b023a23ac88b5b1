/// Validates YAML against an ``ObjectSpec``, for file kinds defined outside the core
/// (providers.yaml, fixtures, suites): unknown keys with "did you mean", missing or empty
/// required fields, and wrong types, each at its location.
public enum ContentValidator {
    /// The diagnostics for `value` read as `spec`.
    public static func validate(_ value: YAMLValue, spec: ObjectSpec) -> [Diagnostic] {
        var diagnostics = Diagnostics()
        SpecValidator.validate(value, spec: spec, what: spec.name, into: &diagnostics)
        return diagnostics.sorted
    }

    /// A "did you mean" hint for `word` among `candidates`.
    public static func suggestion(for word: String, in candidates: [String], noun: String = "name") -> String {
        Suggestions.hint(for: word, in: candidates, noun: noun)
    }
}
