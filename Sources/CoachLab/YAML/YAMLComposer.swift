internal import CYaml

/// Builds a located ``YAMLValue`` straight from libyaml's event stream (the C parser Yams is
/// built on), with no node tree in between.
///
/// Yams composes a `Node` for every value (an event object, a tag object and a mark each) and
/// checks each mapping's keys for repeats by hashing those nodes; for the small files content
/// is made of, that was most of the time a parse took. Reading the events here gives the same
/// values and the same verdicts on bad input, in the same order:
/// - a syntax error, an undefined alias or a repeated key, whichever the parser meets first,
///   ends the parse at once, as composing did;
/// - then the first anchor or alias in document order is refused;
/// - then keys that are not plain text are reported, all of them.
///
/// `YAMLComposerReferenceTests` holds the Yams-based reading this replaces and compares the
/// two on every shipped content file, the malformed-input corpus and thousands of edits of them.
final class YAMLComposer {
    /// What ends a parse.
    enum Failure: Error {
        /// libyaml refused the text (scanner, parser or reader error), or it holds more than one
        /// document or an undefined alias: the problem, libyaml's context and its line, and
        /// where the problem is.
        case syntax(problem: String, context: (text: String, line: Int)?, line: Int, column: Int)
        /// A character libyaml cannot read, at a byte offset.
        case reader(problem: String, byteOffset: Int)
        /// A key repeated in one mapping: the key, and where it first appears.
        case duplicateKey(String, line: Int, column: Int)
        /// libyaml ran out of memory.
        case memory
    }

    /// What a parse gives: the document's value (nil for none), the first anchor or alias
    /// (refused by the caller), and the keys that were not plain text.
    struct Composed {
        var value: YAMLValue?
        var firstAnchor: SourceLocation?
        var diagnostics: Diagnostics
    }

    /// A collection being read: its values so far, and for a mapping the key waiting for its
    /// value.
    private struct Frame {
        var isMapping: Bool
        var location: SourceLocation
        var items: [YAMLValue] = []
        var entries: [YAMLValue.Entry] = []
        /// Explicit tags of keys, by entry index; a key with none is a string.
        var keyTags: [Int: String] = [:]
        /// The key read and not yet given its value; nil before a key, or after one that is
        /// not plain text (its value is read and dropped).
        var key: (text: String, tag: String?, location: SourceLocation)?
        var expectsKey = true

        init(isMapping: Bool, location: SourceLocation) {
            self.isMapping = isMapping
            self.location = location
        }
    }

    /// A value read, with where its node starts (before any quote or block indicator) and its
    /// explicit tag.
    private struct Finished {
        var value: YAMLValue
        var mark: SourceLocation
        var tag: String?
    }

    /// YAML's string tag, which `!!str` names.
    private static let stringTag = "tag:yaml.org,2002:str"

    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let file: String
    private let text: String
    /// The lines of the text, found on the first block scalar (its text starts below its
    /// indicator).
    private var lines: YAMLDocument.Lines?
    private var firstAnchor: SourceLocation?
    private var anchors = Set<String>()
    private var diagnostics = Diagnostics()

    private init(text: String, file: String) {
        self.text = text
        self.file = file
        parser = .allocate(capacity: 1)
        yaml_parser_initialize(parser)
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
    }

    /// Reads the single document in `text`.
    /// - Throws: ``Failure``.
    static func compose(_ text: String, file: String) throws(Failure) -> Composed {
        var bytes = text
        let composer = YAMLComposer(text: text, file: file)
        let result: Result<YAMLValue?, Failure> = bytes.withUTF8 { bytes in
            // libyaml reads the bytes in place, so the whole parse happens in here.
            yaml_parser_set_input_string(composer.parser, bytes.baseAddress, bytes.count)
            return Result { () throws(Failure) in try composer.document() }
        }
        let value = try result.get()
        return Composed(value: value, firstAnchor: composer.firstAnchor, diagnostics: composer.diagnostics)
    }

    /// The stream: its start, one document (or none), its end.
    private func document() throws(Failure) -> YAMLValue? {
        var event = try next()
        yaml_event_delete(&event)  // the stream's start
        event = try next()
        defer { yaml_event_delete(&event) }
        if event.type == YAML_STREAM_END_EVENT { return nil }
        let value = try node()
        var end = try next()  // the document's end
        yaml_event_delete(&end)
        var after = try next()
        defer { yaml_event_delete(&after) }
        if after.type != YAML_STREAM_END_EVENT {
            throw .syntax(problem: "but found another document", context: ("expected a single document in the stream", 1),
                          line: Int(after.start_mark.line) + 1, column: Int(after.start_mark.column) + 1)
        }
        return value
    }

