import Foundation

/// A set of Unicode scalars for trimming and testing text: a `CharacterSet` built once, with
/// its ASCII members in a table.
///
/// `CharacterSet.whitespaces` builds a new set at every use, and asking it about a scalar
/// goes through CoreFoundation; lint, compile and the mock trim most lines they read, most
/// of them ASCII. The common sets are built once here (`trimmed(.whitespaces)` reads as
/// before), and an ASCII scalar is looked up in the table.
package struct ScalarSet: Sendable {
    private let set: CharacterSet
    /// Bit `n` of word `n / 64` is whether scalar `n` (below 128) is in the set.
    private let ascii: (UInt64, UInt64)

    package init(_ set: CharacterSet) {
        self.set = set
        var ascii: (UInt64, UInt64) = (0, 0)
        for value in 0..<128 where set.contains(Unicode.Scalar(UInt8(value))) {
            if value < 64 { ascii.0 |= 1 << UInt64(value) } else { ascii.1 |= 1 << UInt64(value - 64) }
        }
        self.ascii = ascii
    }

    /// The scalars of `characters`.
    package init(charactersIn characters: String) { self.init(CharacterSet(charactersIn: characters)) }

    package static let whitespaces = ScalarSet(.whitespaces)
    package static let whitespacesAndNewlines = ScalarSet(.whitespacesAndNewlines)
    package static let punctuationCharacters = ScalarSet(.punctuationCharacters)

    package func contains(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 64 { return ascii.0 & (1 << UInt64(value)) != 0 }
        if value < 128 { return ascii.1 & (1 << UInt64(value - 64)) != 0 }
        return set.contains(scalar)
    }
}

extension Substring {
    /// What `trimmingCharacters(in:)` returns, without its trip through `NSString`: the same
    /// scalars come off both ends, found by a scan of the scalars rather than a bridge and a
    /// copy. Lint and compile trim every line of every template and every text a pack holds.
    package func trimmed(_ set: ScalarSet) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !set.contains($0) }),
              let last = scalars.lastIndex(where: { !set.contains($0) }) else { return "" }
        return String(Substring(scalars[first...last]))
    }
}

extension String {
    /// ``Substring/trimmed(_:)`` of the whole string.
    package func trimmed(_ set: ScalarSet) -> String {
        self[...].trimmed(set)
    }
}

extension StringProtocol {
    /// Whether every scalar is in `set`, as `trimmingCharacters(in: set).isEmpty` says.
    package func consists(of set: ScalarSet) -> Bool {
        unicodeScalars.allSatisfy { set.contains($0) }
    }
}
