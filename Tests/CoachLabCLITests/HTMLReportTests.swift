import Foundation
import Testing
import CoachLabTestSupport

/// Headless Chromium, when installed (`.ci/run` installs Debian's package and sets
/// COACHLAB_REQUIRE_BROWSER=1, so CI never skips these).
enum Browser {
    static let path: String? = {
        let candidates = [ProcessInfo.processInfo.environment["CHROMIUM"], "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static var required: Bool { ProcessInfo.processInfo.environment["COACHLAB_REQUIRE_BROWSER"] == "1" }

    /// The DOM after the page's scripts ran.
    static func dom(_ file: String, fragment: String = "") async throws -> String {
        try await run(["--dump-dom", "file://\(file)" + (fragment.isEmpty ? "" : "#" + fragment)])
    }

    static func screenshot(_ file: String, fragment: String, to png: String, size: String) async throws {
        _ = try await run(["--window-size=\(size)", "--screenshot=\(png)", "file://\(file)#\(fragment)"])
    }

    /// Runs the browser and waits for it on one of Dispatch's threads: a page takes seconds,
    /// and blocking one of the few threads that run every test's tasks would stall the rest.
    private static func run(_ arguments: [String]) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try runAndWait(arguments) }) }
        }
    }

    private static func runAndWait(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path!)
        let profile = Scratch.path("chromium")
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(profile)",
                             "--virtual-time-budget=5000"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: profile)
        return String(decoding: data, as: UTF8.self)
    }
}

@Suite(.serialized) struct HTMLReportTests {
    /// `compare` on Kindred with the mock and the canned provider, whose replies fail some checks.
    static func report() async throws -> (html: String, text: String, failing: [String: Set<String>]) {
        let directory = try CLI.temporaryDirectory()
        let html = directory + "/compare.html"
        let result = try await CLI.run(["compare", "evals/kindred.yaml", "--provider", "mock", "--provider", "luna-canned",
                                  "--html", html, "--store", directory + "/s.sqlite"])
        #expect(result.status == 0, "\(result.stderr)")
        // "luna-canned: FAIL kindred/…#1 turn 1 ends-with-question: …" → failing checks by case.
        var failing: [String: Set<String>] = [:]
        for line in result.stdout.split(separator: "\n") where line.hasPrefix("luna-canned: FAIL ") {
            let parts = line.dropFirst("luna-canned: FAIL ".count).split(separator: " ")
            failing[String(parts[0]), default: []].insert(String(parts[3].dropLast()))
        }
        return (html, result.stdout, failing)
    }

    /// How many case bodies the DOM has hidden.
    static func hiddenCases(_ dom: String) -> Int {
        dom.components(separatedBy: "<tbody class=\"case\"").dropFirst().filter { $0.prefix { $0 != ">" }.contains(" hidden") }.count
    }

