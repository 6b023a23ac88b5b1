import ArgumentParser
import CoachLab
import CoachLabEval
import CoachLabProviders
import Foundation

/// `coachlab pr-comment`: one comment on the pull request, updated in place on later pushes.
struct PRCommentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pr-comment",
        abstract: "Post a run's results on a GitHub pull request, updating CoachLab's earlier comment in place.",
        usage: "coachlab pr-comment [--baseline <baseline>] [options]",
        discussion: """
        The comment has each suite's pass rate, the regressions and fixes against a baseline, the \
        compiled prompts that changed (from a compile --check diff, collapsed) and a link to the \
        HTML report. It opens with a hidden marker, so a later push edits the same comment instead of \
        adding another; only a comment the token's own login wrote is edited, never one someone else \
        wrote that quotes the marker. A run that did not finish says so, model text renders inert \
        (no mentions, links or HTML), and the body always fits GitHub's limit: long lists end with \
        how many lines they left out. In GitHub Actions the repository, the pull request and the API \
        address come from the environment; the token is read from $GITHUB_TOKEN (or --token-env) and \
        never printed.

        Examples:
          coachlab pr-comment --baseline evals/baseline.json \\
            --prompt-diff prompt-diff.txt
          coachlab pr-comment --run 20261121-101500-abc --dry-run
        """
    )

    @Option(help: "The stored run. Default: the newest.")
    var run: String?
    @Option(help: "The result store. Default: $COACHLAB_STORE, or .coachlab/coachlab.sqlite.")
    var store: String?
    @Option(help: "The base branch's baseline, for regressions and fixes.")
    var baseline: String?
    @Option(help: "A file with compile --check's diff of the compiled prompts.")
    var promptDiff: String?
    @Option(help: "Where the HTML report can be downloaded (the upload-artifact step's URL).")
    var artifactURL: String?
    @Option(help: "owner/name. Default: $GITHUB_REPOSITORY.")
    var repo: String?
    @Option(help: "The pull request number. Default: the one in $GITHUB_EVENT_PATH.")
    var pr: Int?
    @Option(help: "The environment variable holding the token.")
    var tokenEnv = "GITHUB_TOKEN"
    @Option(help: "The REST API. Default: $GITHUB_API_URL, or https://api.github.com.")
    var apiURL: String?
    @Option(help: "The login that posts the comment; only its own comment is ever edited. Default: GitHub's answer for the token, or github-actions[bot] in GitHub Actions.")
    var author: String?
    @Flag(help: "Print the comment instead of posting it.")
    var dryRun = false

    func run() async throws {
        let path = Terminal.storePath(store)
        guard FileSystem.invocation.exists(path) else {
            throw CoachLabError(usage: "no result store at \(path)", hint: "run coachlab eval first")
        }
        let results = try ResultStore(readingFrom: path, on: .invocation)
        guard let id = try run ?? results.runs().first?.id else {
            throw CoachLabError(usage: "the store at \(path) has no runs", hint: "coachlab runs lists the stored runs")
        }
        let report = try RunReport(stored: id, in: results, fileSystem: .invocation)
        let body = try ReportFormats.pullRequestComment.text(PullRequestComment.Content(
            report: report, baseline: try baseline.map { try Baseline.read($0, fileSystem: .invocation) },
            promptDiff: try promptDiff.map { try FileSystem.invocation.text(at: $0) }, artifactURL: artifactURL))
        guard !dryRun else { return Terminal.out(body, terminator: "") }
        let (client, number) = try GitHubComments.target(repository: repo, pullRequest: pr, tokenVariable: tokenEnv, apiURL: apiURL,
                                                                author: author, system: Invocation.current.system)
        let repository = client.repository
        switch try await client.upsert(pullRequest: number, body: body, marker: PullRequestComment.marker) {
        case .created(let id, let url): Terminal.error("commented on \(repository)#\(number) (comment \(id))" + (url.map { ": \($0)" } ?? ""))
        case .updated(let id, let url): Terminal.error("updated the comment on \(repository)#\(number) (comment \(id))" + (url.map { ": \($0)" } ?? ""))
        }
    }
}
