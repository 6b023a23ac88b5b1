import ArgumentParser
import CoachLab

/// `coachlab schema`: JSON Schemas for every file kind.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print or write JSON Schemas for CoachLab's file kinds.",
        discussion: """
        Editors validate and complete YAML with these. Shipped files point at them with a \
        modeline such as '# yaml-language-server: $schema=../../schemas/pack.schema.json'.
        """
    )

    @Argument(help: "The kind: \(JSONSchemaEmitter.kinds.joined(separator: ", ")). Omit with --out to write all.")
    var kind: String?

    @Option(help: "Write <kind>.schema.json files into this folder.")
    var out: String?

    func validate() throws {
        if let kind, !JSONSchemaEmitter.kinds.contains(kind) {
            throw ValidationError("unknown kind '\(kind)'; kinds: \(JSONSchemaEmitter.kinds.joined(separator: ", "))")
        }
        if kind == nil, out == nil {
            throw ValidationError("name a kind (\(JSONSchemaEmitter.kinds.joined(separator: ", "))) or pass --out DIR")
        }
    }

    func run() throws {
        let kinds = kind.map { [$0] } ?? JSONSchemaEmitter.kinds
        for kind in kinds {
            guard let schema = JSONSchemaEmitter.schema(for: kind) else { continue }
            if let out {
                try FileSystem.invocation.write(schema, to: "\(out)/\(kind).schema.json", replacing: .schema)
            } else {
                Terminal.out(schema, terminator: "")
            }
        }
        if let out { Terminal.error("wrote \(kinds.count) schemas to \(out)") }
    }
}
