/// A position in a content file: the file's path as the user named it, and a 1-based line
/// and column (columns count Unicode scalars, as libyaml does).
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The file's path, relative to the working directory when it lies below it.
    public var file: String
    /// The 1-based line.
    public var line: Int
    /// The 1-based column.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:col`, the form editors and terminals jump to.
    public var description: String { "\(file):\(line):\(column)" }

    /// `file:line`, the form the source map uses.
    public var fileLine: String { "\(file):\(line)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
