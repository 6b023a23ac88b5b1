/// Shell-style globbing over a ``FileSystem``.
enum Glob {
    /// Expands a pattern with `*`, `?` and `[…]` in any component; `**` matches any depth.
    /// Only files `accepts` takes are kept, and the walk stops once it has `limit` of them.
    static func expand(_ pattern: String, fileSystem: FileSystem, limit: Int = .max,
                       where accepts: (String) -> Bool = { _ in true }) -> [String] {
        expand(pattern, fileSystem: fileSystem, limit: limit, sorted: true, where: accepts)
    }

    /// Whether the pattern matches any file `accepts` takes. Folders are walked in the order
    /// they list in, not sorted: a suite's check that its pattern matches something stops at
    /// the first of 2,000 fixtures instead of sorting them all.
    static func matchesAny(_ pattern: String, fileSystem: FileSystem, where accepts: (String) -> Bool = { _ in true }) -> Bool {
        !expand(pattern, fileSystem: fileSystem, limit: 1, sorted: false, where: accepts).isEmpty
    }

    private static func expand(_ pattern: String, fileSystem: FileSystem, limit: Int, sorted: Bool,
                               where accepts: (String) -> Bool) -> [String] {
        let components = pattern.split(separator: "/").map(String.init)
        var results: [String] = []
        var seen = Set<String>()
        /// `listed`: whether `base` is a directory, when it was just read from its directory's
        /// listing (so it exists).
        func walk(_ base: String, _ index: Int, listed isDirectory: Bool? = nil) {
            guard results.count < limit else { return }
            guard index < components.count else {
                if accepts(base), !(isDirectory ?? (!fileSystem.exists(base) || fileSystem.isDirectory(base))),
                   seen.insert(base).inserted {
                    results.append(base)
                }
                return
            }
            let component = components[index]
            if component == "**" {
                walk(base, index + 1)
                let names = (try? fileSystem.list(base)) ?? []
                for name in sorted ? names.sorted() : names where !name.hasPrefix(".") && results.count < limit {
                    let folder = Paths.join(base, name)
                    if fileSystem.isDirectory(folder) { walk(folder, index) }
                }
            } else if Paths.isGlob(component) {
                let entries = (try? fileSystem.entries(base)) ?? []
                for entry in sorted ? entries.sorted(by: { $0.name < $1.name }) : entries
                where results.count < limit && !entry.name.hasPrefix(".") && Paths.matches(entry.name, pattern: component) {
                    walk(child(base, entry.name), index + 1, listed: entry.isDirectory)
                }
            } else {
                walk(base == "." && pattern.hasPrefix("/") ? "/" + component : Paths.join(base, component), index + 1)
            }
        }
        walk(pattern.hasPrefix("/") ? "/" : ".", 0)
        return results
    }

    /// `Paths.join` for a name read from a listing (no slash, not "." or "..") under a path
    /// that is already normal, without normalising again: a glob over a large folder joins
    /// every name in it.
    private static func child(_ base: String, _ name: String) -> String {
        switch base {
        case "", ".": name
        case "/": "/" + name
        // A literal ".." right under the root ("/../x/*") is the one base not made normal.
        case _ where base.hasSuffix("/.."): Paths.join(base, name)
        default: base + "/" + name
        }
    }
}
