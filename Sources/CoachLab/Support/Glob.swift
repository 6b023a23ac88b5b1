/// Shell-style globbing over a ``FileSystem``.
enum Glob {
    /// Expands a pattern with `*`, `?` and `[…]` in any component; `**` matches any depth.
    static func expand(_ pattern: String, fileSystem: FileSystem) -> [String] {
        let components = pattern.split(separator: "/").map(String.init)
        var results: [String] = []
        func walk(_ base: String, _ index: Int) {
            guard index < components.count else {
                if fileSystem.exists(base), !fileSystem.isDirectory(base) { results.append(base) }
                return
            }
            let component = components[index]
            if component == "**" {
                walk(base, index + 1)
                for name in ((try? fileSystem.list(base)) ?? []).sorted() where !name.hasPrefix(".") {
                    let child = Paths.join(base, name)
                    if fileSystem.isDirectory(child) { walk(child, index) }
                }
            } else if Paths.isGlob(component) {
                for name in ((try? fileSystem.list(base)) ?? []).sorted()
                where !name.hasPrefix(".") && Paths.matches(name, pattern: component) {
                    walk(Paths.join(base, name), index + 1)
                }
            } else {
                walk(base == "." && pattern.hasPrefix("/") ? "/" + component : Paths.join(base, component), index + 1)
            }
        }
        walk(pattern.hasPrefix("/") ? "/" : ".", 0)
        var seen = Set<String>()
        return results.filter { seen.insert($0).inserted }
    }
}
