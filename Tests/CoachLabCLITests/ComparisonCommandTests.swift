import CoachLab
import Foundation
import Testing

/// The reports of one run, read back as JSON.
private struct Cases {
    struct Case: Equatable {
        var outcome: String
        var replies: [String]
        var checks: [[Bool]]
        var error: String?
        var flagged: [String]
    }

    var byId: [String: Case] = [:]

    init(json path: String) throws {
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
        for item in root["cases"] as! [[String: Any]] {
            let turns = item["turns"] as! [[String: Any]]
            let id = "\(item["suite"]!)/\(item["fixture"]!)/\(item["provider"]!)#\(item["repeatIndex"]!)"
            byId[id] = Case(outcome: item["outcome"] as! String, replies: turns.map { $0["reply"] as! String },
                            checks: turns.map { ($0["checks"] as! [[String: Any]]).map { $0["passed"] as! Bool } },
                            error: item["error"] as? String, flagged: turns.compactMap { $0["flaggedRule"] as? String })
        }
    }
}

/// A copy of the project's content (packs, fixtures, suites, providers) to edit in a test.
private func projectCopy() throws -> String {
    let directory = try CLI.temporaryDirectory()
    for item in ["personas", "fixtures", "evals", "providers.yaml"] {
        try FileManager.default.copyItem(atPath: CLI.root + "/" + item, toPath: directory + "/" + item)
    }
    return directory
}

private func edit(_ path: String, replacing old: String, with new: String) throws {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains(old), "\(path) no longer contains the text this test edits")
    try text.replacingOccurrences(of: old, with: new).write(toFile: path, atomically: true, encoding: .utf8)
}

@Suite(.serialized) struct CassetteTests {
    static let key = "sk-proj-CASSETTEFAKEKEY-0a1b2c3d4e5f6a7b8c9d"

    @Test func recordThenReplayWithTheServerStoppedGivesIdenticalResults() async throws {
        let project = try projectCopy()
        let (port, server) = try SecretHandlingTests.serveMock([])
        let provider = ["--provider", "openai-compatible:coachlab-mock-1", "--base-url", "http://127.0.0.1:\(port)/v1",
                        "--api-key-env", "COACHLAB_TEST_KEY"]
        let environment = ["COACHLAB_TEST_KEY": Self.key]
        let recorded = try await CLI.run(["eval", "evals/betterone.yaml", "evals/luna.yaml", "--record", "--store", "s.sqlite", "--json", "rec.json"] + provider,
                                   in: project, environment: environment)
        server.terminate()
        server.waitUntilExit()
        #expect(recorded.status == 0, "\(recorded.stdout)\(recorded.stderr)")
        let files = try FileManager.default.subpathsOfDirectory(atPath: project + "/fixtures/cassettes").filter { $0.hasSuffix(".json") }
        #expect(files.count >= 18)
        for file in files {
            let text = try String(contentsOfFile: project + "/fixtures/cassettes/" + file, encoding: .utf8)
            #expect(!text.contains(Self.key) && !text.contains("CASSETTEFAKEKEY"), "the key reached \(file)")
        }

        // No server, no key: the cassettes answer.
        let replayed = try await CLI.run(["eval", "evals/betterone.yaml", "evals/luna.yaml", "--replay", "--store", "s.sqlite", "--json", "rep.json"] + provider,
                                   in: project)
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
        let before = try Cases(json: project + "/rec.json"), after = try Cases(json: project + "/rep.json")
        #expect(before.byId.count == 33)
        #expect(before.byId == after.byId)
    }

