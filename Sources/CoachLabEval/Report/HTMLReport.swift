import CoachLab
import Foundation

/// The HTML report: one self-contained file (inline CSS, JavaScript and SVG; nothing
/// fetched) with a summary per provider, charts CoachLab draws itself, every case side by
/// side with differences highlighted, filters, sortable columns, and the compiled prompt
/// each reply answered, layer by layer with its sources.
///
/// Filters and sorting can also be set from the address:
/// `#failing=1&check=ID&tag=T&provider=N&sort=col-N&dir=desc&expand=first|all`.
public struct HTMLReport {
    public let matrix: ComparisonMatrix
    public let title: String
    private let stores: [String: ResultStore]
    /// Each run's per-suite figures (repeats, flaky cases, cached replies).
    private let reports: [RunReport]

    public init(runs: [RunReport], title: String = "CoachLab report") throws {
        matrix = try ComparisonMatrix(runs: runs)
        reports = runs
        self.title = title
        stores = Dictionary(runs.map { ($0.run, $0.store) }) { first, _ in first }
    }

    /// Writes the page a piece at a time.
    public func render(to write: (String) throws -> Void) throws {
        try write(head())
        try write(summarySection())
        try write(chartsSection())
        try write(filtersSection())
        try write(casesHead())
        var prompts = PromptIndex()
        for row in matrix.rows { try write(try caseBody(row, prompts: &prompts)) }
        try write("</table>\n</div>\n</section>\n")
        try write(promptsHead(prompts.keys.count))
        for (number, key) in prompts.keys.enumerated() { try write(try prompt(key.hash, run: key.run, number: number)) }
        try write("</section>\n")
        try write(foot())
    }

    public func render() throws -> String {
        var out = ""
        try render { out += $0 }
        return out
    }

    // MARK: - Sections

