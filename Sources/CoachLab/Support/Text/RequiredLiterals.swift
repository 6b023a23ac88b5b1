/// The literal strings a case-insensitive regular expression cannot match without: a match
/// contains at least one of them. Screening runs each guardrail pattern on every message, and
/// most messages hold none of a pattern's words, so a byte search for them answers "no match"
/// for far less than the regular expression costs.
///
/// Derived from the pattern's syntax, conservatively: only ASCII literals count, since under
/// case-insensitive matching a non-ASCII literal can match ASCII ("ß" matches "ss", the Kelvin
/// sign "k"), and the test is only ever made on ASCII text. Anything the reading does not
/// understand (inline flags, back-references, `\p{…}`, `\Q…\E`, a brace that is not a
/// quantifier…) yields no literals, and the pattern always runs.
struct RequiredLiterals: Sendable, Equatable {
    /// Lower-case ASCII strings, none empty; a match contains one of them.
    let alternatives: [[UInt8]]

    /// The literals of `pattern`, or nil when it has none worth testing or cannot be read.
    init?(pattern: String) {
        var reader = Reader(Array(pattern.utf8))
        guard let node = reader.alternation(), reader.atEnd, let needs = node.needs else { return nil }
        alternatives = needs.sorted().map { Array($0.utf8) }
    }

    /// Whether `text`, lower-case ASCII bytes, holds one of the alternatives: false means the
    /// pattern cannot match it.
    func mayMatch(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        alternatives.contains { needle in needle.withUnsafeBufferPointer { FoldedText.firstOffset(of: $0, in: text) != nil } }
    }

    /// The most strings a set may hold: beyond it, testing costs more than it saves.
    static let limit = 48
    /// The most strings a run of atoms multiplies out to before it starts again: "(a|b) (c|d)"
    /// is better searched for as its parts than as every combination.
    static let runLimit = 8

    /// What a piece of the pattern matches: every string it can (when that is a small finite
    /// set) and the strings one of which each match contains.
    /// Strings are kept in arrays without repeats rather than in sets, requirements too, and
    /// alternatives and products are made unique by a linear search: the sets are small, and
    /// hashing them cost more than the rest of the reading (some seventy patterns at each start).
    struct Node {
        var exact: [String]?
        private var required: [String]?

        static let anything = Node(exact: nil)
        static let empty = Node(exact: [""])

        init(exact: [String]?, needs: [String]? = nil) {
            self.exact = exact
            required = needs
        }

        /// What every match contains: as given, else the exact strings when they can serve.
        var needs: [String]? { required ?? exact.flatMap(Node.usable) }

        /// The set as a requirement, or nil when it requires nothing or holds too many.
        static func usable(_ set: [String]) -> [String]? {
            set.isEmpty || set.contains("") || set.count > RequiredLiterals.limit ? nil : set
        }

        /// The better of two requirements: the rarer in text (longer shortest strings, up to
        /// four letters, past which any word is rare enough), then the fewer to search for.
        static func better(_ a: [String]?, _ b: [String]?) -> [String]? {
            guard let a else { return b }
            guard let b else { return a }
            let shortestA = a.map(\.utf8.count).min() ?? 0, shortestB = b.map(\.utf8.count).min() ?? 0
            if min(shortestA, 4) != min(shortestB, 4) { return shortestA > shortestB ? a : b }
            if a.count != b.count { return a.count < b.count ? a : b }
            return shortestA >= shortestB ? a : b
        }
    }

