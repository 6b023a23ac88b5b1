import Foundation

extension Substring {
    /// What `trimmingCharacters(in:)` returns, without its trip through `NSString`: the same
    /// scalars come off both ends, found by a scan of the scalars rather than a bridge and a
    /// copy. Lint and compile trim every line of every template and every text a pack holds.
    package func trimmed(_ set: CharacterSet) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !set.contains($0) }),
              let last = scalars.lastIndex(where: { !set.contains($0) }) else { return "" }
        return String(Substring(scalars[first...last]))
    }
}

extension String {
    /// ``Substring/trimmed(_:)`` of the whole string.
    package func trimmed(_ set: CharacterSet) -> String {
        self[...].trimmed(set)
    }
}

extension StringProtocol {
    /// Whether every scalar is in `set`, as `trimmingCharacters(in: set).isEmpty` says.
    package func consists(of set: CharacterSet) -> Bool {
        unicodeScalars.allSatisfy { set.contains($0) }
    }
}