    private func head() -> String {
        let runs = matrix.runs.map { "<code>\(esc($0))</code>" }.joined(separator: ", ")
        var prices = ""
        for run in matrix.runs { if let sheet = matrix.prices[run] { prices += "<p class=\"prices\">\(matrix.runs.count > 1 ? esc(run) + ": " : "")\(esc(sheet.summary))</p>\n" } }
        if prices.isEmpty { prices = "<p class=\"prices\">No price table was recorded with \(matrix.runs.count > 1 ? "these runs" : "this run"); costs are not shown.</p>\n" }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            \(Self.generator)
            <title>\(esc(title))</title>
            <style>\(Self.css)</style>
            </head>
            <body data-report="\(StableHash.hex(matrix.runs.joined(separator: ",")))" data-runs="\(esc(json(matrix.runs)))">
            <a class="skip" href="#cases">Skip to the cases</a>
            <header>
            <h1>\(esc(title))</h1>
            <p>\(matrix.rows.count) cases · \(matrix.columns.count) \(matrix.columns.count == 1 ? "provider" : "providers") · run \(runs)</p>
            \(prices)</header>
            <main>

            """
    }

    private func summarySection() -> String {
        func seconds(_ value: Double?) -> String { value.map { String(format: "%.2f s", $0) } ?? "–" }
        var out = """
            <section aria-labelledby="summary-title">
            <h2 id="summary-title">Summary</h2>
            <div class="scroll"><table class="summary">
            <thead><tr><th scope="col">Provider</th><th scope="col">Cases</th><th scope="col">Pass rate (95% CI)</th><th scope="col">Fail</th><th scope="col">Error</th><th scope="col">Latency p50</th><th scope="col">Latency p95</th><th scope="col">TTFT p50</th><th scope="col">Tokens</th><th scope="col">Cost</th></tr></thead>
            <tbody>

            """
        for (index, column) in matrix.columns.enumerated() {
            let s = column.summary
            out += "<tr data-col=\"\(index)\"><th scope=\"row\"><span class=\"swatch c\(index % 6)\" aria-hidden=\"true\"></span>\(esc(column.label))</th>"
            out += "<td>\(s.cases)</td><td>\(percent(s.passRate)) <small>(\(percent(s.wilsonLow, digits: 0))–\(percent(s.wilsonHigh, digits: 0)))</small></td>"
            out += "<td>\(s.failed)</td><td>\(s.errors)</td><td>\(seconds(s.medianLatency))</td><td>\(seconds(s.p95Latency))</td>"
            out += "<td>\(seconds(s.medianTimeToFirstToken))</td><td>\(s.inputTokens + s.outputTokens)\(s.tokensEstimated ? " <small>(estimated)</small>" : "")</td>"
            out += "<td>\(s.cost.map { String(format: "$%.4f", $0) } ?? "–")</td></tr>\n"
        }
        out += "</tbody></table></div>\n"
        out += repeatsTable()
        let paired = matrix.pairedComparisons
        if !paired.isEmpty {
            out += "<h3>Paired comparison</h3>\n<ul class=\"paired\">\n" + paired.map { "<li>\(esc($0.summary))</li>\n" }.joined() + "</ul>\n"
        }
        for report in reports where report.totals.cachedReplies > 0 {
            out += "<p class=\"prices\">\(reports.count > 1 ? esc(report.run) + ": " : "")\(report.totals.cachedReplies) replies came from the response cache, not the provider.</p>\n"
        }
        return out + "</section>\n"
    }

    /// pass^N, pass@N and the flaky cases of every suite that ran more than once.
    private func repeatsTable() -> String {
        let repeated = reports.flatMap { report in report.suites.filter { $0.repeats > 1 && $0.cases > 0 }.map { (report.run, $0) } }
        guard !repeated.isEmpty else { return "" }
        let runColumn = reports.count > 1
        var out = "<h3>Repeats</h3>\n<div class=\"scroll\"><table class=\"summary repeats\">\n<thead><tr><th scope=\"col\">Suite</th>"
        out += (runColumn ? "<th scope=\"col\">Run</th>" : "") + "<th scope=\"col\">Repeats</th>"
        out += "<th scope=\"col\">pass^N (every repeat passed)</th><th scope=\"col\">pass@N (one passed)</th><th scope=\"col\">Flaky</th></tr></thead>\n<tbody>\n"
        for (run, suite) in repeated {
            out += "<tr><th scope=\"row\">\(esc(suite.suite))</th>" + (runColumn ? "<td>\(esc(run))</td>" : "") + "<td>\(suite.repeats)</td>"
            out += "<td>\(percent(suite.passAllRepeats))</td><td>\(percent(suite.passAnyRepeat))</td><td>"
            out += (suite.flaky.isEmpty ? "none" : suite.flaky.map { "<code>\(esc($0))</code>" }.joined(separator: ", ")) + "</td></tr>\n"
        }
        return out + "</tbody></table></div>\n"
    }

    private func chartsSection() -> String {
        """
        <section aria-labelledby="charts-title">
        <h2 id="charts-title">Charts</h2>
        <div class="charts">
        <figure>\(passRateChart())<figcaption>Pass rate per provider, with its 95% Wilson interval.</figcaption></figure>
        <figure>\(latencyChart())<figcaption>Latency per reply: the box spans the middle half, the line is the median, whiskers reach the fastest and the 95th percentile.</figcaption></figure>
        <figure class="wide">\(checkChart(matrix))<figcaption>Pass rate per check and provider; n/a where a provider's replies met no such check.</figcaption></figure>
        </div>
        </section>

        """
    }

    private func filtersSection() -> String {
        var checks = "<option value=\"\">All checks</option>"
        for check in matrix.checks { checks += "<option value=\"\(esc(check.check))\">\(esc(check.check))</option>" }
        var tags = "<option value=\"\">All tags</option>"
        for tag in Set(matrix.rows.flatMap(\.tags)).sorted() { tags += "<option value=\"\(esc(tag))\">\(esc(tag))</option>" }
        var providers = "<option value=\"\">All providers</option>"
        for (index, column) in matrix.columns.enumerated() { providers += "<option value=\"\(index)\">\(esc(column.label))</option>" }
        return """
            <section aria-labelledby="cases-title">
            <h2 id="cases-title">Cases</h2>
            <form class="filters" id="filters" role="search" aria-label="Filter cases" onsubmit="return false">
            <label><input type="checkbox" id="f-failing"> Failing only</label>
            <label>Check <select id="f-check">\(checks)</select></label>
            <label>Tag <select id="f-tag">\(tags)</select></label>
            <label>Provider <select id="f-provider">\(providers)</select></label>
            <label>Search <input type="search" id="f-text" placeholder="text in a case"></label>
            </form>
            <p id="shown" role="status" aria-live="polite">\(matrix.rows.count) of \(matrix.rows.count) cases shown</p>
            <div class="review-bar" role="group" aria-label="Review">
            <span id="review-count" role="status" aria-live="polite">No replies reviewed</span>
            <button type="button" id="review-export">Export labels</button>
            <button type="button" id="review-clear">Clear my marks</button>
            <small>Mark a reply, or any of its checks, pass or fail. Marks stay in this browser; the labels file goes to <code>coachlab review import</code>.</small>
            </div>

            """
    }

    private func casesHead() -> String {
        var out = "<div class=\"scroll\"><table class=\"cases\" id=\"cases\">\n<thead><tr><th scope=\"col\" aria-sort=\"ascending\"><button type=\"button\" data-sort=\"case\">Case</button></th><th scope=\"col\">Tags</th>"
        for (index, column) in matrix.columns.enumerated() {
            out += "<th scope=\"col\" data-col=\"\(index)\" aria-sort=\"none\"><button type=\"button\" data-sort=\"col-\(index)\">\(esc(column.label))</button></th>"
        }
        return out + "</tr></thead>\n"
    }

    private func caseBody(_ row: ComparisonMatrix.Row, prompts: inout PromptIndex) throws -> String {
        let id = "case-\(StableHash.hex(row.key))"
        let checks = Set(row.cells.values.flatMap { $0.turns.flatMap { $0.checks.map(\.check) } }).sorted()
        var attributes = "data-case=\"\(esc(row.key))\" data-tags=\"\(esc(json(row.tags)))\" data-checks=\"\(esc(json(checks)))\""
        for (index, _) in matrix.columns.enumerated() {
            guard let cell = row.cells[index] else { continue }
            let failed = Set(cell.failures.map(\.check.check)).sorted()
            attributes += " data-s\(index)=\"\(cell.outcome.rawValue)\" data-l\(index)=\"\(String(format: "%.4f", cell.turns.reduce(0) { $0 + $1.latency }))\""
            attributes += " data-f\(index)=\"\(esc(json(failed)))\""
        }
        var out = "<tbody class=\"case\" \(attributes)>\n<tr class=\"head\"><th scope=\"row\"><button type=\"button\" class=\"toggle\" aria-expanded=\"false\" aria-controls=\"\(id)\">\(esc(row.key))</button></th>"
        out += "<td>\(row.tags.map { "<span class=\"tag\">\(esc($0))</span>" }.joined(separator: " "))</td>"
        for index in matrix.columns.indices {
            guard let cell = row.cells[index] else {
                out += "<td data-col=\"\(index)\">–</td>"
                continue
            }
            let latency = cell.turns.reduce(0) { $0 + $1.latency }
            out += "<td data-col=\"\(index)\"><span class=\"badge \(cell.outcome.rawValue)\">\(cell.outcome.rawValue.uppercased())</span> "
            out += "<small>\(String(format: "%.2f s", latency))</small></td>"
        }
        out += "</tr>\n<tr class=\"detail\" id=\"\(id)\" hidden><td colspan=\"\(matrix.columns.count + 2)\">\n"
        out += try detail(row, prompts: &prompts)
        return out + "</td></tr>\n</tbody>\n"
    }

    /// Every turn of a case: the user's message, each provider's reply side by side (words
    /// that differ from the first provider's reply highlighted), checks, figures, and the prompt.
    private func detail(_ row: ComparisonMatrix.Row, prompts: inout PromptIndex) throws -> String {
        let columns = matrix.columns.indices.filter { row.cells[$0] != nil }
        var out = ""
        for column in columns {
            if let error = row.cells[column]?.error {
                out += "<p class=\"error\" data-col=\"\(column)\"><strong>\(esc(matrix.columns[column].label)) error:</strong> \(esc(error))</p>\n"
            }
        }
        let turns = Set(columns.flatMap { row.cells[$0]!.turns.map(\.turn) }).sorted()
        for number in turns {
            let cells = columns.compactMap { column in row.cells[column]!.turns.first { $0.turn == number }.map { (column, $0) } }
            guard let first = cells.first else { continue }
            out += "<section class=\"turn\"><h3>Turn \(number)</h3>\n<p class=\"user\"><strong>\(first.1.simulated ? "Simulated user" : "User"):</strong> <span class=\"said\">\(esc(first.1.user))</span></p>\n"
            if let flag = first.1.flaggedRule { out += "<p class=\"flag\">Guardrail flagged: <code>\(esc(flag))</code></p>\n" }
            out += "<div class=\"replies\">\n"
            let baseWords = Self.words(first.1.reply)
            let other = cells.count > 1 ? Self.words(cells[1].1.reply) : baseWords
            for (position, (column, turn)) in cells.enumerated() {
                let words = Self.words(turn.reply)
                let marked: String
                if cells.count == 1 {
                    marked = esc(turn.reply)
                } else if position == 0 {
                    marked = Self.highlight(words, common: UnifiedDiff.common(words, other).a, mark: "del")
                } else {
                    marked = Self.highlight(words, common: UnifiedDiff.common(baseWords, words).b, mark: "ins")
                }
                let cell = row.cells[column]!, run = matrix.columns[column].run
                let reviewKey = [run, row.suite, row.fixture, String(row.repeatIndex), cell.provider, String(number)].joined(separator: "\u{0}")
                out += "<article class=\"reply\" data-col=\"\(column)\" id=\"r-\(StableHash.hex(reviewKey))\" data-run=\"\(esc(run))\" data-suite=\"\(esc(row.suite))\""
                out += " data-fixture=\"\(esc(row.fixture))\" data-repeat=\"\(row.repeatIndex)\" data-provider=\"\(esc(cell.provider))\" data-model=\"\(esc(cell.model))\" data-pack=\"\(esc(cell.pack))\" data-turn=\"\(number)\"\(turn.user == first.1.user ? "" : " data-user=\"\(esc(turn.user))\"")><h4><span class=\"swatch c\(column % 6)\" aria-hidden=\"true\"></span>\(esc(matrix.columns[column].label))</h4>\n"
                out += "<p class=\"text\">\(marked)</p>\n<ul class=\"checks\">"
                for check in turn.checks {
                    out += "<li class=\"\(check.passed ? "pass" : "fail")\" data-check=\"\(esc(check.check))\"><span class=\"badge \(check.passed ? "pass" : "fail")\">\(check.passed ? "PASS" : "FAIL")</span> <code>\(esc(check.check))</code> <span class=\"why\">\(esc(check.reason))</span>"
                    out += "<span class=\"review-check\"><button type=\"button\" class=\"mark\" data-verdict=\"pass\" aria-pressed=\"false\" aria-label=\"Your review: \(esc(check.check)) passes\">✓</button>"
                    out += "<button type=\"button\" class=\"mark\" data-verdict=\"fail\" aria-pressed=\"false\" aria-label=\"Your review: \(esc(check.check)) fails\">✗</button></span></li>"
                }
                out += "</ul>\n<p class=\"meta\">\(String(format: "%.2f s", turn.latency))"
                if let ttft = turn.timeToFirstToken { out += String(format: " · first token %.2f s", ttft) }
                out += " · \(turn.inputTokens) in / \(turn.outputTokens) out\(turn.usageEstimated ? " (estimated)" : "")"
                if let cost = turn.cost { out += String(format: " · $%.5f", cost) }
                out += " · \(esc(turn.finishReason))</p>\n"
                out += "<div class=\"review\" role=\"group\" aria-label=\"Your review of this reply\"><span>Your review:</span> "
                out += "<button type=\"button\" class=\"mark\" data-verdict=\"pass\" aria-pressed=\"false\">Pass</button> "
                out += "<button type=\"button\" class=\"mark\" data-verdict=\"fail\" aria-pressed=\"false\">Fail</button> "
                out += "<label>Note <input type=\"text\" class=\"note\" aria-label=\"Your note on this reply\"></label></div>\n</article>\n"
            }
            out += "</div>\n"
            var shown = Set<String>()
            for (column, turn) in cells where !turn.promptHash.isEmpty && shown.insert(turn.promptHash).inserted {
                let run = matrix.columns[column].run
                let number = prompts.number(of: PromptIndex.Key(run: run, hash: turn.promptHash))
                let label = cells.count > 1 ? " (\(esc(matrix.columns[column].label)))" : ""
                out += "<p class=\"meta\"><a class=\"prompt-link\" href=\"#prompt-\(number)\">Compiled prompt\(label)</a> <code>\(esc(turn.promptHash))</code></p>\n"
            }
            out += "</section>\n"
        }
        return out
    }

    /// The compiled prompts the cases link to, numbered in order of first use: a run's
    /// cases share a few prompts, so each is written once however many replies answered it.
    struct PromptIndex {
        struct Key: Hashable {
            var run: String
            var hash: String
        }
        private(set) var keys: [Key] = []
        private var numbers: [Key: Int] = [:]

        mutating func number(of key: Key) -> Int {
            if let number = numbers[key] { return number }
            numbers[key] = keys.count
            keys.append(key)
            return keys.count - 1
        }
    }

    private func promptsHead(_ count: Int) -> String {
        """
        <section aria-labelledby="prompts-title">
        <h2 id="prompts-title">Compiled prompts</h2>
        <p class="meta">The \(count) distinct system prompt\(count == 1 ? "" : "s") the replies answered, each written once; a turn links to its own.</p>

        """
    }

    private func prompt(_ hash: String, run: String, number: Int) throws -> String {
        guard let prompt = try stores[run]?.compiledPrompt(hash) else {
            return "<p class=\"meta\" id=\"prompt-\(number)\">Compiled prompt <code>\(esc(hash))</code> was not kept with this run.</p>\n"
        }
        var out = "<details class=\"prompt\" id=\"prompt-\(number)\"><summary>Compiled prompt\(matrix.runs.count > 1 ? " of run " + esc(run) : "") · \(prompt.layers.count) layers · ~\(prompt.tokens) tokens · <code>\(esc(hash))</code></summary>\n<ol class=\"layers\">"
        for layer in prompt.layers {
            out += "<li><details><summary><strong>\(esc(layer.title ?? layer.id))</strong> · ~\(layer.tokens) tokens</summary>"
            out += "<p class=\"sources\">Sources: \(layer.sources.isEmpty ? "none" : layer.sources.map { "<code>\(esc($0))</code>" }.joined(separator: " "))</p>"
            out += "<pre>\(esc(layer.text))</pre></details></li>"
        }
        return out + "</ol></details>\n"
    }

    private func foot() -> String {
        "</main>\n<footer><p>Written by CoachLab. This file works offline: it loads nothing.</p></footer>\n<script>\(Self.script)</script>\n</body>\n</html>\n"
    }

    // MARK: - Charts (inline SVG)

    private func passRateChart() -> String {
        let rowHeight = 30, left = 150, width = 560, plot = width - left - 70
        let height = matrix.columns.count * rowHeight + 40
        var out = "<svg class=\"chart\" id=\"chart-pass\" viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" height=\"\(height)\" role=\"img\" aria-labelledby=\"chart-pass-title\"><title id=\"chart-pass-title\">Pass rate per provider</title>"
        out += axis(left: left, plot: plot, top: 8, bottom: height - 24, ticks: [0, 0.25, 0.5, 0.75, 1], format: { String(format: "%.0f%%", $0 * 100) }, scale: 1)
        for (index, column) in matrix.columns.enumerated() {
            let s = column.summary
            let y = 12 + index * rowHeight
            let x = { (value: Double) in Double(left) + value * Double(plot) }
            out += "<text x=\"\(left - 6)\" y=\"\(y + 14)\" text-anchor=\"end\">\(esc(truncate(column.label, 22)))</text>"
            out += "<rect class=\"c\(index % 6)\" x=\"\(left)\" y=\"\(y + 2)\" width=\(q(x(s.passRate) - Double(left))) height=\"16\"><title>\(esc(column.label)): \(percent(s.passRate))</title></rect>"
            out += "<line class=\"whisker\" x1=\(q(x(s.wilsonLow))) x2=\(q(x(s.wilsonHigh))) y1=\"\(y + 10)\" y2=\"\(y + 10)\"/>"
            out += "<text x=\(q(x(1) + 6)) y=\"\(y + 14)\">\(percent(s.passRate))</text>"
        }
        return out + "</svg>"
    }

    private func latencyChart() -> String {
        // The right margin holds half of the last tick's label, which is centred on its line.
        let rowHeight = 30, left = 150, width = 560, plot = width - left - 40
        let height = matrix.columns.count * rowHeight + 40
        let ticks = Self.ticks(upTo: matrix.columns.compactMap { $0.summary.latencies.last }.max() ?? 0)
        let top = ticks.last!
        var out = "<svg class=\"chart\" id=\"chart-latency\" viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" height=\"\(height)\" role=\"img\" aria-labelledby=\"chart-latency-title\"><title id=\"chart-latency-title\">Latency distribution per provider</title>"
        out += axis(left: left, plot: plot, top: 8, bottom: height - 24, ticks: ticks, format: { Self.latencyTick($0, top: top) }, scale: top)
        for (index, column) in matrix.columns.enumerated() {
            let values = column.summary.latencies
            let y = 12 + index * rowHeight
            out += "<text x=\"\(left - 6)\" y=\"\(y + 14)\" text-anchor=\"end\">\(esc(truncate(column.label, 22)))</text>"
            guard let low = values.first, let q1 = ComparisonMatrix.percentile(values, 0.25), let median = ComparisonMatrix.percentile(values, 0.5),
                  let q3 = ComparisonMatrix.percentile(values, 0.75), let p95 = ComparisonMatrix.percentile(values, 0.95) else { continue }
            let x = { (value: Double) in Double(left) + value / top * Double(plot) }
            out += "<line class=\"whisker\" x1=\(q(x(low))) x2=\(q(x(p95))) y1=\"\(y + 10)\" y2=\"\(y + 10)\"/>"
            out += "<rect class=\"c\(index % 6) box\" x=\(q(x(q1))) y=\"\(y + 2)\" width=\(q(max(x(q3) - x(q1), 1.5))) height=\"16\"><title>\(esc(column.label)): median \(String(format: "%.3f", median)) s, p95 \(String(format: "%.3f", p95)) s, \(values.count) replies</title></rect>"
            out += "<line class=\"median\" x1=\(q(x(median))) x2=\(q(x(median))) y1=\"\(y)\" y2=\"\(y + 20)\"/>"
        }
        return out + "</svg>"
    }

    /// Each check's pass rate per column, labelled, so 0% and "no such check" (n/a) differ.
    func checkChart(_ matrix: ComparisonMatrix) -> String {
        let columns = matrix.columns.count
        let bar = 10, gap = 10, left = 220, width = 640, plot = width - left - 60
        let group = columns * bar + gap
        let height = matrix.checks.count * group + 40
        var out = "<svg class=\"chart\" id=\"chart-checks\" viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" height=\"\(height)\" role=\"img\" aria-labelledby=\"chart-checks-title\"><title id=\"chart-checks-title\">Pass rate per check</title>"
        out += axis(left: left, plot: plot, top: 4, bottom: height - 24, ticks: [0, 0.5, 1], format: { String(format: "%.0f%%", $0 * 100) }, scale: 1)
        for (row, check) in matrix.checks.enumerated() {
            let y = 8 + row * group
            out += "<text x=\"\(left - 6)\" y=\"\(y + columns * bar / 2 + 4)\" text-anchor=\"end\">\(esc(truncate(check.check, 32)))</text>"
            for column in 0..<columns {
                let top = y + column * bar, label = matrix.columns[column].label
                guard let rate = check.rates[column], rate.total > 0 else {
                    out += "<text class=\"na\" x=\"\(left + 4)\" y=\"\(top + bar - 2)\">n/a<title>\(esc(check.check)) on \(esc(label)): no reply met this check</title></text>"
                    continue
                }
                let end = Double(left) + max(rate.rate * Double(plot), 0.5)
                out += "<rect class=\"c\(column % 6)\" x=\"\(left)\" y=\"\(top)\" width=\(q(end - Double(left))) height=\"\(bar - 1)\">"
                out += "<title>\(esc(check.check)) on \(esc(label)): \(rate.passed)/\(rate.total) passed</title></rect>"
                out += "<text class=\"value\" x=\(q(end + 4)) y=\"\(top + bar - 2)\">\(percent(rate.rate, digits: 0))</text>"
            }
        }
        return out + "</svg>"
    }

    /// Five or so round ticks from 0 to at least `maximum` (steps of 1, 2, 2.5 or 5 times a
    /// power of ten), so the axis reads "0 10 20 30 ms", not "0 6 12 19 25 ms".
    static func ticks(upTo maximum: Double) -> [Double] {
        let maximum = max(maximum, 0.001)
        let rough = maximum / 4, power = pow(10, (log10(rough)).rounded(.down))
        let step = [1, 2, 2.5, 5, 10].map { $0 * power }.first { $0 >= rough } ?? 10 * power
        let count = Int((maximum / step).rounded(.up))
        return (0...max(count, 1)).map { Double($0) * step }
    }

    /// A latency tick's label, in the unit the axis's top calls for: "2.5 ms", "250 ms", "1.5 s".
    static func latencyTick(_ seconds: Double, top: Double) -> String {
        if top < 0.01 { return String(format: "%g ms", (seconds * 10_000).rounded() / 10) }
        if top < 1 { return String(format: "%.0f ms", seconds * 1000) }
        return String(format: "%g s", (seconds * 100).rounded() / 100)
    }

    private func axis(left: Int, plot: Int, top: Int, bottom: Int, ticks: [Double], format: (Double) -> String, scale: Double) -> String {
        var out = "<g class=\"axis\">"
        for tick in ticks {
            let x = Double(left) + tick / scale * Double(plot)
            out += "<line x1=\(q(x)) x2=\(q(x)) y1=\"\(top)\" y2=\"\(bottom)\"/><text x=\(q(x)) y=\"\(bottom + 14)\" text-anchor=\"middle\">\(format(tick))</text>"
        }
        return out + "</g>"
    }

    // MARK: - Helpers

    /// Words and the spaces between them, so highlighting keeps the text as it was.
    static func words(_ text: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        var inSpace = false
        for character in text {
            let space = character.isWhitespace
            if !current.isEmpty, space != inSpace {
                tokens.append(current)
                current = ""
            }
            inSpace = space
            current.append(character)
        }
        if !current.isEmpty { tokens.append(current) }
        return tokens
    }

    static func highlight(_ tokens: [String], common: [Bool], mark: String) -> String {
        var out = ""
        var open = false
        for (token, same) in zip(tokens, common) {
            let changed = !same && !token.allSatisfy(\.isWhitespace)
            if changed, !open { out += "<\(mark)>"; open = true }
            if !changed, open, !token.allSatisfy(\.isWhitespace) { out += "</\(mark)>"; open = false }
            out += HTMLReport.escape(token)
        }
        if open { out += "</\(mark)>" }
        return out
    }

    static func escape(_ text: String) -> String { Markup.escape(text) }

    private func esc(_ text: String) -> String { Self.escape(text) }

    private func json(_ values: [String]) -> String { JSONValue.array(values.map(JSONValue.string)).text }

    private func percent(_ value: Double, digits: Int = 1) -> String { String(format: "%.\(digits)f%%", value * 100) }

    private func truncate(_ text: String, _ limit: Int) -> String { text.count > limit ? String(text.prefix(limit - 1)) + "…" : text }

    /// A quoted SVG coordinate with one decimal.
    private func q(_ value: Double) -> String { "\"" + String(format: "%.1f", value) + "\"" }

    // MARK: - Inline CSS and JavaScript

    /// The tag in the head of every CoachLab page, by which a report is told from any other
    /// file at its path.
    public static let generator = "<meta name=\"generator\" content=\"CoachLab\">"

    static let css = """
        :root{--fg:#1f2328;--muted:#59636e;--bg:#fff;--line:#d1d9e0;--pass:#1a7f37;--fail:#cf222e;--error:#8250df;--ins:#dafbe1;--del:#ffebe9}
        *{box-sizing:border-box}body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif,"Apple Color Emoji","Segoe UI Emoji","Noto Color Emoji";color:var(--fg);background:var(--bg);margin:0 auto;max-width:1200px;padding:0 16px 32px}
        .skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:4px 8px;z-index:2}
        h1{font-size:1.5rem;margin:16px 0 4px}h2{font-size:1.2rem;margin:24px 0 8px}h3{font-size:1rem;margin:8px 0}h4{font-size:.95rem;margin:0 0 4px}
        header p,.prices,.meta,small,figcaption{color:var(--muted)}.prices{font-size:.85rem}
        table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid var(--line);padding:6px 8px;text-align:left;vertical-align:top}
        .scroll{overflow-x:auto}.summary td{white-space:nowrap}
        .badge{display:inline-block;border-radius:4px;padding:0 6px;font-size:.75rem;font-weight:600;color:#fff}.badge.pass{background:var(--pass)}.badge.fail{background:var(--fail)}.badge.error{background:var(--error)}
        .swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:6px}
        .c0{fill:#0969da;background:#0969da}.c1{fill:#bc4c00;background:#bc4c00}.c2{fill:#1a7f37;background:#1a7f37}.c3{fill:#8250df;background:#8250df}.c4{fill:#bf3989;background:#bf3989}.c5{fill:#4d2d00;background:#4d2d00}
        .charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(480px,100%),1fr));gap:16px}.charts figure{margin:0}.charts .wide{grid-column:1/-1}
        .chart{max-width:100%;height:auto;font-size:12px}.chart text{fill:var(--fg)}.axis line{stroke:var(--line)}.axis text{fill:var(--muted)}.chart .value{font-size:10px;fill:var(--muted)}.chart .na{font-size:10px;font-style:italic;fill:var(--muted)}
        .whisker{stroke:var(--fg);stroke-width:1.5}.median{stroke:#fff;stroke-width:2.5}.box{opacity:.85}
        .filters{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center;margin:8px 0}.filters select,.filters input[type=search]{font:inherit;padding:4px;max-width:100%}
        th button{font:inherit;font-weight:600;background:none;border:0;padding:0;cursor:pointer;color:inherit;text-align:left}th[aria-sort=ascending] button::after{content:" ▲"}th[aria-sort=descending] button::after{content:" ▼"}
        .toggle::before{content:"▸ ";display:inline-block}.toggle[aria-expanded=true]::before{content:"▾ "}
        .tag{display:inline-block;background:#eef1f4;border-radius:10px;padding:0 8px;font-size:.8rem;margin:1px}
        .replies{display:grid;grid-template-columns:repeat(auto-fit,minmax(260px,1fr));gap:12px}.reply{border:1px solid var(--line);border-radius:6px;padding:8px}
        .text{white-space:pre-wrap}ins{background:var(--ins);text-decoration:none}del{background:var(--del);text-decoration:none}
        .checks{list-style:none;padding:0;margin:4px 0;font-size:.85rem}.checks li{margin:2px 0}.error{color:var(--error)}.flag{color:var(--fail)}
        .prompt{margin:8px 0}.prompt summary{cursor:pointer}.layers pre{white-space:pre-wrap;background:#f6f8fa;padding:8px;border-radius:4px;font-size:.8rem}.sources{font-size:.8rem}
        .review-bar{display:flex;flex-wrap:wrap;gap:6px 12px;align-items:center;margin:4px 0 8px}.review{display:flex;flex-wrap:wrap;gap:4px 8px;align-items:center;font-size:.85rem;border-top:1px dashed var(--line);padding-top:6px}
        .mark,.review-bar button{font:inherit;font-size:.8rem;border:1px solid var(--line);border-radius:4px;background:var(--bg);color:var(--fg);padding:1px 8px;cursor:pointer}.review-check .mark{padding:0 5px;margin-left:2px}
        .mark[data-verdict=pass][aria-pressed=true]{background:var(--pass);border-color:var(--pass);color:#fff}.mark[data-verdict=fail][aria-pressed=true]{background:var(--fail);border-color:var(--fail);color:#fff}
        .review .note{font:inherit;padding:2px 4px;min-width:12em}.reply.reviewed{border-color:#0969da}
        :focus-visible{outline:2px solid #0969da;outline-offset:2px}
        @media (max-width:700px){body{font-size:14px;padding:0 8px 24px}.cases td,.cases th{padding:4px}.replies{grid-template-columns:1fr}}
        @media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--line:#3d444d;--ins:#033a16;--del:#67060c}.layers pre{background:#151b23}.tag{background:#262c36}.median{stroke:#0d1117}}
        """

    static let script = """
        (function(){
        "use strict";
        var bodies=Array.prototype.slice.call(document.querySelectorAll("tbody.case"));
        var table=document.getElementById("cases");
        var f={failing:document.getElementById("f-failing"),check:document.getElementById("f-check"),tag:document.getElementById("f-tag"),provider:document.getElementById("f-provider"),text:document.getElementById("f-text")};
        var columns=document.querySelectorAll("thead th[data-col]").length;
        function list(tb,name){try{return JSON.parse(tb.getAttribute(name)||"[]")}catch(e){return []}}
        function apply(){
          var failing=f.failing.checked,check=f.check.value,tag=f.tag.value,provider=f.provider.value,text=f.text.value.trim().toLowerCase();
          var cols=[];for(var i=0;i<columns;i++){if(provider===""||provider===String(i))cols.push(i)}
          var shown=0;
          bodies.forEach(function(tb){
            var ok=cols.some(function(c){return tb.hasAttribute("data-s"+c)});
            if(ok&&failing)ok=cols.some(function(c){var s=tb.getAttribute("data-s"+c);return s==="fail"||s==="error"});
            if(ok&&check){ok=list(tb,"data-checks").indexOf(check)>=0;if(ok&&failing)ok=cols.some(function(c){return list(tb,"data-f"+c).indexOf(check)>=0})}
            if(ok&&tag)ok=list(tb,"data-tags").indexOf(tag)>=0;
            if(ok&&text)ok=tb.textContent.toLowerCase().indexOf(text)>=0;
            tb.hidden=!ok;if(ok)shown++;
          });
          document.querySelectorAll("[data-col]").forEach(function(el){el.hidden=provider!==""&&el.getAttribute("data-col")!==provider});
          document.getElementById("shown").textContent=shown+" of "+bodies.length+" cases shown";
          var state=[];if(failing)state.push("failing=1");if(check)state.push("check="+encodeURIComponent(check));if(tag)state.push("tag="+encodeURIComponent(tag));if(provider)state.push("provider="+provider);
          if(sortKey!=="case"||sortDir!=="asc")state.push("sort="+sortKey,"dir="+sortDir);
          if(history.replaceState)history.replaceState(null,"",state.length?"#"+state.join("&"):location.pathname);
        }
        var rank={error:0,fail:1,pass:2};var sortKey="case",sortDir="asc";
        function sort(key,dir){
          sortKey=key;sortDir=dir;
          var sorted=bodies.slice().sort(function(a,b){
            var r;
            if(key==="case"){r=a.getAttribute("data-case").localeCompare(b.getAttribute("data-case"))}
            else{var c=key.slice(4),sa=a.getAttribute("data-s"+c),sb=b.getAttribute("data-s"+c);
              r=(sa===null?3:rank[sa])-(sb===null?3:rank[sb]);
              if(r===0)r=parseFloat(b.getAttribute("data-l"+c)||"0")-parseFloat(a.getAttribute("data-l"+c)||"0");
              if(r===0)r=a.getAttribute("data-case").localeCompare(b.getAttribute("data-case"))}
            return dir==="asc"?r:-r});
          sorted.forEach(function(tb){table.appendChild(tb)});
          document.querySelectorAll("thead th").forEach(function(th){var b=th.querySelector("button[data-sort]");if(b)th.setAttribute("aria-sort",b.getAttribute("data-sort")===key?(dir==="asc"?"ascending":"descending"):"none")});
        }
        document.querySelectorAll("button[data-sort]").forEach(function(b){b.addEventListener("click",function(){var key=b.getAttribute("data-sort");sort(key,sortKey===key&&sortDir==="asc"?"desc":"asc");apply()})});
        bodies.forEach(function(tb){var t=tb.querySelector(".toggle");t.addEventListener("click",function(){var d=document.getElementById(t.getAttribute("aria-controls"));var open=t.getAttribute("aria-expanded")!=="true";t.setAttribute("aria-expanded",String(open));d.hidden=!open})});
        [f.failing,f.check,f.tag,f.provider].forEach(function(el){el.addEventListener("change",apply)});f.text.addEventListener("input",apply);
        var params={};location.hash.replace(/^#/,"").split("&").forEach(function(p){var kv=p.split("=");if(kv[0])params[kv[0]]=decodeURIComponent(kv[1]||"")});
        if(params.failing==="1")f.failing.checked=true;if(params.check)f.check.value=params.check;if(params.tag)f.tag.value=params.tag;if(params.provider)f.provider.value=params.provider;
        if(params.sort)sort(params.sort,params.dir==="desc"?"desc":"asc");
        apply();
        if(params.expand){bodies.filter(function(tb){return !tb.hidden}).slice(0,params.expand==="all"?bodies.length:1).forEach(function(tb){tb.querySelector(".toggle").click()})}
        document.querySelectorAll("a.prompt-link").forEach(function(a){a.addEventListener("click",function(){var d=document.getElementById(a.getAttribute("href").slice(1));if(d&&d.tagName==="DETAILS")d.open=true})});
        var storeKey="coachlab-review:"+document.body.getAttribute("data-report"),marks={};
        try{marks=JSON.parse(localStorage.getItem(storeKey)||"{}")||{}}catch(e){marks={}}
        var articles=Array.prototype.slice.call(document.querySelectorAll("article.reply[id]"));
        function entry(id){return marks[id]||(marks[id]={verdict:"",note:"",checks:{}})}
        function marked(m){return !!(m&&(m.verdict||Object.keys(m.checks||{}).length))}
        function count(){var n=0,labels=0;Object.keys(marks).forEach(function(id){var m=marks[id];if(m.verdict)labels++;labels+=Object.keys(m.checks||{}).length;if(marked(m))n++});
          document.getElementById("review-count").textContent=n?n+(n===1?" reply":" replies")+" reviewed, "+labels+(labels===1?" label":" labels"):"No replies reviewed";
          document.getElementById("review-export").disabled=labels===0}
        function save(id){var m=marks[id];if(m&&!marked(m)&&!m.note)delete marks[id];try{localStorage.setItem(storeKey,JSON.stringify(marks))}catch(e){}count()}
        function press(buttons,value){buttons.forEach(function(b){b.setAttribute("aria-pressed",String(value===b.getAttribute("data-verdict")))})}
        function show(a){var m=marks[a.id]||{checks:{}};press(a.querySelectorAll(".review .mark"),m.verdict);
          var note=a.querySelector(".review .note");if(note&&document.activeElement!==note)note.value=m.note||"";
          a.querySelectorAll("li[data-check]").forEach(function(li){press(li.querySelectorAll(".mark"),(m.checks||{})[li.getAttribute("data-check")]||"")});
          a.classList.toggle("reviewed",marked(m))}
        articles.forEach(function(a){
          a.addEventListener("click",function(ev){var b=ev.target.closest?ev.target.closest("button.mark"):null;if(!b)return;
            var m=entry(a.id),v=b.getAttribute("data-verdict"),li=b.closest("li[data-check]");
            if(li){var c=li.getAttribute("data-check");if(m.checks[c]===v)delete m.checks[c];else m.checks[c]=v}else{m.verdict=m.verdict===v?"":v}
            save(a.id);show(a)});
          var note=a.querySelector(".review .note");if(note)note.addEventListener("input",function(){entry(a.id).note=note.value;save(a.id);show(a)});
          show(a)});
        function transcript(a){var col=a.getAttribute("data-col"),turn=+a.getAttribute("data-turn"),out=[];
          a.parentNode.parentNode.parentNode.querySelectorAll("section.turn").forEach(function(s){var r=s.querySelector("article.reply[data-col='"+col+"']");
            if(!r||+r.getAttribute("data-turn")>turn)return;
            out.push({user:r.hasAttribute("data-user")?r.getAttribute("data-user"):s.querySelector(".user .said").textContent});out.push({coach:r.querySelector(".text").textContent})});
          return out}
        function labels(){var out=[];articles.forEach(function(a){var m=marks[a.id];if(!marked(m))return;
          function label(check,verdict){var l={run:a.getAttribute("data-run"),suite:a.getAttribute("data-suite"),"case":a.getAttribute("data-fixture"),repeat:+a.getAttribute("data-repeat"),
            provider:a.getAttribute("data-provider"),model:a.getAttribute("data-model"),pack:a.getAttribute("data-pack"),turn:+a.getAttribute("data-turn")};
            if(check){var li=Array.prototype.filter.call(a.querySelectorAll("li[data-check]"),function(e){return e.getAttribute("data-check")===check})[0];l.check=check;if(li){l.automated=li.classList.contains("pass")?"pass":"fail";l.reason=li.querySelector(".why").textContent}}
            else if(a.querySelector("li[data-check]")){l.automated=a.querySelector("li[data-check].fail")?"fail":"pass"}
            l.verdict=verdict;if(m.note)l.note=m.note;l.transcript=transcript(a);return l}
          if(m.verdict)out.push(label(null,m.verdict));
          Object.keys(m.checks||{}).sort().forEach(function(c){out.push(label(c,m.checks[c]))})});
          return out}
        document.getElementById("review-export").addEventListener("click",function(){
          var doc={format:"coachlab-review",version:1,report:document.title,runs:JSON.parse(document.body.getAttribute("data-runs")||"[]"),exported:new Date().toISOString(),labels:labels()};
          var link=document.createElement("a");link.href=URL.createObjectURL(new Blob([JSON.stringify(doc,null,2)+"\\n"],{type:"application/json"}));
          link.download="coachlab-labels.json";document.body.appendChild(link);link.click();setTimeout(function(){URL.revokeObjectURL(link.href);link.remove()},2000)});
        document.getElementById("review-clear").addEventListener("click",function(){if(!confirm("Clear every mark you made on this report?"))return;marks={};save("");articles.forEach(show)});
        count();
        document.body.setAttribute("data-ready","true");
        })();
        """
}