    /// A recursive-descent reading of the pattern's syntax (ICU's, as NSRegularExpression
    /// takes it). Every function returns nil for syntax it does not know.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0
        /// Groups open around the reader; past ``maxDepth`` it gives up rather than recurse on.
        var depth = 0
        static let maxDepth = 64

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index >= bytes.count }
        var next: UInt8? { atEnd ? nil : bytes[index] }

        /// Alternatives separated by `|`, up to the end or a closing parenthesis.
        mutating func alternation() -> Node? {
            var branches: [Node] = []
            while true {
                guard let branch = sequence() else { return nil }
                branches.append(branch)
                guard next == UInt8(ascii: "|") else { break }
                index += 1
            }
            if branches.count == 1 { return branches[0] }
            var exact: [String]? = []
            var needs: [String]? = []
            for branch in branches {
                if let known = branch.exact, var sofar = exact {
                    for string in known where !sofar.contains(string) { sofar.append(string) }
                    exact = sofar.count <= RequiredLiterals.limit ? sofar : nil
                } else {
                    exact = nil
                }
                if let known = branch.needs, var sofar = needs {
                    for string in known where !sofar.contains(string) { sofar.append(string) }
                    needs = sofar
                } else {
                    needs = nil
                }
            }
            return Node(exact: exact, needs: needs.flatMap(Node.usable) ?? exact.flatMap(Node.usable))
        }

        /// Quantified atoms in a row: runs of exactly known atoms multiply out into strings;
        /// the best requirement of any run or atom is the sequence's.
        mutating func sequence() -> Node? {
            var run = [""]
            var best: [String]?
            var allExact = true
            while let byte = next, byte != UInt8(ascii: "|"), byte != UInt8(ascii: ")") {
                // Nearly every atom is one plain character with no quantifier after it: add it
                // to each string in place, as the exact single-string atom below would be,
                // without building a node for it.
                if Self.isPlainLiteral(byte), !Self.isQuantifier(index + 1 < bytes.count ? bytes[index + 1] : nil) {
                    index += 1
                    let character = Character(UnicodeScalar(byte | (Self.isUpper(byte) ? 0x20 : 0)))
                    for index in run.indices { run[index].append(character) }
                    continue
                }
                guard let atom = quantified() else { return nil }
                if let known = atom.exact, run.count * known.count <= max(RequiredLiterals.runLimit, run.count) {
                    if known.count == 1 {
                        // One string (an escaped character, a group of one): added to each string in place.
                        for index in run.indices { run[index] += known[0] }
                    } else {
                        var product: [String] = []
                        for head in run {
                            for tail in known where !product.contains(head + tail) { product.append(head + tail) }
                        }
                        run = product
                    }
                    continue
                }
                // The run ends here: the sequence is no longer one small set of strings.
                allExact = false
                best = Node.better(best, Node.usable(run))
                best = Node.better(best, atom.needs)
                run = atom.exact ?? [""]
            }
            best = Node.better(best, Node.usable(run))
            return Node(exact: allExact ? run : nil, needs: best)
        }

        /// An atom with any quantifier after it.
        mutating func quantified() -> Node? {
            guard let atom = atom() else { return nil }
            guard let byte = next else { return atom }
            var least = 1
            switch byte {
            case UInt8(ascii: "?"): least = 0; index += 1
            case UInt8(ascii: "*"): least = 0; index += 1
            case UInt8(ascii: "+"): index += 1
            case UInt8(ascii: "{"):
                guard let bounds = braces() else { return nil }
                least = bounds
            default: return atom
            }
            if next == UInt8(ascii: "?") || next == UInt8(ascii: "+") { index += 1 }  // lazy or possessive
            guard least > 0 else {
                // Optional: it may match nothing; "x?" is still the small set {"", "x"}.
                if byte == UInt8(ascii: "?"), let known = atom.exact { return Node(exact: known.contains("") ? known : known + [""]) }
                return .anything
            }
            return Node(exact: nil, needs: atom.needs)
        }

        /// `{n}`, `{n,}` or `{n,m}`: the least count.
        mutating func braces() -> Int? {
            index += 1
            var digits = 0, least = 0
            while let byte = next, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                least = least * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                index += 1
                guard least < 100_000 else { return nil }
            }
            guard digits > 0 else { return nil }
            if next == UInt8(ascii: ",") {
                index += 1
                while let byte = next, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
            }
            guard next == UInt8(ascii: "}") else { return nil }
            index += 1
            return least
        }

        mutating func atom() -> Node? {
            guard let byte = next else { return nil }
            index += 1
            switch byte {
            case UInt8(ascii: "("): return group()
            case UInt8(ascii: "["): return skipSet() ? .anything : nil
            case UInt8(ascii: "\\"): return escape()
            case UInt8(ascii: "."): return .anything
            case UInt8(ascii: "^"), UInt8(ascii: "$"): return .empty
            case UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "]"):
                return nil
            default:
                guard byte < 0x80 else {
                    // A non-ASCII literal: skip its scalar's continuation bytes.
                    while let more = next, more & 0xC0 == 0x80 { index += 1 }
                    return .anything
                }
                return Node(exact: [String(UnicodeScalar(byte | (Self.isUpper(byte) ? 0x20 : 0)))])
            }
        }

        static func isUpper(_ byte: UInt8) -> Bool { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) }

        /// An ASCII byte that ``atom()`` reads as the literal character itself.
        static func isPlainLiteral(_ byte: UInt8) -> Bool {
            guard byte < 0x80 else { return false }
            switch byte {
            case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"),
                 UInt8(ascii: "\\"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: "*"), UInt8(ascii: "+"),
                 UInt8(ascii: "?"), UInt8(ascii: "|"):
                return false
            default:
                return true
            }
        }

        /// A byte that ``quantified()`` reads as a quantifier of the atom before it.
        static func isQuantifier(_ byte: UInt8?) -> Bool {
            byte == UInt8(ascii: "?") || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "{")
        }

        /// After `(`: a capturing group, `(?:…)`, an atomic `(?>…)`, a named `(?<name>…)`, or a
        /// lookaround (which consumes nothing and so requires nothing).
        mutating func group() -> Node? {
            guard depth < Self.maxDepth else { return nil }
            depth += 1
            defer { depth -= 1 }
            var lookaround = false
            if next == UInt8(ascii: "?") {
                index += 1
                switch next {
                case UInt8(ascii: ":"), UInt8(ascii: ">"): index += 1
                case UInt8(ascii: "="), UInt8(ascii: "!"): index += 1; lookaround = true
                case UInt8(ascii: "<"):
                    index += 1
                    if next == UInt8(ascii: "=") || next == UInt8(ascii: "!") {
                        index += 1
                        lookaround = true
                    } else {
                        while let byte = next, byte != UInt8(ascii: ">") {
                            guard Self.isWordByte(byte) else { return nil }
                            index += 1
                        }
                        guard next == UInt8(ascii: ">") else { return nil }
                        index += 1
                    }
                default: return nil  // inline flags and anything else
                }
            }
            guard let inner = alternation(), next == UInt8(ascii: ")") else { return nil }
            index += 1
            return lookaround ? .anything : inner
        }

        static func isWordByte(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }

        /// After `\`: a zero-width assertion, a class, or an escaped punctuation literal.
        mutating func escape() -> Node? {
            guard let byte = next else { return nil }
            index += 1
            switch byte {
            case UInt8(ascii: "b"), UInt8(ascii: "B"), UInt8(ascii: "A"), UInt8(ascii: "Z"), UInt8(ascii: "z"), UInt8(ascii: "G"):
                return .empty
            case UInt8(ascii: "d"), UInt8(ascii: "D"), UInt8(ascii: "s"), UInt8(ascii: "S"), UInt8(ascii: "w"), UInt8(ascii: "W"),
                 UInt8(ascii: "h"), UInt8(ascii: "H"), UInt8(ascii: "v"), UInt8(ascii: "V"), UInt8(ascii: "R"), UInt8(ascii: "X"),
                 UInt8(ascii: "t"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "f"), UInt8(ascii: "e"), UInt8(ascii: "a"):
                return .anything
            default:
                // Only punctuation escapes to itself; letters and digits are features not read here.
                guard byte < 0x80, !Self.isWordByte(byte), byte > 0x20 else { return nil }
                return Node(exact: [String(UnicodeScalar(byte))])
            }
        }

        /// After `[`: skips to the matching `]`, through nested sets and escapes.
        mutating func skipSet() -> Bool {
            var depth = 1
            if next == UInt8(ascii: "^") { index += 1 }
            guard next != UInt8(ascii: "]") else { return false }
            while let byte = next {
                index += 1
                switch byte {
                case UInt8(ascii: "\\"):
                    guard !atEnd else { return false }
                    index += 1
                case UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return true }
                default: break
                }
            }
            return false
        }
    }
}

/// The lower-cased bytes of an ASCII text, the form ``RequiredLiterals`` tests; nil for any
/// other text, which every pattern must then read in full.
struct LoweredASCII {
    let bytes: [UInt8]
    /// Whether the text had any capital letter (before it was lowered).
    let hadCapitals: Bool

    init?(_ text: String) {
        var lowered: [UInt8] = []
        lowered.reserveCapacity(text.utf8.count)
        var capitals = false
        for byte in text.utf8 {
            guard byte < 0x80 else { return nil }
            if (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) {
                capitals = true
                lowered.append(byte | 0x20)
            } else {
                lowered.append(byte)
            }
        }
        bytes = lowered
        hadCapitals = capitals
    }
}
