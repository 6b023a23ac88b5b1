import Foundation

/// One reader of the line table: the kinds of instruction it takes from a line on its own, the
/// words a line must hold for it to run, how it reads, and lines that show what it reads and
/// what it leaves alone. Each reader is one file of this folder; adding one is that file and a
/// place in ``MockReading/lineReaders``. Its examples are tested, and docs/mock.md's table of
/// phrasings is generated from them.
struct LineReader: Sendable {
    typealias Kind = MockReading.Instruction.Kind

    /// Its name in docs and tests.
    let name: String
    /// The kinds it notes.
    let kinds: Set<Kind>
    /// It runs only when the line holds one of these words (``MockReading/Clue``).
    let clues: [StaticString]
    /// Whether it reads lines of the live alert too.
    var inAlert = true
    /// Reads a line (as written, and folded) into a scratch reading of that line alone.
    let read: @Sendable (inout MockReading, _ line: String, _ lower: String) -> Void
    /// Lines it reads, each with the kinds it takes from it.
    let examples: [(line: String, kinds: Set<Kind>)]
    /// Lines that hold its clues but that it must not read as any of its kinds.
    let counterExamples: [String]

    /// Whether it runs on a line with these clues, in the alert or not.
    func runs(_ clues: MockReading.Clue, _ inAlert: Bool) -> Bool { (self.inAlert || !inAlert) && clues.any(self.clues) }
}

/// The table of line readers: each line of a prompt is read on its own by the readers in
/// ``lineReaders``, in their order of precedence, after the persona's and the user's names.
extension MockReading {
    /// The line readers, in order of precedence: an earlier reader's note comes first on its line.
    static let lineReaders: [LineReader] = [.length, .questions, .form, .identity, .probeReplies, .conditional, .boundaries, .time]

    /// What one line says on its own, whatever prompt it is in: the names it gives the
    /// persona, the user's name, and the instructions read from it, in order.
    struct LineReading: Sendable {
        var names: [String] = []
        var userName: String?
        var notes: [(Instruction.Kind, String)] = []
    }

    /// A prompt line to read: where it is, its folded text, and whether it sits in the alert.
    struct Line: Sendable {
        var index: Int
        /// The line as a reader takes it (``plain(_:)``).
        var text: String
        var lower: String
        var inAlert: Bool
    }

    /// Reads one line, from a process-wide cache: a mutant or a new profile changes a line or
    /// two of a prompt the mock has read before, and the rest read the same.
    static func reading(ofLine line: String, lower: String, inAlert: Bool) -> LineReading {
        LineCache.reading(line, inAlert: inAlert) { uncachedReading(ofLine: line, lower: lower, inAlert: inAlert) }
    }

