import Foundation

/// Cases from a spreadsheet or a log (a suite's `cases:`): a CSV file with a header row, or a
/// JSONL file with one object a line, each row one single-turn case.
///
/// Columns: `message` (required); `pack` (required, unless the suite's packs are all one and
/// a row names none); `id`, `description`, `tags` (separated by `|`); the compile inputs
/// `topic`, `intent`, `profile`, `context`, `memory`, `coach`; and the expectations
/// `contains` and `not-contains` (phrases separated by `|`), `flagged` (a rule id, or `yes`
/// for any rule) and `not-flagged` (`yes`). Every value is text: a row's words never become
/// a check, a template or a path anywhere but in the column named for it.
public enum CaseTable {
    /// The columns a table may have.
    public static let columns = ["id", "pack", "message", "description", "tags", "topic", "intent", "profile", "context", "memory", "coach",
                                 "contains", "not-contains", "flagged", "not-flagged"]

    /// One row: its cells by column, and where each cell is.
    struct Row {
        var cells: [String: (text: String, location: SourceLocation)] = [:]
        var location: SourceLocation
    }

    /// The cases of the table at `path`, as fixtures, with every problem found at its
    /// `file:line:col`. A row with an error is left out; the rest load.
    public static func load(_ path: String, fileSystem: FileSystem) -> (fixtures: [Fixture], diagnostics: [Diagnostic]) {
        let start = SourceLocation(file: path, line: 1, column: 1)
        let text: String
        do {
            text = String(decoding: try fileSystem.read(path), as: UTF8.self)
        } catch {
            return ([], [.error("cannot read the case table: \(error.localizedDescription)", at: start)])
        }
        var diagnostics: [Diagnostic] = []
        let rows: [Row]
        if path.lowercased().hasSuffix(".jsonl") || path.lowercased().hasSuffix(".ndjson") {
            rows = jsonLines(text, file: path, into: &diagnostics)
        } else if path.lowercased().hasSuffix(".csv") {
            rows = csv(text, file: path, into: &diagnostics)
        } else {
            return ([], [.error("a case table is a .csv or a .jsonl file", at: start, hint: "rename it, or convert it")])
        }
        let name = Paths.lastComponent(path)
        let stem = name.split(separator: ".").dropLast().joined(separator: ".")
        var fixtures: [Fixture] = []
        var ids: [String: SourceLocation] = [:]
        for (number, row) in rows.enumerated() {
            func cell(_ name: String) -> String? { row.cells[name].map(\.text).flatMap { $0.isEmpty ? nil : $0 } }
            func list(_ name: String) -> [String] {
                (cell(name) ?? "").split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            }
            func at(_ name: String) -> SourceLocation { row.cells[name]?.location ?? row.location }
            guard let message = cell("message") else {
                diagnostics.append(.error("this row has no message", at: row.location, hint: "every case needs the user's message in a 'message' column"))
                continue
            }
            guard let pack = cell("pack") else {
                diagnostics.append(.error("this row names no pack", at: at("pack"), hint: "add a 'pack' column with the pack folder, such as personas/luna"))
                continue
            }
            var expect: [Check] = []
            let phrases = list("contains")
            if !phrases.isEmpty { expect.append(Check(id: "contains", kind: .contains(phrases, all: false, caseSensitive: false), location: at("contains"))) }
            let absent = list("not-contains")
            if !absent.isEmpty { expect.append(Check(id: "not-contains", kind: .notContains(absent, caseSensitive: false), location: at("not-contains"))) }
            if let rule = cell("flagged"), !["no", "false", "0"].contains(rule.lowercased()) {
                let any = ["yes", "true", "1", "any"].contains(rule.lowercased())
                expect.append(Check(id: "flagged", kind: .flagged(rule: any ? nil : rule), location: at("flagged")))
            }
            if let value = cell("not-flagged") {
                guard ["yes", "true", "1"].contains(value.lowercased()) || ["no", "false", "0"].contains(value.lowercased()) else {
                    diagnostics.append(.error("not-flagged is 'yes' or empty, found '\(value)'", at: at("not-flagged")))
                    continue
                }
                if ["yes", "true", "1"].contains(value.lowercased()) { expect.append(Check(id: "not-flagged", kind: .notFlagged, location: at("not-flagged"))) }
            }
            let id = cell("id") ?? "\(stem)-\(number + 1)"
            if let first = ids[id] {
                diagnostics.append(.error("case id '\(id)' is also used at \(first)", at: at("id")))
                continue
            }
            ids[id] = at("id")
            let inputs = CompileInputs(coach: cell("coach"), topic: cell("topic"), intent: cell("intent"), profile: cell("profile"),
                                       memory: cell("memory"), context: cell("context"))
            var locations: [String: SourceLocation] = [:]
            for field in ["coach", "topic", "intent", "profile", "memory", "context"] where cell(field) != nil { locations[field] = at(field) }
            fixtures.append(Fixture(id: id, pack: pack, description: cell("description"), tags: list("tags"), inputs: inputs,
                                    turns: [Fixture.Turn(user: message, reply: nil, mock: nil, expect: expect, location: at("message"))],
                                    file: path, location: row.location, inputLocations: locations))
        }
        return (fixtures, diagnostics)
    }

