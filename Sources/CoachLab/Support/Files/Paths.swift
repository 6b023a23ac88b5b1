/// Lexical path handling for content files, independent of the platform's file APIs.
enum Paths {
    /// Joins a relative path onto a directory; an absolute `path` stands alone.
    static func join(_ directory: String, _ path: String) -> String {
        if path.hasPrefix("/") || directory.isEmpty || directory == "." { return normalize(path) }
        return normalize(directory + "/" + path)
    }

    /// The directory part of a path ("." for a bare name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let head = String(path[..<slash])
        return head.isEmpty ? "/" : head
    }

    /// The last component.
    static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Removes `.` and resolves `..` lexically; keeps leading `..` of relative paths.
    static func normalize(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else if part == "..", absolute {
                continue
            } else {
                parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        if absolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }

    /// Whether `path` lies inside `directory` (both normalised the same way).
    static func isInside(_ path: String, _ directory: String) -> Bool {
        let path = normalize(path), directory = normalize(directory)
        if directory == "." { return !path.hasPrefix("../") && path != ".." && !path.hasPrefix("/") }
        return path == directory || path.hasPrefix(directory + "/")
    }

    /// Shell-style matching of one path component: `*`, `?` and `[abc]`, by characters.
    static func matches(_ name: String, pattern: String) -> Bool {
        // Printable ASCII is one character per byte, so bytes match alike without splitting
        // both into characters (a glob over a folder of 2,000 fixtures matches every name).
        func printable(_ text: String) -> Bool { text.utf8.allSatisfy { (0x20...0x7E).contains($0) } }
        if printable(name), printable(pattern) {
            return match(Array(name.utf8), pattern: Array(pattern.utf8),
                         any: UInt8(ascii: "*"), one: UInt8(ascii: "?"), open: UInt8(ascii: "["), close: UInt8(ascii: "]"))
        }
        return match(Array(name), pattern: Array(pattern), any: "*", one: "?", open: "[", close: "]")
    }

    private static func match<Unit: Equatable>(_ name: [Unit], pattern: [Unit], any: Unit, one: Unit, open: Unit, close: Unit) -> Bool {
        func match(_ n: Int, _ p: Int) -> Bool {
            if p == pattern.count { return n == name.count }
            switch pattern[p] {
            case any:
                var k = n
                while true {
                    if match(k, p + 1) { return true }
                    if k == name.count { return false }
                    k += 1
                }
            case one:
                return n < name.count && match(n + 1, p + 1)
            case open:
                guard n < name.count, let end = pattern[(p + 1)...].firstIndex(of: close) else { return false }
                return pattern[(p + 1)..<end].contains(name[n]) && match(n + 1, end + 1)
            default:
                return n < name.count && name[n] == pattern[p] && match(n + 1, p + 1)
            }
        }
        return match(0, 0)
    }

    /// Whether a path contains glob characters.
    static func isGlob(_ path: String) -> Bool { path.contains { "*?[".contains($0) } }
}
