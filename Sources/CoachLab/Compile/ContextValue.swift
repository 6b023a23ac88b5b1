import Mustache

/// A value in the compile context: what templates and conditions read. Every text carries
/// the locations of the YAML values it came from, so rendering can report exact sources.
public indirect enum ContextValue: Sendable {
    /// Text, with the locations it came from.
    case text(String, [SourceLocation])
    /// A boolean.
    case bool(Bool, [SourceLocation])
    /// A list.
    case list([ContextValue])
    /// A mapping.
    case object([String: ContextValue])

    /// Converts YAML: plain `true`/`false` become booleans; other scalars stay text as written.
    /// Each mapping in a list also gets `position`, its 1-based place in the list.
    init(_ yaml: YAMLValue) {
        switch yaml {
        case .scalar(let scalar):
            if scalar.style == .plain, let bool = YAMLValue.booleanValue(scalar.text) {
                self = .bool(bool, [scalar.location])
            } else {
                self = .text(scalar.isNull ? "" : scalar.text, scalar.isNull ? [] : [scalar.location])
            }
        case .sequence(let items, _):
            self = .numbered(items.map(ContextValue.init))
        case .mapping(let entries, _):
            var fields: [String: ContextValue] = [:]
            for entry in entries { fields[entry.key] = ContextValue(entry.value) }
            self = .object(fields)
        }
    }

    /// A list whose mappings each also get `position`, their 1-based place in it, unless they
    /// define their own. A list's texts get theirs as they render (``renderable(_:)``).
    static func numbered(_ items: [ContextValue]) -> ContextValue {
        .list(items.enumerated().map { index, value in
            guard case .object(let fields) = value, fields["position"] == nil else { return value }
            return value.setting("position", .plain(String(index + 1)))
        })
    }

    /// Text without sources.
    static func plain(_ text: String) -> ContextValue { .text(text, []) }

    /// Whether a condition treats the value as true.
    var isTruthy: Bool {
        switch self {
        case .text(let text, _): !text.isEmpty && text != "false"
        case .bool(let value, _): value
        case .list(let items): !items.isEmpty
        case .object: true
        }
    }

    /// The text of a scalar, for comparisons.
    var plainText: String? {
        switch self {
        case .text(let text, _): text
        case .bool(let value, _): value ? "true" : "false"
        case .list, .object: nil
        }
    }

    /// The value under a dotted path.
    func lookup(_ path: String) -> ContextValue? {
        var current: ContextValue? = self
        for part in path.split(separator: ".") {
            guard case .object(let fields)? = current else { return nil }
            current = fields[String(part)]
        }
        return current
    }

    /// Returns the value with `field` set on an object (no change for other kinds).
    func setting(_ field: String, _ value: ContextValue?) -> ContextValue {
        guard case .object(var fields) = self else { return self }
        fields[field] = value
        return .object(fields)
    }

    /// Applies `transform` to every text, keeping the structure.
    func mapTexts(_ transform: (String, [SourceLocation]) -> (String, [SourceLocation])) -> ContextValue {
        switch self {
        case .text(let text, let sources):
            let (newText, newSources) = transform(text, sources)
            return .text(newText, newSources)
        case .bool: return self
        case .list(let items): return .list(items.map { $0.mapTexts(transform) })
        case .object(let fields): return .object(fields.mapValues { $0.mapTexts(transform) })
        }
    }

    /// The Mustache object for rendering; texts record their sources into `recorder` as they render.
    /// A text or boolean in a list answers `{{position}}` with its 1-based place in it.
    func renderable(_ recorder: SourceRecorder, position: Int? = nil) -> Any {
        switch self {
        case .text(let text, let sources): RenderableText(text: text, sources: sources, recorder: recorder, position: position)
        case .bool(let value, let sources): RenderableBool(value: value, sources: sources, recorder: recorder, position: position)
        case .list(let items): items.enumerated().map { $1.renderable(recorder, position: $0 + 1) }
        case .object(let fields): RenderableObject(fields: fields.mapValues { $0.renderable(recorder) })
        }
    }
}

/// Collects the locations of the values a render actually used. One per render, never shared
/// across threads.
final class SourceRecorder {
    private(set) var used: Set<SourceLocation> = []
    /// Each text rendered since the last reset, with its sources, in order, when ``capturing``.
    private(set) var rendered: [(text: String, sources: [SourceLocation])] = []
    /// Each value a section tested while true (or non-empty) since the last reset, when
    /// ``capturing``: a contract promise (`confidential: true`, `questions: 1`) reaches the
    /// prompt as the words of the section it opens.
    private(set) var tested: [[SourceLocation]] = []
    /// Whether rendered texts are kept: for a layer's render, not a placeholder's.
    var capturing = false

    func tested(_ sources: [SourceLocation], value: Bool) {
        if capturing, value, !sources.isEmpty { tested.append(sources) }
    }

    func record(_ sources: [SourceLocation]) { used.formUnion(sources) }

    func record(_ sources: [SourceLocation], text: String) {
        used.formUnion(sources)
        if capturing, !sources.isEmpty, text.contains(where: { !$0.isWhitespace }) { rendered.append((text, sources)) }
    }

    func reset() {
        used = []
        rendered = []
        tested = []
    }
}

/// Text that records its sources when Mustache renders it. Empty text is falsy in sections.
struct RenderableText: MustacheCustomRenderable, MustacheParent, MustacheTransformable {
    let text: String
    let sources: [SourceLocation]
    let recorder: SourceRecorder
    /// Its place in the list it is an item of.
    var position: Int?

    var renderText: String {
        recorder.record(sources, text: text)
        return text
    }

    var isNull: Bool {
        recorder.tested(sources, value: !text.isEmpty)
        return text.isEmpty
    }

    func child(named: String) -> Any? { named == "position" ? position.map(String.init) : nil }

    func transform(_ name: String) -> Any? {
        guard let result = text.transform(name) else { return nil }
        if let string = result as? String {
            return RenderableText(text: string, sources: sources, recorder: recorder)
        }
        if let substring = result as? Substring {
            return RenderableText(text: String(substring), sources: sources, recorder: recorder)
        }
        return result
    }
}

/// A boolean that is falsy in sections when false, and records its source when printed.
struct RenderableBool: MustacheCustomRenderable, MustacheParent {
    let value: Bool
    let sources: [SourceLocation]
    let recorder: SourceRecorder
    /// Its place in the list it is an item of.
    var position: Int?

    var renderText: String {
        recorder.record(sources)
        return value ? "true" : "false"
    }

    var isNull: Bool {
        recorder.tested(sources, value: value)
        return !value
    }

    func child(named: String) -> Any? { named == "position" ? position.map(String.init) : nil }
}

/// A mapping Mustache can walk.
struct RenderableObject: MustacheParent {
    let fields: [String: Any]

    func child(named: String) -> Any? { fields[named] }
}
