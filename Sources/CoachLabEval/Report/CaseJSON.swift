import CoachLab
import Foundation

/// A case as the JSON report writes it: the text `JSONEncoder.sorted(pretty: true)` gives
/// for a ``CaseResult``, written straight into bytes.
///
/// Foundation's encoder goes through the generic `Encodable` machinery for every value and
/// sorts each object's keys as it writes; for a run of 10,000 cases that cost as much CPU as
/// running them. The report's cases have a fixed shape, so their keys are written here in
/// sorted order, with the encoder's layout (two-space indents, `" : "`, an empty list as
/// `[`, a blank line and `]`), string escapes (slashes left alone) and numbers (a whole
/// number without `.0`; a value that is not finite is refused, as the encoder refuses it).
/// `CaseJSONTests` compares the two on thousands of random cases.
enum CaseJSON {
    /// The case's JSON, each line after the first indented by `indent` spaces.
    static func text(_ result: CaseResult, indent: Int) throws -> String {
        var writer = PrettyJSONWriter(indent: indent)
        try writer.write(result)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
