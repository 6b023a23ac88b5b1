import Foundation

extension CheckKinds {
    /// The reply is JSON that satisfies a JSON Schema (a practical subset).
    public struct JSONSchema: CheckKind {
        public var schema: JSONValue

        public static let names = [CheckName("json-schema", takes: "schema", needsParameters: true)]
        public static let fields = [FieldSpec("schema", .any, "the JSON Schema.")]

        public static func read(_ reading: inout CheckReading) -> JSONSchema? {
            guard let schema = reading.value["schema"] else { return reading.missing("a schema") }
            return JSONSchema(schema: JSONValue(yaml: schema))
        }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            let reply = subject.reply
            guard let data = reply.trimmed(.whitespacesAndNewlines).data(using: .utf8),
                  let value = try? JSONValue.parse(data) else {
                return check.result(false, "the reply is not JSON: \(CheckEvaluator.quote(String(reply.prefix(60))))")
            }
            let problems = JSONSchemaSubset.validate(value, against: schema)
            return check.result(problems.isEmpty, problems.isEmpty ? "valid against the schema" : problems.prefix(3).joined(separator: "; "))
        }
    }
}

extension Check.Kind {
    /// The reply is JSON that satisfies a JSON Schema (a practical subset).
    public static func jsonSchema(_ schema: JSONValue) -> Check.Kind { Check.Kind(CheckKinds.JSONSchema(schema: schema)) }
}