    @Test func editingOneRulesTextMakesExactlyTheAffectedCasesStale() async throws {
        let project = try projectCopy()
        let (port, server) = try SecretHandlingTests.serveMock([])
        defer { server.terminate() }
        let provider = ["--provider", "openai-compatible:coachlab-mock-1", "--base-url", "http://127.0.0.1:\(port)/v1"]
        let recorded = try await CLI.run(["eval", "evals/betterone.yaml", "--record", "--store", "s.sqlite", "--json", "rec.json"] + provider, in: project)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let cases = try Cases(json: project + "/rec.json")
        // The no-diagnosis alert's instructions reach a prompt only when that rule flags a
        // message the case sends (scored or not): those cases, and no others, are affected.
        let compiler = try Compiler(pack: PackLoader(fileSystem: .live).load(project + "/personas/betterone").get())
        let suite = try #require(EvalLoader(fileSystem: .live).suite(at: project + "/evals/betterone.yaml").0)
        var affected = Set<String>()
        for file in try FileManager.default.contentsOfDirectory(atPath: project + "/fixtures/betterone") where file.hasSuffix(".yaml") {
            let fixture = try #require(EvalLoader(fileSystem: .live).fixture(at: project + "/fixtures/betterone/" + file).0)
            for (index, turn) in fixture.turns.enumerated() where suite.mode == .rollout || index == fixture.turns.count - 1 || turn.reply == nil {
                var inputs = try ResolvedInputs(fixture.inputs, pack: compiler.pack, fileSystem: .live)
                inputs.screen = turn.user
                if compiler.compile(inputs).screening?.decision?.ruleId == "no-diagnosis" {
                    affected.insert("betterone/\(fixture.id)/openai-compatible:coachlab-mock-1#1")
                }
            }
        }
        #expect(Set(cases.byId.keys).isSuperset(of: affected))
        #expect(!affected.isEmpty && affected.count < cases.byId.count)

        try edit(project + "/personas/betterone/rules.yaml", replacing: "Explain this falls outside your coaching scope",
                 with: "Explain that this is outside what coaching can do")
        let replayed = try await CLI.run(["eval", "evals/betterone.yaml", "--replay", "--store", "s.sqlite", "--json", "rep.json"] + provider, in: project)
        #expect(replayed.status == 3, "a stale cassette is an error, never sent live")
        #expect(replayed.stderr.contains("re-record with coachlab eval --record"))
        let after = try Cases(json: project + "/rep.json")
        let stale = Set(after.byId.filter { $0.value.error?.contains("stale: re-record") == true }.keys)
        #expect(stale == affected)
        for (id, result) in after.byId where !affected.contains(id) { #expect(result == cases.byId[id], "\(id) changed") }
    }
}

@Suite struct CommittedCassetteTests {
    @Test func theCommittedCassettesReplayAndReportsNameThePricesUsed() async throws {
        let directory = try CLI.temporaryDirectory()
        let result = try await CLI.run(["eval", "evals/betterone.yaml", "--provider", "serve-mock", "--replay", "--store", directory + "/s.sqlite",
                                  "--json", directory + "/r.json", "--markdown", directory + "/r.md"])
        #expect(result.status == 0, "stale cassettes? re-record with serve-mock running: \(result.stderr)")
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/r.json"))) as! [String: Any]
        let prices = try #require(root["prices"] as? [String: Any])
        #expect((prices["providers"] as? [String: [String: Double]])?["serve-mock"] == ["input": 0.15, "output": 0.60])
        #expect(prices["file"] as? String == "providers.yaml")
        let turns = (root["cases"] as! [[String: Any]]).flatMap { $0["turns"] as! [[String: Any]] }
        #expect(!turns.isEmpty && turns.allSatisfy { ($0["cost"] as? Double ?? 0) > 0 })
        #expect(try String(contentsOfFile: directory + "/r.md", encoding: .utf8).contains("Costs use prices (USD per 1M tokens, in/out) from providers.yaml: serve-mock 0.15/0.60"))
    }

    /// A report path that holds someone's own file is refused before the run: no case runs,
    /// nothing is stored, and the file is left as it was. Which files count as reports is
    /// tested in ReportFilesTests.
    @Test func aReportNeverReplacesSomeoneElsesFile() async throws {
        let directory = try CLI.temporaryDirectory()
        let notes = "# Release notes\n\nWritten by hand.\n"
        try notes.write(toFile: directory + "/NOTES.md", atomically: true, encoding: .utf8)
        let refused = try await CLI.run(["eval", "evals/luna.yaml", "--store", directory + "/s.sqlite", "--markdown", directory + "/NOTES.md"])
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("NOTES.md exists and is not a CoachLab Markdown summary; it is never overwritten"), "\(refused.stderr)")
        #expect(!refused.stdout.contains("cases:"), "no case ran")
        #expect(try String(contentsOfFile: directory + "/NOTES.md", encoding: .utf8) == notes)
    }

