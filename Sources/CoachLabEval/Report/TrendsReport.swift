import CoachLab
import Foundation

/// `coachlab report trends --html`: one self-contained page (no script, no fetch) with a chart
/// per suite of each provider's pass rate and its 95% interval over the runs, then the cost
/// and p95 latency of each run, and every figure in a table.
public struct TrendsReport {
    public var trends: Trends
    public var title: String

    public init(_ trends: Trends, title: String = "CoachLab trends") {
        self.trends = trends
        self.title = title
    }

    public func render() -> String {
        var out = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            \(HTMLReport.generator)
            <title>\(Markup.escape(title))</title>
            <style>\(Self.css)</style>
            </head><body>
            <h1>\(Markup.escape(title))</h1>

            """
        let bySuite = Dictionary(grouping: trends.series, by: \.suite)
        if bySuite.isEmpty { out += "<p>No runs in the store yet; <code>coachlab eval</code> makes one.</p>\n" }
        for suite in bySuite.keys.sorted() {
            let series = bySuite[suite]!
            let id = "trend-" + String(suite.map { $0.isLetter || $0.isNumber ? $0 : "-" })
            out += "<section aria-labelledby=\"\(id)-title\"><h2 id=\"\(id)-title\">\(Markup.escape(suite))</h2>\n"
            out += "<figure>\(chart(series, id: id))<figcaption>Pass rate per run, each provider a line, with its 95% Wilson interval shaded.</figcaption></figure>\n"
            out += table(series)
            out += "</section>\n"
        }
        return out + "</body></html>\n"
    }

    /// Pass rate with its interval over the runs, one line per provider.
    func chart(_ series: [(suite: String, provider: String, points: [Trends.Point])], id: String) -> String {
        let runs = Array(Set(series.flatMap { $0.points.map { "\($0.startedAt)\u{0}\($0.run)" } })).sorted()
        let (width, height, left, top, plot) = (640.0, 220.0, 44.0, 12.0, 180.0)
        let step = runs.count > 1 ? (width - left - 16) / Double(runs.count - 1) : 0
        func x(_ run: String, _ started: String) -> Double {
            let index = runs.firstIndex(of: "\(started)\u{0}\(run)") ?? 0
            return runs.count > 1 ? left + Double(index) * step : left + (width - left) / 2
        }
        func y(_ rate: Double) -> Double { top + (1 - rate) * plot }
        func f(_ value: Double) -> String { String(format: "%.1f", value) }
        var svg = "<svg class=\"chart\" id=\"\(id)\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"Pass rate over runs\">"
        for tick in [0.0, 0.5, 1.0] {
            svg += "<line class=\"grid\" x1=\"\(f(left))\" x2=\"\(f(width - 8))\" y1=\"\(f(y(tick)))\" y2=\"\(f(y(tick)))\"/>"
            svg += "<text x=\"4\" y=\"\(f(y(tick) + 4))\">\(Int(tick * 100))%</text>"
        }
        for (index, line) in series.enumerated() {
            let scored = line.points.filter { $0.passRate.total > 0 }
            guard !scored.isEmpty else { continue }
            let upper = scored.map { "\(f(x($0.run, $0.startedAt))),\(f(y($0.passRate.wilson.high)))" }
            let lower = scored.reversed().map { "\(f(x($0.run, $0.startedAt))),\(f(y($0.passRate.wilson.low)))" }
            svg += "<polygon class=\"band c\(index % 6)\" points=\"\((upper + lower).joined(separator: " "))\"/>"
            svg += "<polyline class=\"line c\(index % 6)\" points=\"\(scored.map { "\(f(x($0.run, $0.startedAt))),\(f(y($0.passRate.rate)))" }.joined(separator: " "))\"/>"
            for point in scored {
                svg += "<circle class=\"c\(index % 6)\" cx=\"\(f(x(point.run, point.startedAt)))\" cy=\"\(f(y(point.passRate.rate)))\" r=\"3\">"
                svg += "<title>\(Markup.escape(line.provider)) · \(Markup.escape(point.run)): \(String(format: "%.1f%%", point.passRate.rate * 100))</title></circle>"
            }
            svg += "<text class=\"legend\" style=\"fill:\(Self.palette[index % 6])\" x=\"\(f(left + 4 + Double(index) * 150))\" y=\"\(f(height - 8))\">■ \(Markup.escape(line.provider))</text>"
        }
        return svg + "</svg>"
    }

    func table(_ series: [(suite: String, provider: String, points: [Trends.Point])]) -> String {
        var out = "<table><thead><tr><th scope=\"col\">Provider</th><th scope=\"col\">Run</th><th scope=\"col\">Started</th><th scope=\"col\">Cases</th>"
        out += "<th scope=\"col\">Pass rate (95% CI)</th><th scope=\"col\">Errors</th><th scope=\"col\">Cost</th><th scope=\"col\">Latency p95</th></tr></thead><tbody>\n"
        for line in series {
            for point in line.points {
                let rate = point.passRate
                out += "<tr><td>\(Markup.escape(line.provider))</td><td><code>\(Markup.escape(point.run))</code></td><td>\(Markup.escape(String(point.startedAt.prefix(16))))</td>"
                out += "<td>\(point.cases)</td><td>" + (rate.total == 0 ? "–" : String(format: "%.1f%% (%.0f–%.0f%%)", rate.rate * 100, rate.wilson.low * 100, rate.wilson.high * 100))
                out += "</td><td>\(point.errors)</td><td>\(point.cost.map { String(format: "$%.4f", $0) } ?? "–")</td>"
                out += "<td>\(point.p95Latency.map { String(format: "%.2f s", $0) } ?? "–")</td></tr>\n"
            }
        }
        return out + "</tbody></table>\n"
    }

    static let palette = ["#0969da", "#bf3989", "#1a7f37", "#9a6700", "#8250df", "#cf222e"]

    static let css = """
        body{font:14px/1.45 system-ui,sans-serif;margin:16px auto;max-width:960px;padding:0 12px;color:#1f2328}
        h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:28px}
        .chart{width:100%;max-width:640px;height:auto;display:block}.chart text{font-size:11px;fill:#57606a}
        .grid{stroke:#d0d7de;stroke-width:1}.line{fill:none;stroke-width:2}.band{opacity:.15;stroke:none}
        .c0{stroke:#0969da;fill:#0969da}.c1{stroke:#bf3989;fill:#bf3989}.c2{stroke:#1a7f37;fill:#1a7f37}
        .c3{stroke:#9a6700;fill:#9a6700}.c4{stroke:#8250df;fill:#8250df}.c5{stroke:#cf222e;fill:#cf222e}
        .line.c0,.line.c1,.line.c2,.line.c3,.line.c4,.line.c5{fill:none}.legend{stroke:none}
        table{border-collapse:collapse;margin:8px 0;font-size:.9rem}th,td{border-bottom:1px solid #d0d7de;padding:4px 8px;text-align:left}
        figure{margin:8px 0}figcaption{font-size:.85rem;color:#57606a}
        """
}