    /// Reads one node and everything under it, with a stack rather than recursion.
    private func node() throws(Failure) -> YAMLValue {
        var stack: [Frame] = []
        while true {
            var event = try next()
            defer { yaml_event_delete(&event) }
            let mark = SourceLocation(file: file, line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
            let finished: Finished
            switch event.type {
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                noteAnchor(scalar.anchor, at: mark)
                let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                // A key's tag tells it apart from a key of the same text; every untagged key is a string.
                let tag = scalar.quoted_implicit == 1 ? nil : Self.string(scalar.tag).flatMap { $0 == Self.stringTag ? nil : $0 }
                finished = Finished(value: .scalar(self.scalar(text, style: scalar.style, at: mark)), mark: mark, tag: tag)
            case YAML_SEQUENCE_START_EVENT:
                noteAnchor(event.data.sequence_start.anchor, at: mark)
                stack.append(Frame(isMapping: false, location: mark))
                continue
            case YAML_MAPPING_START_EVENT:
                noteAnchor(event.data.mapping_start.anchor, at: mark)
                stack.append(Frame(isMapping: true, location: mark))
                continue
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let frame = stack.popLast() else { continue }
                if frame.isMapping { try Self.checkRepeats(frame) }
                finished = Finished(value: frame.isMapping ? .mapping(frame.entries, frame.location) : .sequence(frame.items, frame.location),
                                    mark: frame.location, tag: nil)
            case YAML_ALIAS_EVENT:
                guard let anchor = Self.string(event.data.alias.anchor), anchors.contains(anchor) else {
                    throw .syntax(problem: "found undefined alias", context: nil, line: mark.line, column: mark.column)
                }
                if firstAnchor == nil { firstAnchor = mark }
                // Yams gave the anchored node again; an alias is refused all the same.
                finished = Finished(value: .scalar(.init(text: "", style: .plain, location: mark)), mark: mark, tag: nil)
            default:
                continue
            }
            guard !stack.isEmpty else { return finished.value }
            add(finished, to: &stack[stack.count - 1])
        }
    }

    /// Gives a finished value to the collection it belongs to.
    private func add(_ finished: Finished, to frame: inout Frame) {
        guard frame.isMapping else {
            frame.items.append(finished.value)
            return
        }
        if frame.expectsKey {
            frame.expectsKey = false
            guard case .scalar(let scalar) = finished.value else {
                diagnostics.error("mapping keys must be plain text, not a list or mapping", at: finished.mark)
                frame.key = nil
                return
            }
            frame.key = (scalar.text, finished.tag, finished.mark)
            return
        }
        frame.expectsKey = true
        guard let key = frame.key else { return }
        if let tag = key.tag { frame.keyTags[frame.entries.count] = tag }
        frame.entries.append(.init(key: key.text, keyLocation: key.location, value: finished.value))
    }

    /// Refuses a mapping that repeats a key (the same text and tag). Of the repeated keys it
    /// names the first in sorted order, where it first appears, as Yams does.
    private static func checkRepeats(_ frame: Frame) throws(Failure) {
        let entries = frame.entries
        guard entries.count > 1 else { return }
        func same(_ a: Int, _ b: Int) -> Bool { entries[a].key == entries[b].key && frame.keyTags[a] == frame.keyTags[b] }
        var repeatedFirsts: [Int] = []
        if entries.count <= 16 {
            for index in entries.indices
            where !(0..<index).contains(where: { same($0, index) }) && (index + 1..<entries.count).contains(where: { same($0, index) }) {
                repeatedFirsts.append(index)
            }
        } else {
            var first: [String: Int] = [:]
            var firsts = Set<Int>()
            for index in entries.indices {
                let identity = (frame.keyTags[index].map { $0 + "\u{0}" } ?? "") + entries[index].key
                if let earlier = first[identity] { firsts.insert(earlier) } else { first[identity] = index }
            }
            repeatedFirsts = Array(firsts)
        }
        guard let named = repeatedFirsts.min(by: { (entries[$0].key, $0) < (entries[$1].key, $1) }) else { return }
        let location = entries[named].keyLocation
        throw .duplicateKey(entries[named].key, line: location.line, column: location.column)
    }

    private func noteAnchor(_ name: UnsafeMutablePointer<yaml_char_t>?, at mark: SourceLocation) {
        guard let anchor = Self.string(name) else { return }
        anchors.insert(anchor)
        if firstAnchor == nil { firstAnchor = mark }
    }

    private func scalar(_ text: String, style: yaml_scalar_style_t, at mark: SourceLocation) -> YAMLValue.Scalar {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE, YAML_DOUBLE_QUOTED_SCALAR_STYLE:
            var start = mark
            start.column += 1  // the text starts after the opening quote
            return .init(text: text, style: .quoted, location: start)
        case YAML_LITERAL_SCALAR_STYLE, YAML_FOLDED_SCALAR_STYLE:
            let lines = self.lines ?? YAMLDocument.Lines(self.text)
            self.lines = lines
            return .init(text: text, style: .block, location: YAMLDocument.blockContentStart(after: mark, lines: lines))
        default:
            return .init(text: text, style: .plain, location: mark)
        }
    }

    /// The next event, which the caller frees with `yaml_event_delete`.
    private func next() throws(Failure) -> yaml_event_t {
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) == 1 else { throw failure() }
        return event
    }

    /// The parser's error.
    private func failure() -> Failure {
        let state = parser.pointee
        let problem = state.problem.map { String(cString: $0) } ?? "unknown problem"
        switch state.error {
        case YAML_READER_ERROR:
            return .reader(problem: problem, byteOffset: state.problem_offset)
        case YAML_SCANNER_ERROR, YAML_PARSER_ERROR, YAML_COMPOSER_ERROR:
            let context = state.context.map { (text: String(cString: $0), line: Int(state.context_mark.line) + 1) }
            return .syntax(problem: problem, context: context,
                           line: Int(state.problem_mark.line) + 1, column: Int(state.problem_mark.column) + 1)
        default:
            return .memory
        }
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