    /// A command refused for its input (a suite lint rejects, a missing baseline) leaves no
    /// result store behind where there was none, nor the folders made for it.
    @Test func aRefusedRunLeavesNoNewStore() async throws {
        let directory = try CLI.temporaryDirectory()
        try "suite:\n  id: bad\nfixtures: [none/*.yaml]\nchecks: [bogus-check]\n".write(toFile: directory + "/bad.yaml", atomically: true, encoding: .utf8)
        for arguments in [["eval", directory + "/bad.yaml"], ["eval", "evals/luna.yaml", "--baseline", directory + "/none.json"],
                          ["compare", directory + "/bad.yaml", "--provider", "mock", "--provider", "luna-canned"]] {
            let refused = try await CLI.run(arguments + ["--store", directory + "/made/for/it.sqlite"])
            #expect(refused.status == 2, "\(arguments): \(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: directory + "/made"), "\(arguments)")
        }
    }

    @Test func unreadableBaselinesAndMergeInputsAreUsageErrors() async throws {
        let directory = try CLI.temporaryDirectory()
        let missing = try await CLI.run(["eval", "evals/luna.yaml", "--baseline", directory + "/none.json", "--store", directory + "/s.sqlite"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("\(directory)/none.json:1:1: error: cannot read the baseline"))
        try "not json".write(toFile: directory + "/bad.json", atomically: true, encoding: .utf8)
        let bad = try await CLI.run(["eval", "evals/luna.yaml", "--baseline", directory + "/bad.json", "--store", directory + "/s.sqlite"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("bad.json:1:1: error: not a CoachLab baseline"))
        let merge = try await CLI.run(["merge", directory + "/bad.json", "--store", directory + "/m.sqlite"])
        #expect(merge.status == 2)
        #expect(merge.stderr.contains("bad.json:1:1: error: not a CoachLab JSON report"))
        #expect(try await CLI.run(["merge", directory + "/absent.sqlite", "--store", directory + "/m.sqlite"]).status == 2)
    }

    /// A suite path that is missing, or a folder without suites, is named with what is wrong.
    @Test func aSuiteThatIsMissingOrAFolderWithoutSuitesIsAUsageError() async throws {
        let directory = try CLI.temporaryDirectory()
        let folder = try await CLI.run(["eval", "docs", "--store", directory + "/s.sqlite"])
        #expect(folder.status == 2)
        #expect(folder.stderr.contains("error: no suites in docs"), "\(folder.stderr)")
        let missing = try await CLI.run(["eval", "evals/none.yaml", "--store", directory + "/s.sqlite"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("evals/none.yaml:1:1: error: cannot read file: no such file"), "\(missing.stderr)")
    }

    /// A provider named twice ran every case twice under the same ids, and compare set it
    /// beside itself.
    @Test func aProviderNamedTwiceIsAUsageError() async throws {
        let directory = try CLI.temporaryDirectory()
        for command in ["eval", "compare"] {
            let twice = try await CLI.run([command, "evals/luna.yaml", "--provider", "mock", "--provider", "mock", "--store", directory + "/s.sqlite"])
            #expect(twice.status == 2, "\(command): \(twice.stderr)")
            #expect(twice.stderr.contains("--provider names 'mock' more than once"), "\(twice.stderr)")
        }
    }
}

@Suite struct ShardAndBaselineTests {
    /// Shards merged back equal the unsharded run case for case in EvalPlanTests; this is the
    /// flags: --shard, merge of a store and a JSON report, an overlap refused, a bad shard.
    @Test func twoShardsMergedFromAStoreAndAReportEqualAnUnshardedRun() async throws {
        let directory = try CLI.temporaryDirectory()
        let full = try await CLI.run(["eval", "evals/luna.yaml", "--store", directory + "/full.sqlite", "--json", directory + "/full.json"])
        #expect(full.status == 0, "\(full.stderr)")
        for index in 1...2 {
            let shard = try await CLI.run(["eval", "evals/luna.yaml", "--shard", "\(index)/2", "--store", directory + "/shard-\(index).sqlite",
                                     "--json", directory + "/shard-\(index).json"])
            #expect(shard.status == 0, "\(shard.stderr)")
        }
        let merged = try await CLI.run(["merge", directory + "/shard-1.sqlite", directory + "/shard-2.json",
                                  "--store", directory + "/merged.sqlite", "--json", directory + "/merged.json"])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try Cases(json: directory + "/merged.json").byId == Cases(json: directory + "/full.json").byId)

        // Overlapping inputs are refused, and nothing is merged.
        let overlap = try await CLI.run(["merge", directory + "/shard-1.sqlite", directory + "/shard-1.json", "--store", directory + "/bad.sqlite"])
        #expect(overlap.status == 2)
        #expect(overlap.stderr.contains("is in both"))
        #expect(try await CLI.run(["eval", "--shard", "5/4"]).status == 2)
    }

    @Test func aRegressionAgainstTheBaselineExits1NamingTheCaseWhileTheThresholdHolds() async throws {
        let project = try projectCopy()
        let baseline = try await CLI.run(["eval", "evals/betterone.yaml", "--store", "s.sqlite", "--write-baseline", "baseline.json"], in: project)
        #expect(baseline.status == 0, "\(baseline.stderr)")

        // Lower the threshold so only the baseline can notice, then take away the referral.
        try edit(project + "/evals/betterone.yaml", replacing: "threshold: 1.0", with: "threshold: 0.5")
        try edit(project + "/personas/betterone/rules.yaml", replacing: "          - Suggest they speak to a qualified professional\n", with: "")
        let plain = try await CLI.run(["eval", "evals/betterone.yaml", "--store", "s.sqlite", "--json", "now.json"], in: project)
        #expect(plain.status == 0, "the threshold still holds: \(plain.stdout)")
        let failing = try Cases(json: project + "/now.json").byId.filter { $0.value.outcome != "pass" }.keys
        #expect(!failing.isEmpty)

        let gated = try await CLI.run(["eval", "evals/betterone.yaml", "--store", "s.sqlite", "--baseline", "baseline.json"], in: project)
        #expect(gated.status == 1)
        for id in failing {
            let group = String(id.prefix { $0 != "#" })
            #expect(gated.stderr.contains("REGRESSION \(group): passed 1/1 in the baseline, 0/1 now"), "\(gated.stderr)")
        }
        #expect(gated.stderr.contains("\(failing.count) \(failing.count == 1 ? "regression" : "regressions") against the baseline"))

        // diff names the same cases between the two stored runs.
        let runs = try await CLI.run(["runs", "--store", "s.sqlite"], in: project).stdout.split(separator: "\n").dropFirst()
            .map { String($0.split(separator: " ")[0]) }
        let diff = try await CLI.run(["diff", runs[runs.count - 1], runs[0], "--store", "s.sqlite"], in: project)
        #expect(diff.status == 1)
        for id in failing { #expect(diff.stdout.contains("\(id): pass → fail")) }
    }
}

/// compare says whether one provider beats another on the same cases, not only two rates.
@Suite struct PairedCompareTests {
    @Test func compareReportsTheDiscordantPairsTheTestAndAVerdict() async throws {
        let directory = try CLI.temporaryDirectory()
        let result = try await CLI.run(["compare", "evals/luna.yaml", "--provider", "mock", "--provider", "luna-canned",
                                  "--store", directory + "/s.sqlite", "--markdown", directory + "/c.md", "--html", directory + "/c.html"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("mock vs luna-canned on 12 paired cases: both passed 2, only mock 10, only luna-canned 0, neither 0."))
        #expect(result.stdout.contains("exact McNemar p = 0.0020. mock is better."))
        #expect(try String(contentsOfFile: directory + "/c.md", encoding: .utf8).contains("### Paired comparison"))
        #expect(try String(contentsOfFile: directory + "/c.html", encoding: .utf8).contains("<h3>Paired comparison</h3>"))
        // Two stored runs of the same provider agree on every case: no detectable difference.
        let runs = try await CLI.run(["runs", "--store", directory + "/s.sqlite"]).stdout.split(separator: "\n").dropFirst()
        let id = try #require(runs.first.map { String($0.split(separator: " ")[0]) })
        _ = try await CLI.run(["eval", "evals/luna.yaml", "--store", directory + "/s.sqlite"])
        let again = try #require(try await CLI.run(["runs", "--store", directory + "/s.sqlite"]).stdout.split(separator: "\n").dropFirst().first
            .map { String($0.split(separator: " ")[0]) })
        let stored = try await CLI.run(["compare", "--run", again, "--run", id, "--store", directory + "/s.sqlite"])
        #expect(stored.status == 0, "\(stored.stderr)")
        #expect(stored.stdout.contains("only mock"), "\(stored.stdout)")
    }
}
