/// Which partials each template includes, checked before anything renders. Mustache expands a
/// partial every time it is named, so eight partials that each name the next one eight times
/// render 8⁸ copies; a partial that names itself never stops. The graph refuses both, so compile
/// and lint do bounded work whatever a pack says.
struct PartialGraph {
    /// The most partial inclusions one template may expand to, counting every level.
    static let maximumInclusions = 256
    /// The most template text one template may expand to, in UTF-8 bytes, counting every
    /// inclusion: 250 inclusions of a large partial stay under the inclusion limit but would
    /// render hundreds of megabytes.
    static let maximumExpandedBytes = 1 << 20

    private struct Reference {
        var name: String
        var location: SourceLocation
    }

    private let references: [String: [Reference]]
    private let templates: [String: Located<String>]

    init(partials: [(name: String, template: Located<String>)]) {
        var templates: [String: Located<String>] = [:]
        var references: [String: [Reference]] = [:]
        for (name, template) in partials where templates[name] == nil {
            templates[name] = template
            references[name] = PartialGraph.references(in: template)
        }
        self.templates = templates
        self.references = references
    }

    /// Problems that make expansion unbounded: cycles first, then templates that expand to more
    /// than ``maximumInclusions`` partials. Empty when every template can be expanded safely.
    func problems(in templates: [(what: String, template: Located<String>)]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var state: [String: Bool] = [:]  // false: on the current path; true: finished
        var path: [String] = []
        func visit(_ name: String) {
            state[name] = false
            path.append(name)
            for reference in references[name] ?? [] {
                switch state[reference.name] {
                case .some(false):
                    let cycle = path[path.lastIndex(of: reference.name)!...] + [reference.name]
                    diagnostics.append(.error("partial '\(name)' includes '\(reference.name)', which leads back to it (\(cycle.joined(separator: " → ")))",
                                              at: reference.location,
                                              hint: "a partial may not include itself, directly or through others; Mustache would never stop"))
                case .none where self.templates[reference.name] != nil:
                    visit(reference.name)
                default:
                    break
                }
            }
            path.removeLast()
            state[name] = true
        }
        for name in references.keys.sorted() where state[name] == nil { visit(name) }
        guard diagnostics.isEmpty else { return diagnostics }

        var expansions: [String: Int] = [:]
        func count(_ name: String) -> Int {
            if let known = expansions[name] { return known }
            var total = 0
            for reference in references[name] ?? [] where self.templates[reference.name] != nil {
                total = min(total + 1 + count(reference.name), Self.maximumInclusions + 1)
            }
            expansions[name] = total
            return total
        }
        var sizes: [String: Int] = [:]
        func size(_ name: String) -> Int {
            if let known = sizes[name] { return known }
            var total = self.templates[name]?.value.utf8.count ?? 0
            for reference in references[name] ?? [] where self.templates[reference.name] != nil {
                total = min(total + size(reference.name), Self.maximumExpandedBytes + 1)
            }
            sizes[name] = total
            return total
        }
        for (what, template) in templates {
            var total = 0
            var bytes = template.value.utf8.count
            for reference in PartialGraph.references(in: template) where self.templates[reference.name] != nil {
                total = min(total + 1 + count(reference.name), Self.maximumInclusions + 1)
                bytes = min(bytes + size(reference.name), Self.maximumExpandedBytes + 1)
            }
            if total > Self.maximumInclusions {
                diagnostics.append(.error("\(what) expands to more than \(Self.maximumInclusions) partial inclusions",
                                          at: template.location,
                                          hint: "partials that each include others several times multiply; include each one once, or fold them together"))
            } else if bytes > Self.maximumExpandedBytes {
                diagnostics.append(.error("\(what) expands to more than \(Self.maximumExpandedBytes / 1024) KB of template text through its partials",
                                          at: template.location,
                                          hint: "a prompt is a few kilobytes; include a large partial once, or cut it down"))
            }
        }
        return diagnostics
    }

    /// The `{{> name}}` tags of a template, located in its file. A template that does not scan has
    /// none here; lint reports its problem separately.
    private static func references(in template: Located<String>) -> [Reference] {
        guard case .success(let tags) = TemplateScanner.scan(template.value) else { return [] }
        return tags.filter { $0.kind == .partial }.map { tag in
            Reference(name: tag.name, location: SourceLocation(file: template.location.file,
                                                               line: template.location.line + tag.line - 1,
                                                               column: template.location.column + tag.column - 1))
        }
    }
}