    /// Reads one line. Each reader runs only when the line holds a word every one of its
    /// patterns needs (``Clue``): most lines of a prompt hold none, and the thirty-odd
    /// expressions cost more than the rest of a first reading. `guarded: false` runs them all,
    /// for the test that the clues skip nothing.
    static func uncachedReading(ofLine line: String, lower: String, inAlert: Bool, guarded: Bool = true) -> LineReading {
        let clues = Clue(lower, guarded: guarded)
        var scratch = MockReading(line: line)
        var said = LineReading()
        if clues.any("you", "act as", "play the role of", "speak as", "persona name", "respond as", "reply as", "answer as", "write as", "ing as", "know you", "knows you", "call you", "calls you", "i am ", "i'm ", "the assistant", "the coach", "the bot", "the ai", "the model", "the agent", "the companion", "the tutor", "the guide", "assistant name", "coach name", "bot name", "itself as", "herself as", "himself as") {
            // "You'll be chatting as Miko".
            said.names = matches(#"\b(?:[Yy]ou are|[Yy]our name is|[Yy]our name:|[Yy]our name's|[Yy]ou're|[Aa]ct as|[Pp]lay the role of|[Yy]ou play|(?:[Ii]ntroduce|[Pp]resent|[Rr]efer to|[Dd]escribe)s? (?:yourself|itself|herself|himself) as|[Cc]all yourself|[Yy]our persona is|[Yy]ou (?:will be|are) playing|[Ss]peak as|[Pp]ersona name:|(?:[Aa]ssistant|[Cc]oach|[Bb]ot) name:?|[Yy]ou go by(?: the name)?|[Yy]ou(?:'ll| will) be (?:chatting|talking|speaking|replying|writing|appearing) as|[Yy]ou(?: are|'re) (?:called|named)|(?:[Rr]espond|[Rr]eply|[Aa]nswer|[Ww]rite|[Rr]esponding|[Rr]eplying|[Aa]nswering|[Ww]riting) as|(?:[Kk]nows?|[Cc]alls?) you(?: as)?|(?:[Ww]e|I)(?:'d| would) like you to be|(?:[Ww]e|I) want you to be|[Yy]ou(?:'ll| will) be|[Tt]he (?:assistant|coach|bot|AI|model|agent|companion|tutor|guide)(?:'s name)? (?:is named|is called|goes by|is))\s+["“‘']?([A-Z][\p{L}'’-]*(?:[ -][A-Z][\p{L}'’-]*)*)"#
                                 + #"|^\s*I(?: am|'m) ([A-Z][\p{L}'’-]*(?:[ -][A-Z][\p{L}'’-]*)*),"#, in: line, caseSensitive: true)
                .map { $0[1].isEmpty ? $0[2] : $0[1] }.filter { !Self.notNames.contains($0) && !Self.isContraction($0) }
        }
        // A prompt that greets the one it briefs: "Hey Tess! You're our coach…", "Dear Nell,", "Yo Koa!";
        // or presents it: "Meet Sunny: a cheerful habit coach…".
        // Only a line that opens with one: "hi " alone is in "this " and "which ".
        if said.names.isEmpty, startsWithWord(lower.trimmed(.whitespaces), ["hey", "hi", "hello", "dear", "yo", "meet"]),
           let match = matches(#"^\s*(?:[Hh]ey|[Hh]i|[Hh]ello|[Dd]ear|[Yy]o) ([A-Z][\p{L}'’-]*)\s*(?:[!,]|$)|^\s*[Mm]eet ([A-Z][\p{L}'’-]*(?: [A-Z][\p{L}'’-]*)?)\s*(?:[:,—–]|$)"#, in: line, caseSensitive: true)
               .first.map({ [$0[0], $0[1].isEmpty ? $0[2] : $0[1]] }),
           !Self.notNames.contains(match[1]), !["There", "All", "Everyone", "Team", "Friend", "Coach", "You"].contains(match[1]) {
            said.names = [match[1]]
        }
        if clues.any("talking ", "speaking ", "chatting ") {
            // "Chatting with AI" names no one.
            let named = matches(#"\b(?:talking|speaking|chatting) (?:with|to) ([A-Z][\p{L}'’-]*)"#, in: line, caseSensitive: true).first?[1]
            said.userName = named.flatMap { ["AI", "A", "An", "Bot", "Robot", "ChatGPT", "Someone", "Me", "Us", "The", "Our", "Your"].contains($0) ? nil : $0 }
        }
        for reader in lineReaders where reader.runs(clues, inAlert) { reader.read(&scratch, line, lower) }
        said.notes = scratch.instructions.map { ($0.kind, $0.value) }
        return said
    }

    /// Whether a folded line holds any of some words. Only for ASCII lines: case-insensitive
    /// matching folds a few letters outside ASCII onto ASCII ones (the long s onto "s", the
    /// Kelvin sign onto "k"), so a line with any other byte is read by every reader.
    struct Clue {
        private let bytes: [UInt8]?

        init(_ lower: String, guarded: Bool) {
            bytes = guarded && lower.utf8.allSatisfy({ $0 < 0x80 }) ? Array(lower.utf8) : nil
        }

        func any(_ words: StaticString...) -> Bool { any(words) }

        func any(_ words: [StaticString]) -> Bool {
            guard let bytes else { return true }
            return bytes.withUnsafeBufferPointer { line in
                words.contains { word in word.withUTF8Buffer { FoldedText.bytes(line, contain: $0) } }
            }
        }
    }

    /// An empty reading of a single line, for ``reading(ofLine:lower:inAlert:)`` to note into.
    init(line: String) {
        system = line
        written = [line]
        lines = [line]
        origin = nil
        headers = [false]
        alertRange = nil
        alertTitled = false
        alertLocatedByStructure = false
        coachName = nil
        userNoun = nil
        addressesCaregiver = false
    }
}

extension MockReading {
    /// The line readers as docs/mock.md shows them: each one's kinds, the lines it reads and
    /// the lines it leaves alone, from the readers' own examples.
    static func readerTable() -> String {
        var out = "| reader | reads | for example | but not |\n|---|---|---|---|\n"
        func quoted(_ lines: [String]) -> String {
            lines.map { "\"" + $0.replacingOccurrences(of: "|", with: "\\|") + "\"" }.joined(separator: "<br>")
        }
        for reader in lineReaders {
            let kinds = Instruction.Kind.allCases.filter(reader.kinds.contains).map { "`\($0.rawValue)`" }.joined(separator: ", ")
            out += "| \(reader.name) | \(kinds) | \(quoted(reader.examples.map(\.line))) | \(quoted(reader.counterExamples)) |\n"
        }
        return out
    }
}
