import CoachLab
import Foundation
import Testing

/// `JSONValue.text` and `.data` write JSON themselves for speed, and must give the bytes
/// `JSONEncoder.sorted()` gives: request bodies, cache keys and cassettes are compared by them.
@Suite struct JSONValueTests {
    /// What `JSONEncoder.sorted()` makes of `value`, or "null" where it throws, as `.data`
    /// answered before it wrote JSON itself.
    static func encoded(_ value: JSONValue) -> String {
        (try? JSONEncoder.sorted().encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// Characters chosen for the ways they can go wrong: every escape, the byte after the
    /// control range, "/" (not escaped here), a line separator, combining and precomposed
    /// accents, letters of each case, digits, and characters of two, three and four bytes.
    static let alphabet: [String] = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }
        + ["\"", "\\", "/", " ", "\u{7F}", "\u{2028}", "é", "e\u{301}", "ß", "A", "a", "Z", "z", "_", "0", "9", "1", "中", "😀"]

    static func string(_ random: inout SeededGenerator) -> String {
        (0..<random.below(8)).map { _ in alphabet[random.below(alphabet.count)] }.joined()
    }

    static func number(_ random: inout SeededGenerator) -> Double {
        switch random.below(7) {
        case 0: return Double(random.below(2001) - 1000)
        case 1: return Double(random.below(100_000)) / 64
        case 2: return [1e15, -1e15, 1e15 - 1, 999_999_999_999_999.5, 1e300, .leastNonzeroMagnitude, 1e-7, 0.1, -0.0][random.below(9)]
        case 3: return [.infinity, -.infinity, .nan][random.below(3)]
        default:
            let bits = Double(bitPattern: random.next())
            return bits.isFinite ? bits : 1.5
        }
    }

    static func value(_ random: inout SeededGenerator, depth: Int) -> JSONValue {
        switch random.below(depth > 3 ? 4 : 6) {
        case 0: return .null
        case 1: return .bool(random.below(2) == 0)
        case 2: return .number(number(&random))
        case 3: return .string(string(&random))
        case 4: return .array((0..<random.below(5)).map { _ in value(&random, depth: depth + 1) })
        default:
            return .object(Dictionary((0..<random.below(6)).map { _ in (string(&random), value(&random, depth: depth + 1)) }) { first, _ in first })
        }
    }

    @Test func compactTextMatchesJSONEncoder() {
        var random = SeededGenerator(seed: 2026_11_27)
        var differences: [(written: String, encoded: String)] = []
        for _ in 0..<3_000 {
            let value = Self.value(&random, depth: 0)
            let encoded = Self.encoded(value)
            if value.text != encoded || value.data != Data(encoded.utf8) { differences.append((value.text, encoded)) }
        }
        #expect(differences.isEmpty, "\(differences.count) of 3,000 differ; the first: \(differences.first.map { "\($0)" } ?? "")")
    }

    /// Reading gives back what was written: every JSON type, whichever order the reader tries
    /// them in (numbers that are not finite have no JSON, so they are left out here).
    @Test func parsingWhatWasWrittenGivesTheValueBack() throws {
        var random = SeededGenerator(seed: 27)
        func finite(_ value: JSONValue) -> Bool {
            switch value {
            case .number(let number): number.isFinite
            case .array(let items): items.allSatisfy(finite)
            case .object(let members): members.values.allSatisfy(finite)
            default: true
            }
        }
        var checked = 0
        for _ in 0..<2_000 {
            let value = Self.value(&random, depth: 0)
            guard finite(value) else { continue }
            #expect(try JSONValue.parse(value.data) == value, "\(value.text)")
            checked += 1
        }
        #expect(checked > 1_000)
        #expect(try JSONValue.parse(Data("[true,false,null,0,\"\",{},[]]".utf8)) == [true, false, .null, 0, "", [:], []])
        #expect(throws: DecodingError.self) { try JSONValue.parse(Data("[tru]".utf8)) }
    }

    /// What `JSONDecoder` makes of `bytes` as a `JSONValue`: the reference the reader is held to.
    static func decoded(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    }

    /// The reader accepts what `JSONDecoder` accepts, with the same value, and refuses what it
    /// refuses, on text written from random values and then damaged a few bytes at a time with
    /// the bytes JSON turns on: brackets, quotes, escapes, digits, signs, exponents, literals'
    /// letters, whitespace JSON allows and does not, and bytes that break UTF-8.
    @Test func readingAgreesWithJSONDecoderOnDamagedText() {
        var random = SeededGenerator(seed: 2026_11_28)
        let pieces: [[UInt8]] = ["{", "}", "[", "]", "\"", ",", ":", "\\", "\\u", "\\ud83d", "\\ude00", "\\ud800\\u0041", "u", "0", "1",
                                 "9", "-", "+", ".", "e", "E", "e-400", "e400", "t", "true", "n", "null", "f", " ", "\t", "\n", "\u{C}",
                                 "x", "/", "é", "😀"].map { Array($0.utf8) } + [[0x00], [0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xEF, 0xBB, 0xBF]]
        var disagreements: [String] = []
        var accepted = 0
        for round in 0..<6_000 {
            var bytes = Array(Self.value(&random, depth: 0).text.utf8)
            for _ in 0..<(round % 4) {
                let at = bytes.isEmpty ? 0 : random.below(bytes.count + 1)
                switch random.below(3) {
                case 0: bytes.insert(contentsOf: pieces[random.below(pieces.count)], at: at)
                case 1: if at < bytes.count { bytes.remove(at: at) }
                default: if at < bytes.count { bytes.replaceSubrange(at...at, with: pieces[random.below(pieces.count)]) }
                }
            }
            let read = try? JSONValue.parse(Data(bytes))
            if read != nil { accepted += 1 }
            if read != Self.decoded(bytes) { disagreements.append(String(decoding: bytes, as: UTF8.self)) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) of 6,000 differ; the first: \(disagreements.prefix(3))")
        // Both outcomes are exercised: damage often leaves valid JSON, and often does not.
        #expect(accepted > 1_500 && accepted < 5_500, "\(accepted)")
    }

    /// The edges, written out: what JSONDecoder allows beyond RFC 8259 (a byte-order mark, a
    /// trailing comma, a repeated key whose first value wins), what it refuses (numbers out of
    /// a Double's range, lone surrogates, raw control characters, nesting past 512), and that
    /// the reader does the same.
    @Test(arguments: [
        ("\u{FEFF}[1]", "[1]"), ("[1,]", "[1]"), ("[1 , ]", "[1]"), (#"{"a":1,}"#, #"{"a":1}"#), (#"{"a":1,"a":2}"#, #"{"a":1}"#),
        ("-0", "0"), ("1E5", "100000"), ("0e999", "0"), ("5e-324", "5e-324"), ("12345678901234567890", "1.2345678901234567e+19"),
        (#""\ud83d\ude00""#, #""😀""#), (#""\u00e9\/""#, #""é/""#), (" \t\n\r 1 ", "1"),
        ("1e400", nil), ("1e-400", nil), ("2e-324", nil), ("01", nil), ("1.", nil), (".5", nil), ("+1", nil), ("-", nil), ("1.5e", nil),
        ("[,]", nil), ("[1,,2]", nil), (#"{"a"}"#, nil), ("{1:2}", nil), ("1 2", nil), ("", nil), ("\u{C}1", nil), ("NaN", nil),
        ("\u{0}1", "1"), (#""\ud800""#, nil), (#""\udc00""#, nil), (#""\ude00\ud83d""#, nil), ("\"a\tb\"", nil), (#""\x""#, nil), ("truex", nil),
    ] as [(String, String?)])
    func readingTheEdgesAsJSONDecoderDoes(_ text: String, _ expected: String?) {
        let read = try? JSONValue.parse(Data(text.utf8))
        #expect(read?.text == expected)
        #expect(read == Self.decoded(Array(text.utf8)))
    }

    /// Nesting is refused past 512 containers, as JSONDecoder refuses it, and a hostile depth
    /// is refused rather than exhausting the stack.
    @Test(arguments: [511, 512, 513, 100_000])
    func nestingIsReadTo512Deep(_ depth: Int) {
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let read = try? JSONValue.parse(Data(text.utf8))
        #expect((read != nil) == (depth <= 512))
        if depth < 1_000 { #expect(read == Self.decoded(Array(text.utf8))) }
    }

    /// Each escape and number form once, written out, so a change to both sides at once shows.
    @Test func compactTextIsPinned() {
        let value: JSONValue = ["b": "a/b\"\\\n\r\t\u{8}\u{C}\u{1}\u{1F}\u{7F}é", "a": [1, 1.5, -0.0, 1e15, 1e300, 1e-7, true, .null],
                                "B": [:], "_": []]
        #expect(value.text == #"{"B":{},"_":[],"a":[1,1.5,0,1000000000000000,1e+300,1e-07,true,null],"b":"a/b\"\\\n\r\t\b\f\u0001\u001f\#u{7F}é"}"#)
    }

    /// A number JSON cannot hold, or nesting 512 deep, makes the whole value "null", as
    /// `JSONEncoder` throwing did.
    @Test(arguments: [509, 510, 511, 512, 513])
    func deepNestingEndsWhereJSONEncoderEnds(_ depth: Int) {
        var value: JSONValue = "leaf"
        for level in 0..<depth { value = level % 2 == 0 ? .array([value]) : .object(["k": value]) }
        #expect(value.text == Self.encoded(value))
        #expect(value.text == (depth < 512 ? Self.encoded(value) : "null"))
        #expect(JSONValue.array([1, .number(.nan)]).text == "null")
    }
}
