import CoachLab
import Foundation

/// Writes pretty-printed JSON as Foundation's `JSONEncoder` does with sorted keys, pretty
/// printing and unescaped slashes; the caller gives each object's keys in sorted order.
struct PrettyJSONWriter {
    private(set) var bytes: [UInt8] = []
    /// How far every line after the first is indented, as the report nests the text.
    private let base: Int
    private var indent: Int
    /// For each open object or list, whether it has a member yet.
    private var filled: [Bool] = []

    init(indent: Int = 0) {
        base = indent
        self.indent = indent
        bytes.reserveCapacity(2_048)
    }

    mutating func beginObject() { open(UInt8(ascii: "{")) }
    mutating func endObject() { close(UInt8(ascii: "}")) }
    mutating func beginArray() { open(UInt8(ascii: "[")) }
    mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Starts an object member; its value follows.
    mutating func key(_ key: StaticString) {
        newMember()
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: " ")])
    }

    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x00..<0x20:
                func hex(_ nibble: UInt8) -> UInt8 { nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10 }
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex(byte >> 4), hex(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func number(_ value: Int) { bytes.append(contentsOf: String(value).utf8) }

    /// A number as the encoder writes a `Double`: its shortest form, without a trailing `.0`.
    /// - Throws: `EncodingError.invalidValue` for infinity and NaN, as the encoder does.
    mutating func number(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "Unable to encode Double.\(value) directly in JSON."))
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    mutating func bool(_ value: Bool) { bytes.append(contentsOf: (value ? "true" : "false").utf8) }

    /// A list, each element written by `write`.
    mutating func array<Element>(_ elements: [Element], _ write: (inout PrettyJSONWriter, Element) throws -> Void) rethrows {
        beginArray()
        for element in elements {
            newMember()
            try write(&self, element)
        }
        endArray()
    }

    mutating func strings(_ values: [String]) { array(values) { $0.string($1) } }

    private mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        filled.append(false)
        indent += 2
    }

    private mutating func close(_ bracket: UInt8) {
        indent -= 2
        // An empty object or list is written with a blank line inside, which the nesting
        // indents as it does every line.
        if filled.removeLast() == false {
            bytes.append(0x0A)
            bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: base))
        }
        newLine()
        bytes.append(bracket)
    }

    private mutating func newMember() {
        if filled[filled.count - 1] { bytes.append(UInt8(ascii: ",")) }
        filled[filled.count - 1] = true
        newLine()
    }

    private mutating func newLine() {
        bytes.append(0x0A)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
    }
}

extension PrettyJSONWriter {
    /// A case, its keys in sorted order as `CaseResult.CodingKeys` name them; `prompts` is not
    /// part of the JSON form.
    mutating func write(_ result: CaseResult) throws {
        beginObject()
        if let error = result.error { key("error"); string(error) }
        key("fixture"); string(result.fixture)
        key("model"); string(result.model)
        key("outcome"); string(result.outcome.rawValue)
        key("pack"); string(result.pack)
        key("provider"); string(result.provider)
        key("repeatIndex"); number(result.repeatIndex)
        key("score"); try number(result.score)
        key("suite"); string(result.suite)
        key("tags"); strings(result.tags)
        key("turns"); try array(result.turns) { try $0.write($1) }
        endObject()
    }

    mutating func write(_ turn: TurnResult) throws {
        beginObject()
        key("cached"); bool(turn.cached)
        key("checks"); try array(turn.checks) { try $0.write($1) }
        if let cost = turn.cost { key("cost"); try number(cost) }
        key("finishReason"); string(turn.finishReason)
        if let flag = turn.flag { key("flag"); write(flag) }
        if let rule = turn.flaggedRule { key("flaggedRule"); string(rule) }
        key("inputTokens"); number(turn.inputTokens)
        key("latency"); try number(turn.latency)
        key("outputTokens"); number(turn.outputTokens)
        key("promptHash"); string(turn.promptHash)
        key("reply"); string(turn.reply)
        if let sanitized = turn.sanitized { key("sanitized"); strings(sanitized) }
        if let screening = turn.screening {
            key("screening")
            beginObject()
            key("flags"); array(screening.flags) { $0.write($1) }
            endObject()
        }
        key("simulated"); bool(turn.simulated)
        if let first = turn.timeToFirstToken { key("timeToFirstToken"); try number(first) }
        key("turn"); number(turn.turn)
        key("usageEstimated"); bool(turn.usageEstimated)
        key("user"); string(turn.user)
        endObject()
    }

    mutating func write(_ check: CheckResult) throws {
        beginObject()
        key("check"); string(check.check)
        key("passed"); bool(check.passed)
        key("reason"); string(check.reason)
        key("score"); try number(check.score)
        key("weight"); try number(check.weight)
        endObject()
    }

    mutating func write(_ flag: GuardrailFlag) {
        beginObject()
        key("end"); number(flag.end)
        key("excerpt"); string(flag.excerpt)
        key("kind"); string(flag.kind.rawValue)
        if let entries = flag.lexiconEntries { key("lexiconEntries"); strings(entries) }
        key("matched"); string(flag.matched)
        key("priority"); number(flag.priority)
        key("ruleId"); string(flag.ruleId)
        key("ruleTitle"); string(flag.ruleTitle)
        key("stage"); number(flag.stage)
        key("start"); number(flag.start)
        endObject()
    }
}
