import CoachLab
import Foundation

/// Every stage-1 flag of every shipped pack on every labelled message and on each of its
/// red-team rewrites, with typo tolerance on and off, one line per message. Two builds' dumps
/// compared with `diff` show that a change to the screener flags exactly what it flagged
/// before, with the same spans.
enum ScreenDump {
    static func run(packs: [String], datasets: [String]) throws {
        let fileSystem = FileSystem.live
        var messages: [String] = []
        for path in datasets {
            for item in try GuardrailDataset.load(path, fileSystem: fileSystem).items {
                messages.append(item.message)
                for perturbation in Perturbation.deterministic { messages += perturbation.variants(of: item.message) }
            }
        }
        var output = ""
        for path in packs {
            let pack = try PackLoader(fileSystem: fileSystem).load(path).get()
            for typos in [true, false] {
                let screener = Screener(rules: pack.rules, lexicons: pack.lexicons, typos: typos)
                for message in messages {
                    let flags = screener.screen(message).flags.map { flag in
                        "\(flag.ruleId) \(flag.kind.rawValue) \(flag.matched) [\(flag.excerpt)] \(flag.start)-\(flag.end) \(flag.lexiconEntries ?? [])"
                    }
                    output += "\(path) typos=\(typos) \(message.debugDescription): \(flags.joined(separator: "; "))\n"
                }
            }
        }
        FileHandle.standardOutput.write(Data(output.utf8))
    }
}