    @Test func theFileIsSelfContainedAndHasEveryCaseChartAndPrompt() async throws {
        let (html, _, failing) = try await Self.report()
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(!failing.isEmpty)
        for reference in ["<script src", "<link", "url(", "@import", "https://", "http://"] {
            #expect(!page.contains(reference), "the page must load nothing: found \(reference)")
        }
        #expect(page.components(separatedBy: "<tbody class=\"case\"").count - 1 == 18)
        for chart in ["chart-pass", "chart-latency", "chart-checks"] { #expect(page.contains("<svg class=\"chart\" id=\"\(chart)\"")) }
        #expect(page.contains("Sources: <code>"), "layers list their sources")
        // Each distinct prompt is written once, and every link from a turn reaches one.
        let written = page.components(separatedBy: "<details class=\"prompt\" id=\"prompt-").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        let linked = Set(page.components(separatedBy: "class=\"prompt-link\" href=\"#prompt-").dropFirst().map { String($0.prefix { $0 != "\"" }) })
        let hashes = page.components(separatedBy: "<details class=\"prompt\"").dropFirst().map { $0.components(separatedBy: "<code>")[1].prefix { $0 != "<" } }
        #expect(!written.isEmpty && Set(written).count == written.count)
        #expect(Set(hashes).count == hashes.count, "no prompt is written twice")
        #expect(linked == Set(written), "every written prompt is linked, and every link has its prompt")
        #expect(page.components(separatedBy: "class=\"prompt-link\"").count - 1 > written.count, "turns share prompts")
        #expect(page.contains("<ins>"), "the canned replies differ from the mock's and are highlighted")
        #expect(page.contains("<meta name=\"viewport\""))
    }

    @Test func storedRunsAreComparedColumnByColumn() async throws {
        let directory = try CLI.temporaryDirectory()
        let store = directory + "/s.sqlite"
        for provider in ["mock", "luna-canned"] {
            // The canned replies miss some of Luna's checks (exit 1); neither run may error.
            #expect(try await [0, 1].contains(CLI.run(["eval", "evals/luna.yaml", "--provider", provider, "--store", store]).status))
        }
        let runs = try await CLI.run(["runs", "--store", store]).stdout.split(separator: "\n").dropFirst().map { String($0.split(separator: " ")[0]) }
        #expect(runs.count == 2)
        let result = try await CLI.run(["compare", "--run", runs[1], "--run", runs[0], "--store", store, "--markdown", directory + "/m.md",
                                  "--html", directory + "/c.html"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("mock · \(runs[1])"))
        #expect(result.stdout.contains("luna-canned · \(runs[0])"))
        let markdown = try String(contentsOfFile: directory + "/m.md", encoding: .utf8)
        #expect(markdown.contains("| case | mock · \(runs[1]) | luna-canned · \(runs[0]) |"))
        #expect(markdown.components(separatedBy: "\n| luna/").count - 1 == 12)
        #expect(try await CLI.run(["compare", "evals/luna.yaml", "--provider", "mock"]).status == 2, "one provider is not a comparison")
        #expect(try await CLI.run(["compare", "--run", "nope", "--store", store]).status == 2)
    }

    @Test(.enabled(if: Browser.path != nil || Browser.required, "needs headless Chromium (apt-get install chromium)"))
    func filtersSortingAndChartsWorkInHeadlessChromium() async throws {
        #expect(Browser.path != nil, "COACHLAB_REQUIRE_BROWSER=1 but no Chromium is installed")
        guard Browser.path != nil else { return }
        let (html, _, failing) = try await Self.report()
        let page = try String(contentsOfFile: html, encoding: .utf8)
        let total = page.components(separatedBy: "<tbody class=\"case\"").count - 1
        #expect(total == 18, "every Kindred case is on the page")

        let plain = try await Browser.dom(html)
        #expect(plain.contains("data-ready=\"true\""), "the scripts ran")
        #expect(plain.contains("\(total) of \(total) cases shown"))
        #expect(plain.components(separatedBy: "<rect").count - 1 >= 4, "the charts have bars")

        let failingOnly = try await Browser.dom(html, fragment: "failing=1")
        #expect(failingOnly.contains("\(failing.count) of \(total) cases shown"), "\(failing)")
        #expect(Self.hiddenCases(failingOnly) == total - failing.count)

        let onlyMock = try await Browser.dom(html, fragment: "failing=1&provider=0")
        #expect(onlyMock.contains("0 of \(total) cases shown"), "the mock passes every case")

        let check = "ends-with-question"
        let byCheck = failing.filter { $0.value.contains(check) }.count
        #expect(byCheck > 0)
        let checkFilter = try await Browser.dom(html, fragment: "failing=1&check=\(check)")
        #expect(checkFilter.contains("\(byCheck) of \(total) cases shown"))

        let rollouts = page.components(separatedBy: "<tbody class=\"case\"").dropFirst().filter { $0.prefix { $0 != ">" }.contains("&quot;rollout&quot;") }.count
        #expect(rollouts > 0 && rollouts < total)
        let tagFilter = try await Browser.dom(html, fragment: "tag=rollout")
        #expect(tagFilter.contains("\(rollouts) of \(total) cases shown"))
        #expect(Self.hiddenCases(tagFilter) == total - rollouts)

        // Sorting by the canned provider's column puts its failures first.
        let sorted = try await Browser.dom(html, fragment: "sort=col-1&dir=asc")
        let order = sorted.components(separatedBy: "<tbody class=\"case\"").dropFirst().map { body in
            body.components(separatedBy: "data-case=\"")[1].prefix { $0 != "\"" }
        }
        #expect(order.count == total)
        #expect(order.prefix(failing.count).allSatisfy { failing.keys.contains(String($0)) }, "\(order)")
        #expect(sorted.contains("aria-sort=\"ascending\"><button type=\"button\" data-sort=\"col-1\""))

        // Expanding a case shows the replies side by side with differences marked.
        let expanded = try await Browser.dom(html, fragment: "failing=1&expand=first")
        #expect(expanded.contains("aria-expanded=\"true\""))

        let screenshot = CLI.root + "/.build/coachlab-report.png"
        try await Browser.screenshot(html, fragment: "failing=1&expand=first", to: screenshot, size: "1200,2000")
        try await Browser.screenshot(html, fragment: "expand=first", to: CLI.root + "/.build/coachlab-report-phone.png", size: "390,1600")
        #expect(FileManager.default.fileExists(atPath: screenshot))
        print("screenshots for a person to look at: \(screenshot), .build/coachlab-report-phone.png")
    }
}

/// Trends over stored runs, in the terminal and as a page a browser draws.
@Suite struct TrendsTests {
    @Test func trendsShowEachSuiteAndProviderOverTheRuns() async throws {
        let directory = try CLI.temporaryDirectory()
        let store = directory + "/s.sqlite"
        for provider in ["mock", "luna-canned", "mock"] {
            #expect(try await [0, 1].contains(CLI.run(["eval", "evals/luna.yaml", "--provider", provider, "--store", store]).status))
        }
        let text = try await CLI.run(["runs", "--trend", "luna", "--store", store])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("luna on mock") && text.stdout.contains("luna on luna-canned"))
        #expect(text.stdout.contains("100.0% (76-100%)    +0.0"), "\(text.stdout)")
        #expect(text.stdout.contains("16.7% (5-45%)"))
        #expect(try await CLI.run(["runs", "--trend", "no-such-suite", "--store", store]).stdout.contains("no runs"))
        #expect(try await CLI.run(["runs", "luna", "--store", store]).status == 2)
        let html = directory + "/trends.html"
        let page = try await CLI.run(["report", "trends", "--html", html, "--store", store])
        #expect(page.status == 0 && page.stderr.contains("trends of 3 runs"), "\(page.stderr)")
        let body = try String(contentsOfFile: html, encoding: .utf8)
        #expect(body.contains("<svg class=\"chart\" id=\"trend-luna\""))
        #expect(body.components(separatedBy: "<polyline class=\"line").count - 1 == 2)
        for reference in ["<script src", "<link", "https://", "http://"] { #expect(!body.contains(reference)) }
        guard Browser.path != nil else {
            #expect(!Browser.required, "COACHLAB_REQUIRE_BROWSER is set but no Chromium was found")
            return
        }
        let dom = try await Browser.dom(html)
        #expect(dom.contains("<polygon class=\"band c0\"") && dom.contains("■ luna-canned"))
        try await Browser.screenshot(html, fragment: "trend-luna", to: CLI.root + "/.build/coachlab-trends.png", size: "900,700")
    }
}
