/// A layer's `when:` condition: paths into the compile context joined by `!`, `&&`, `||`,
/// parentheses, and `==` / `!=` against a quoted string, a number or a boolean.
/// A path is true when its value is present and not empty, false or "false".
public indirect enum Condition: Sendable, Equatable {
    case path(String)
    case equals(String, String)
    case notEquals(String, String)
    case not(Condition)
    case and(Condition, Condition)
    case or(Condition, Condition)

    /// A parse failure, with the 1-based column in the condition text.
    public struct ParseError: Error, Equatable {
        public var message: String
        public var column: Int
    }

    /// Parses a condition.
    /// - Throws: ``ParseError``.
    public init(parsing text: String) throws {
        var parser = Parser(tokens: try Parser.tokenize(text))
        let condition = try parser.parseOr()
        if let extra = parser.peek {
            throw ParseError(message: "unexpected '\(extra.text)'", column: extra.column)
        }
        self = condition
    }

    /// Every path the condition reads.
    public var paths: [String] {
        switch self {
        case .path(let path), .equals(let path, _), .notEquals(let path, _): [path]
        case .not(let inner): inner.paths
        case .and(let a, let b), .or(let a, let b): a.paths + b.paths
        }
    }

    /// Evaluates the condition against a lookup of paths.
    func evaluate(_ lookup: (String) -> ContextValue?) -> Bool {
        switch self {
        case .path(let path): lookup(path)?.isTruthy ?? false
        case .equals(let path, let literal): lookup(path)?.plainText == literal
        case .notEquals(let path, let literal): lookup(path)?.plainText != literal
        case .not(let inner): !inner.evaluate(lookup)
        case .and(let a, let b): a.evaluate(lookup) && b.evaluate(lookup)
        case .or(let a, let b): a.evaluate(lookup) || b.evaluate(lookup)
        }
    }

    private struct Token {
        enum Kind { case identifier, literal, op }
        var kind: Kind
        var text: String
        var column: Int
    }

    private struct Parser {
        var tokens: [Token]
        var position = 0

        var peek: Token? { position < tokens.count ? tokens[position] : nil }

        static func tokenize(_ text: String) throws -> [Token] {
            let scalars = Array(text.unicodeScalars)
            var tokens: [Token] = []
            var index = 0
            func isIdentifier(_ s: Unicode.Scalar) -> Bool {
                s.properties.isAlphabetic || ("0"..."9").contains(s) || s == "_" || s == "." || s == "-"
            }
            while index < scalars.count {
                let scalar = scalars[index]
                let column = index + 1
                if scalar == " " || scalar == "\t" { index += 1; continue }
                let two = index + 1 < scalars.count ? String(scalar) + String(scalars[index + 1]) : String(scalar)
                if ["&&", "||", "==", "!="].contains(two) {
                    tokens.append(Token(kind: .op, text: two, column: column)); index += 2; continue
                }
                if "!()".unicodeScalars.contains(scalar) {
                    tokens.append(Token(kind: .op, text: String(scalar), column: column)); index += 1; continue
                }
                if scalar == "\"" || scalar == "'" {
                    var end = index + 1
                    while end < scalars.count, scalars[end] != scalar { end += 1 }
                    guard end < scalars.count else { throw ParseError(message: "unclosed string", column: column) }
                    tokens.append(Token(kind: .literal, text: String(String.UnicodeScalarView(scalars[(index + 1)..<end])), column: column))
                    index = end + 1
                    continue
                }
                if isIdentifier(scalar) {
                    var end = index
                    while end < scalars.count, isIdentifier(scalars[end]) { end += 1 }
                    tokens.append(Token(kind: .identifier, text: String(String.UnicodeScalarView(scalars[index..<end])), column: column))
                    index = end
                    continue
                }
                throw ParseError(message: "unexpected character '\(scalar)'", column: column)
            }
            return tokens
        }

        mutating func next() -> Token? {
            defer { position += 1 }
            return peek
        }

        mutating func parseOr() throws -> Condition {
            var left = try parseAnd()
            while peek?.text == "||", peek?.kind == .op { position += 1; left = .or(left, try parseAnd()) }
            return left
        }

        mutating func parseAnd() throws -> Condition {
            var left = try parseUnary()
            while peek?.text == "&&", peek?.kind == .op { position += 1; left = .and(left, try parseUnary()) }
            return left
        }

        mutating func parseUnary() throws -> Condition {
            if peek?.kind == .op, peek?.text == "!" { position += 1; return .not(try parseUnary()) }
            return try parsePrimary()
        }

        mutating func parsePrimary() throws -> Condition {
            guard let token = next() else {
                throw ParseError(message: "expected a path such as 'risk' or 'coach.template'", column: (tokens.last?.column ?? 0) + 1)
            }
            if token.kind == .op, token.text == "(" {
                let inner = try parseOr()
                guard let close = next(), close.text == ")" else {
                    throw ParseError(message: "expected ')'", column: peek?.column ?? token.column)
                }
                return inner
            }
            guard token.kind == .identifier else {
                throw ParseError(message: "expected a path, found '\(token.text)'", column: token.column)
            }
            if let op = peek, op.kind == .op, op.text == "==" || op.text == "!=" {
                position += 1
                guard let literal = next(), literal.kind != .op else {
                    throw ParseError(message: "expected a value after '\(op.text)'", column: op.column + 2)
                }
                return op.text == "==" ? .equals(token.text, literal.text) : .notEquals(token.text, literal.text)
            }
            return .path(token.text)
        }
    }
}
