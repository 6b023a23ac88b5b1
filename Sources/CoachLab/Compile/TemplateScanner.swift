/// Finds the tags of a Mustache template, with their positions, so lint can check every
/// variable a template uses against what the compile context defines. Rendering itself is
/// swift-mustache's; this only reads.
struct TemplateScanner {
    /// One tag.
    struct Tag: Equatable {
        enum Kind: Equatable { case variable, section, inverted, close, partial, comment, pragma, delimiters }
        var kind: Kind
        /// The name inside the tag, trimmed ("persona.name", "first()", "uppercased(title)").
        var name: String
        /// 1-based line and column within the template.
        var line: Int
        var column: Int
    }

    /// A problem in the template's tag structure.
    struct Problem: Error, Equatable {
        var message: String
        var line: Int
        var column: Int
    }

    /// The deepest sections may nest. Real templates use two or three levels; thousands would
    /// exhaust the renderer's stack.
    static let maximumNesting = 32

    /// Scans `template`, returning its tags or the first structural problem.
    static func scan(_ template: String) -> Result<[Tag], Problem> {
        let scalars = Array(template.unicodeScalars)
        var tags: [Tag] = []
        var index = 0, line = 1, column = 1
        var open: [Tag] = []
        func advance(_ count: Int) {
            for _ in 0..<count where index < scalars.count {
                if scalars[index] == "\n" { line += 1; column = 1 } else { column += 1 }
                index += 1
            }
        }
        // Whether `count` of `brace` start at the current scalar. Every delimiter is one
        // brace repeated, so this compares in place, with nothing allocated per scalar.
        func starts(_ brace: Unicode.Scalar, _ count: Int) -> Bool {
            guard index + count <= scalars.count else { return false }
            return scalars[index..<(index + count)].allSatisfy { $0 == brace }
        }
        while index < scalars.count {
            guard starts("{", 2) else { advance(1); continue }
            let tagLine = line, tagColumn = column
            let triple = starts("{", 3)
            advance(triple ? 3 : 2)
            let closing = triple ? 3 : 2
            let bodyStart = index
            while index < scalars.count, !starts("}", closing) { advance(1) }
            guard index < scalars.count else {
                return .failure(Problem(message: "tag opened here is never closed with '\(triple ? "}}}" : "}}")'", line: tagLine, column: tagColumn))
            }
            var body = ""
            body.unicodeScalars.append(contentsOf: scalars[bodyStart..<index])
            advance(closing)
            var kind = Tag.Kind.variable
            var name = body.trimmed(.whitespaces)
            if !triple, let first = name.unicodeScalars.first {
                switch first {
                case "#": kind = .section
                case "^": kind = .inverted
                case "/": kind = .close
                case ">": kind = .partial
                case "!": kind = .comment
                case "%": kind = .pragma
                case "=": kind = .delimiters
                case "&": kind = .variable
                case "$", "<": return .failure(Problem(message: "template inheritance ('{{\(first)…}}') is not supported in layers",
                                                       line: tagLine, column: tagColumn))
                default: break
                }
                if first == "#" || first == "^" || first == "/" || first == ">" || first == "&" {
                    name = String(name.dropFirst()).trimmed(.whitespaces)
                }
            }
            if kind == .delimiters {
                return .failure(Problem(message: "changing delimiters ('{{=…=}}') is not supported", line: tagLine, column: tagColumn))
            }
            if [.variable, .section, .inverted, .close, .partial].contains(kind), name.isEmpty {
                return .failure(Problem(message: "empty tag", line: tagLine, column: tagColumn))
            }
            let tag = Tag(kind: kind, name: name, line: tagLine, column: tagColumn)
            switch kind {
            case .section, .inverted:
                open.append(tag)
                if open.count > maximumNesting {
                    return .failure(Problem(message: "sections nest more than \(maximumNesting) deep", line: tagLine, column: tagColumn))
                }
            case .close:
                guard let last = open.popLast() else {
                    return .failure(Problem(message: "'{{/\(name)}}' closes a section that was never opened", line: tagLine, column: tagColumn))
                }
                if last.name != name {
                    return .failure(Problem(message: "'{{/\(name)}}' does not match '{{#\(last.name)}}' opened at line \(last.line)",
                                            line: tagLine, column: tagColumn))
                }
            default:
                break
            }
            tags.append(tag)
        }
        if let unclosed = open.last {
            return .failure(Problem(message: "section '\(unclosed.name)' is never closed; add '{{/\(unclosed.name)}}'",
                                    line: unclosed.line, column: unclosed.column))
        }
        return .success(tags)
    }

    /// Splits "fn(arg)" into its function and argument; a plain name has no function.
    static func splitTransform(_ name: String) -> (function: String?, argument: String) {
        guard name.hasSuffix(")"), let open = name.firstIndex(of: "(") else { return (nil, name) }
        let function = String(name[..<open])
        let argument = String(name[name.index(after: open)..<name.index(before: name.endIndex)])
        return (function, argument.trimmed(.whitespaces))
    }
}