    /// Checks a header's column names: an unknown one is an error with the nearest name.
    static func checkColumns(_ names: [(String, SourceLocation)], needingMessage: Bool = true, into diagnostics: inout [Diagnostic]) -> Bool {
        var good = true
        for (name, location) in names where !columns.contains(name) {
            diagnostics.append(.error("unknown column '\(name)'", at: location, hint: Suggestions.hint(for: name, in: columns, noun: "column")))
            good = false
        }
        if needingMessage, !names.contains(where: { $0.0 == "message" }) {
            diagnostics.append(.error("the table has no 'message' column", at: names.first?.1 ?? SourceLocation(file: "", line: 1, column: 1),
                                      hint: "columns: " + columns.joined(separator: ", ")))
            good = false
        }
        return good
    }

    /// CSV as RFC 4180 writes it: a header row, then records; a field in double quotes may
    /// hold commas, line breaks and doubled quotes.
    static func csv(_ text: String, file: String, into diagnostics: inout [Diagnostic]) -> [Row] {
        var records: [[(String, SourceLocation)]] = []
        var record: [(String, SourceLocation)] = []
        var field = "", quoted = false, inQuotes = false
        var line = 1, column = 1
        var fieldStart = SourceLocation(file: file, line: 1, column: 1)
        var characters = Array(text.replacingOccurrences(of: "\r\n", with: "\n"))
        if characters.first == "\u{FEFF}" { characters.removeFirst() }  // a spreadsheet's byte-order mark
        func endField() {
            record.append((quoted ? field : field.trimmingCharacters(in: .whitespaces), fieldStart))
            field = ""
            quoted = false
        }
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if inQuotes {
                if character == "\"" {
                    if index + 1 < characters.count, characters[index + 1] == "\"" {
                        field.append("\"")
                        index += 1
                        column += 1
                    } else {
                        inQuotes = false
                    }
                } else {
                    field.append(character)
                }
            } else if character == "\"" && field.trimmingCharacters(in: .whitespaces).isEmpty {
                inQuotes = true
                quoted = true
                field = ""
            } else if character == "," {
                endField()
                fieldStart = SourceLocation(file: file, line: line, column: column + 1)
            } else if character == "\n" {
                endField()
                if !(record.count == 1 && record[0].0.isEmpty) { records.append(record) }
                record = []
                fieldStart = SourceLocation(file: file, line: line + 1, column: 1)
            } else {
                field.append(character)
            }
            if character == "\n" { line += 1; column = 1 } else { column += 1 }
            index += 1
        }
        if inQuotes {
            diagnostics.append(.error("a quoted field is never closed", at: fieldStart, hint: "close it with a double quote; write a quote inside one as \"\""))
            return []
        }
        if !field.isEmpty || !record.isEmpty {
            endField()
            if !(record.count == 1 && record[0].0.isEmpty) { records.append(record) }
        }
        guard let header = records.first else {
            diagnostics.append(.error("the case table is empty", at: SourceLocation(file: file, line: 1, column: 1), hint: "its first row names the columns"))
            return []
        }
        let names = header.map { ($0.0.lowercased(), $0.1) }
        guard checkColumns(names, into: &diagnostics) else { return [] }
        return records.dropFirst().compactMap { fields in
            let location = fields.first?.1 ?? SourceLocation(file: file, line: 1, column: 1)
            guard fields.count <= names.count else {
                diagnostics.append(.error("this row has \(fields.count) fields; the header has \(names.count)", at: location,
                                          hint: "quote a field that holds a comma"))
                return nil
            }
            var row = Row(location: location)
            for (name, value) in zip(names.map(\.0), fields) { row.cells[name] = value }
            return row
        }
    }

    /// JSONL: one JSON object a line, its keys the columns; values are strings (a list of
    /// strings is joined with `|`, a boolean is `yes` or `no`).
    static func jsonLines(_ text: String, file: String, into diagnostics: inout [Diagnostic]) -> [Row] {
        var rows: [Row] = []
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let location = SourceLocation(file: file, line: offset + 1, column: 1)
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            guard let value = try? JSONValue.parse(Data(line.utf8)), case .object(let object) = value else {
                diagnostics.append(.error("this line is not a JSON object", at: location, hint: "each line of a .jsonl file is one object, such as {\"message\": \"…\"}"))
                continue
            }
            // A line without a message is said to be one below, as a CSV row is.
            guard checkColumns(object.keys.sorted().map { ($0, location) }, needingMessage: false, into: &diagnostics) else { continue }
            var row = Row(location: location)
            for (key, value) in object {
                let text: String
                switch value {
                case .string(let string): text = string
                case .bool(let flag): text = flag ? "yes" : "no"
                case .number(let number): text = number == number.rounded() ? String(Int(number)) : String(number)
                case .array(let items):
                    let strings = items.compactMap { item -> String? in if case .string(let string) = item { return string } else { return nil } }
                    guard strings.count == items.count else {
                        diagnostics.append(.error("'\(key)' is a list of strings or a string", at: location))
                        continue
                    }
                    text = strings.joined(separator: "|")
                case .null: text = ""
                case .object:
                    diagnostics.append(.error("'\(key)' is text, not an object", at: location))
                    continue
                }
                row.cells[key] = (text, location)
            }
            rows.append(row)
        }
        return rows
    }
}
