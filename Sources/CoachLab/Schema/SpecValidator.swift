/// Checks a ``YAMLValue`` against a ``FieldType``: unknown keys (with "did you mean"),
/// missing or empty required fields, and wrong types, each at its exact location.
enum SpecValidator {
    /// `what` names the value in messages; it is only built for a message (a suite's 2,000
    /// fixtures are checked with none).
    static func validate(_ value: YAMLValue, as type: FieldType, what: @autoclosure () -> String, into diagnostics: inout Diagnostics) {
        switch type {
        case .string, .text:
            guard let scalar = value.scalar, !scalar.isNull else {
                return mismatch(value, expected: "text", what: what(), into: &diagnostics)
            }
        case .integer:
            guard let scalar = value.scalar, scalar.style == .plain, Int(scalar.text) != nil else {
                return mismatch(value, expected: "a whole number", what: what(), into: &diagnostics)
            }
        case .atLeast(let least):
            guard let scalar = value.scalar, scalar.style == .plain, let number = Int(scalar.text) else {
                return mismatch(value, expected: "a whole number", what: what(), into: &diagnostics)
            }
            if number < least { diagnostics.error("\(what()) must be at least \(least), found \(number)", at: value.location) }
        case .number:
            guard let scalar = value.scalar, scalar.style == .plain, Double(scalar.text) != nil else {
                return mismatch(value, expected: "a number", what: what(), into: &diagnostics)
            }
        case .boolean:
            guard let scalar = value.scalar, scalar.style == .plain, YAMLValue.booleanValue(scalar.text) != nil else {
                return mismatch(value, expected: "true or false", what: what(), into: &diagnostics)
            }
        case .date:
            guard let text = value.text, LocalDateTime(parsing: text) != nil else {
                return mismatch(value, expected: "an ISO 8601 date such as 2026-03-01 or 2026-03-01T21:30:00Z", what: what(),
                                into: &diagnostics)
            }
        case .oneOf(let options):
            guard let text = value.text, options.contains(text) else {
                let found = value.text.map { "'\($0)'" } ?? value.kindDescription
                diagnostics.error("\(what()) must be one of \(options.joined(separator: ", ")), not \(found)", at: value.location,
                                  hint: value.text.flatMap { Suggestions.closest(to: $0, in: options) }.map { "did you mean '\($0)'?" })
                return
            }
        case .list(let element):
            guard let items = value.items else {
                return mismatch(value, expected: "a list", what: what(), into: &diagnostics)
            }
            for item in items {
                validate(item, as: element, what: "an item of \(what())", into: &diagnostics)
            }
        case .map(let element):
            guard let entries = value.entries else {
                return mismatch(value, expected: "a mapping", what: what(), into: &diagnostics)
            }
            for entry in entries {
                validate(entry.value, as: element, what: "'\(entry.key)'", into: &diagnostics)
            }
        case .object(let spec):
            validate(value, spec: spec, what: what(), into: &diagnostics)
        case .any:
            break
        }
    }

    static func validate(_ value: YAMLValue, spec: ObjectSpec, what: @autoclosure () -> String, into diagnostics: inout Diagnostics) {
        guard let entries = value.entries else {
            return mismatch(value, expected: "a mapping (a \(spec.name))", what: what(), into: &diagnostics)
        }
        for entry in entries {
            guard let field = spec.field(entry.key) else {
                if !spec.open {
                    diagnostics.error("unknown key '\(entry.key)' in \(spec.name)", at: entry.keyLocation,
                                      hint: Suggestions.hint(for: entry.key, in: spec.fields.map(\.name)))
                }
                continue
            }
            if entry.value.isNull {
                if field.required {
                    diagnostics.error("'\(entry.key)' in \(spec.name) is required but empty", at: entry.value.location)
                }
                continue
            }
            validate(entry.value, as: field.type, what: "'\(entry.key)' in \(spec.name)", into: &diagnostics)
            if field.required {
                if let text = entry.value.text, text.consists(of: .whitespacesAndNewlines) {
                    diagnostics.error("'\(entry.key)' in \(spec.name) is required but empty", at: entry.value.location)
                } else if let items = entry.value.items, items.isEmpty {
                    diagnostics.error("'\(entry.key)' in \(spec.name) is required but the list is empty", at: entry.value.location)
                }
            }
        }
        for field in spec.fields where field.required && !entries.contains(where: { $0.key == field.name }) {
            diagnostics.error("\(spec.name) is missing required key '\(field.name)'", at: value.location,
                              hint: "add '\(field.name):' (\(field.summary.prefix(80)))")
        }
    }

    private static func mismatch(_ value: YAMLValue, expected: String, what: String, into diagnostics: inout Diagnostics) {
        diagnostics.error("\(what) must be \(expected), found \(value.kindDescription)", at: value.location)
    }
}
