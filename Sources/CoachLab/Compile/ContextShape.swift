/// The shape of the compile context: which names a template or condition may use.
/// Built from ``ContentSpecs`` plus the values the compiler computes (risk, now, memory),
/// and for free-form objects (profiles, contexts) from the keys the pack's data defines.
indirect enum ContextShape: Sendable {
    /// A text, number or boolean.
    case leaf
    /// A text, number or boolean walked as an item of a list: it also has its `position`.
    case listedLeaf
    /// A list of values of one shape.
    case list(ContextShape)
    /// A mapping with known keys; `open` when other keys may appear at compile time.
    case object([String: ContextShape], open: Bool)
    /// Anything (free-form data).
    case unknown

    init(_ type: FieldType) {
        switch type {
        case .string, .text, .integer, .atLeast, .number, .boolean, .date, .oneOf: self = .leaf
        case .list(let element): self = .numberedList(of: ContextShape(element))
        case .object(let spec): self = ContextShape(spec)
        case .map: self = .object([:], open: true)
        case .any: self = .unknown
        }
    }

    init(_ spec: ObjectSpec) {
        var fields: [String: ContextShape] = [:]
        for field in spec.fields { fields[field.name] = ContextShape(field.type) }
        self = .object(fields, open: spec.open)
    }

    /// A list whose mappings each also hold `position`, their 1-based place in the list, as
    /// every list in the compile context does (``ContextValue/numbered(_:)``).
    static func numberedList(of element: ContextShape) -> ContextShape {
        if case .leaf = element { return .list(.listedLeaf) }
        return .list(element.adding(["position": .leaf]))
    }

    /// Adds or replaces fields of an object shape.
    func adding(_ extra: [String: ContextShape]) -> ContextShape {
        guard case .object(let fields, let open) = self else { return self }
        return .object(fields.merging(extra) { _, new in new }, open: open)
    }

    /// The shape of free-form data: the union of the keys of every given value. It is closed:
    /// a key no value defines can never render anything but empty text, so using one is a
    /// mistake lint reports. With no values at all it stays open, since nothing is known.
    static func union(of values: [YAMLValue], spec: ObjectSpec) -> ContextShape {
        var shape = ContextShape(spec)
        for value in values {
            shape = shape.merged(with: ContextShape(data: value))
        }
        if case .object(let fields, _) = shape { return .object(fields, open: values.isEmpty) }
        return shape
    }

    /// An empty value of this shape, for a key that one value lacks and others define: an
    /// empty list for a list, empty text otherwise. Templates then see the same keys in every
    /// profile, and `empty()` is true for a missing key as for an empty one.
    var emptyValue: ContextValue {
        if case .list = self { return .list([]) }
        return .text("", [])
    }

    /// `value` with every key this (object) shape defines and the value lacks filled with an
    /// empty value, at the top level.
    func filling(_ value: ContextValue) -> ContextValue {
        guard case .object(let shapeFields, _) = self, case .object(var fields) = value else { return value }
        for (key, shape) in shapeFields where fields[key] == nil { fields[key] = shape.emptyValue }
        return .object(fields)
    }

    init(data: YAMLValue) {
        switch data {
        case .scalar: self = .leaf
        case .sequence(let items, _):
            self = .numberedList(of: items.map(ContextShape.init(data:)).reduce(ContextShape.unknown) { $0.merged(with: $1) })
        case .mapping(let entries, _):
            var fields: [String: ContextShape] = [:]
            for entry in entries { fields[entry.key] = ContextShape(data: entry.value) }
            self = .object(fields, open: false)
        }
    }


    func merged(with other: ContextShape) -> ContextShape {
        switch (self, other) {
        case (.unknown, let x), (let x, .unknown): return x
        case (.object(let a, let openA), .object(let b, let openB)):
            return .object(a.merging(b) { $0.merged(with: $1) }, open: openA || openB)
        case (.list(let a), .list(let b)): return .list(a.merged(with: b))
        default: return self
        }
    }

    /// The shape reached by one key, or nil when the key cannot exist.
    /// "a mapping" or "a list" for a shape that cannot render as text; nil for text and
    /// shapes not known.
    var structureNoun: String? {
        switch self {
        case .object: "a mapping"
        case .list: "a list"
        case .leaf, .listedLeaf, .unknown: nil
        }
    }

    func child(_ key: String) -> ContextShape?? {
        switch self {
        case .object(let fields, let open):
            if let field = fields[key] { return .some(field) }
            return open ? .some(nil) : nil
        case .unknown:
            return .some(nil)
        case .listedLeaf:
            return key == "position" ? .some(.leaf) : nil
        case .leaf, .list:
            return nil
        }
    }
}

/// Resolves template names against a stack of shapes the way Mustache does: the first
/// component is looked up from the innermost section outwards, the rest strictly.
struct ShapeScope {
    private(set) var frames: [ContextShape]

    init(root: ContextShape) { frames = [root] }

    enum Resolution {
        /// Found, with its shape when known.
        case found(ContextShape?)
        /// Not found; `known` lists the names visible where the lookup failed.
        case missing(component: String, known: [String])
    }

    func resolve(_ name: String) -> Resolution {
        if name == "." { return .found(frames.last) }
        let parts = name.split(separator: ".").map(String.init)
        guard let head = parts.first else { return .found(nil) }
        for frame in frames.reversed() {
            guard let found = frame.child(head) else { continue }
            var shape: ContextShape? = found
            for part in parts.dropFirst() {
                guard let current = shape else { return .found(nil) }
                guard let next = current.child(part) else {
                    return .missing(component: part, known: ShapeScope.keys(of: current))
                }
                shape = next
            }
            return .found(shape)
        }
        // An inverted section repeats its enclosing frame; each name is listed once.
        var seen = Set<String>()
        return .missing(component: head, known: frames.flatMap(ShapeScope.keys(of:)).filter { seen.insert($0).inserted })
    }

    mutating func push(_ shape: ContextShape?) {
        switch shape {
        case .list(let element): frames.append(element)
        case .some(let other): frames.append(other)
        case .none: frames.append(.unknown)
        }
    }

    /// Enters a section that keeps the enclosing context (an inverted one).
    mutating func pushEnclosing() { frames.append(frames.last ?? .unknown) }

    mutating func pop() { if frames.count > 1 { frames.removeLast() } }

    static func keys(of shape: ContextShape) -> [String] {
        if case .object(let fields, _) = shape { return Array(fields.keys) }
        return []
    }
}
