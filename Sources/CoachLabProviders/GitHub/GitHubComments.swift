import CoachLab
import Foundation

/// Creates or updates one marked comment on a GitHub pull request through the REST API
/// (`GET /repos/{repo}/issues/{pr}/comments`, then `PATCH /repos/{repo}/issues/comments/{id}`
/// or `POST /repos/{repo}/issues/{pr}/comments`). The token travels only in the
/// `Authorization` header and is redacted from every error.
public struct GitHubComments: Sendable {
    public var apiURL: String
    public var repository: String
    /// The login whose comments are CoachLab's: only a comment it wrote is ever edited. Nil:
    /// asked of GitHub (`GET /user`) before the first edit.
    public var author: String?
    /// The login to take when GitHub will not say who the token is: `github-actions[bot]` for
    /// the `GITHUB_TOKEN` of a GitHub Actions run, whose installation token cannot read `/user`.
    public var fallbackAuthor: String?
    private let token: String
    private let transport: any HTTPTransport
    private let redactor: SecretRedactor

    /// - Parameters:
    ///   - apiURL: `https://api.github.com`, or `$GITHUB_API_URL` (GitHub Enterprise, tests).
    ///   - repository: `owner/name`.
    ///   - transport: How requests are sent (``SystemEnvironment/transport``).
    public init(apiURL: String, repository: String, token: String, transport: any HTTPTransport) {
        self.apiURL = apiURL.hasSuffix("/") ? String(apiURL.dropLast()) : apiURL
        self.repository = repository
        self.token = token
        self.transport = transport
        redactor = SecretRedactor(secrets: [token])
    }

    /// Where a comment goes, from the flags given, else what GitHub Actions sets: the
    /// repository from `$GITHUB_REPOSITORY`, the pull request from the event file at
    /// `$GITHUB_EVENT_PATH`, the API from `$GITHUB_API_URL`, and the token from
    /// `tokenVariable`. Variables and the event file are read through `system`.
    /// - Throws: ``CoachLabError`` (usage) naming what is missing and where to set it.
    public static func target(repository: String?, pullRequest: Int?, tokenVariable: String, apiURL: String?, author: String? = nil,
                              system: SystemEnvironment) throws -> (comments: GitHubComments, pullRequest: Int) {
        let variables = system.variables
        guard let repository = repository ?? variables["GITHUB_REPOSITORY"], repository.split(separator: "/").count == 2 else {
            throw CoachLabError(usage: "name the repository with --repo owner/name", hint: "GitHub Actions sets $GITHUB_REPOSITORY")
        }
        guard let number = pullRequest ?? pullRequestNumber(variables["GITHUB_EVENT_PATH"], fileSystem: system.fileSystem) else {
            throw CoachLabError(usage: "no pull request: give --pr N", hint: "in GitHub Actions, run this step on pull_request events")
        }
        guard let token = variables[tokenVariable], !token.isEmpty else {
            throw CoachLabError(usage: "the environment variable \(tokenVariable) is not set",
                                hint: "in GitHub Actions: env: {GITHUB_TOKEN: ${{ github.token }}}, with permissions: pull-requests: write")
        }
        var comments = GitHubComments(apiURL: apiURL ?? variables["GITHUB_API_URL"] ?? "https://api.github.com",
                                      repository: repository, token: token, transport: system.transport)
        comments.author = author
        if variables["GITHUB_ACTIONS"] == "true" && tokenVariable == "GITHUB_TOKEN" { comments.fallbackAuthor = "github-actions[bot]" }
        return (comments, number)
    }

    /// `pull_request.number` from the event file GitHub Actions writes; nil when there is no
    /// file, or it holds no pull request (a push event).
    static func pullRequestNumber(_ eventPath: String?, fileSystem: FileSystem) -> Int? {
        guard let eventPath, !eventPath.isEmpty, let data = try? fileSystem.read(eventPath),
              case .number(let number)? = (try? JSONValue.parse(data))?["pull_request"]?["number"] else { return nil }
        return Int(exactly: number)
    }

    /// What happened to the comment.
    public enum Outcome: Sendable, Hashable {
        case created(id: Int, url: String?)
        case updated(id: Int, url: String?)
    }

    /// Updates CoachLab's comment on pull request `number`, or creates one. CoachLab's comment
    /// is one that ``author`` wrote and that opens with `marker`: a comment anyone else wrote is
    /// never edited, even when it quotes the marker.
    public func upsert(pullRequest number: Int, body: String, marker: String) async throws -> Outcome {
        let author = try await resolvedAuthor()
        var page = 1
        while page <= 50 {
            let comments = try await send("GET", "/repos/\(repository)/issues/\(number)/comments?per_page=100&page=\(page)")
            guard case .array(let items) = comments else { throw failure("the comment list was not a JSON array") }
            let ours = items.first {
                $0["user"]?["login"]?.string?.lowercased() == author.lowercased() && $0["body"]?.string?.hasPrefix(marker) == true
            }
            if let ours, case .number(let id)? = ours["id"] {
                let updated = try await send("PATCH", "/repos/\(repository)/issues/comments/\(Int(id))", body: body)
                return .updated(id: Int(id), url: updated["html_url"]?.string)
            }
            guard items.count == 100 else { break }
            page += 1
        }
        let created = try await send("POST", "/repos/\(repository)/issues/\(number)/comments", body: body)
        guard case .number(let id)? = created["id"] else { throw failure("GitHub created the comment but gave no id") }
        return .created(id: Int(id), url: created["html_url"]?.string)
    }

    /// Who the token is: ``author`` when set, else GitHub's answer to `GET /user`, else (where
    /// GitHub will not say, as for a GitHub Actions token) ``fallbackAuthor``.
    func resolvedAuthor() async throws -> String {
        if let author { return author }
        do {
            if let login = try await send("GET", "/user")["login"]?.string { return login }
        } catch let error as ProviderError {
            // An installation token cannot read /user; the run says whose it is.
            guard let fallbackAuthor else {
                throw failure("GitHub did not say whose token this is (\(error.message)); pass --author with the login that posts the comment")
            }
            return fallbackAuthor
        }
        if let fallbackAuthor { return fallbackAuthor }
        throw failure("GitHub did not say whose token this is (GET /user); pass --author with the login that posts the comment")
    }

    private func send(_ method: String, _ path: String, body: String? = nil) async throws -> JSONValue {
        let payload = try body.map { try JSONEncoder().encode(["body": $0]) } ?? Data()
        let spec = HTTPRequestSpec(method: method, url: apiURL + path, headers: [
            HTTPHeader("Authorization", "Bearer \(token)"),
            HTTPHeader("Accept", "application/vnd.github+json"),
            HTTPHeader("X-GitHub-Api-Version", "2022-11-28"),
            HTTPHeader("User-Agent", "coachlab"),
            HTTPHeader("Content-Type", "application/json"),
        ], body: payload)
        let response: HTTPResponse
        do { response = try await transport.send(spec, timeout: 30, provider: "github") } catch let error as ProviderError {
            throw failure("\(method) \(path) failed: \(error.message)")
        }
        let data = try await HTTPProvider.collect(response.body, provider: "github", limit: 8 * 1024 * 1024)
        guard (200..<300).contains(response.status) else {
            let message = (try? JSONValue.parse(data))?["message"]?.string ?? String(decoding: data.prefix(200), as: UTF8.self)
            let hint = response.status == 403 || response.status == 404
                ? " (the token needs 'pull-requests: write' or 'issues: write' permission on \(repository))" : ""
            throw failure("\(method) \(path) answered HTTP \(response.status): \(message)\(hint)")
        }
        do { return try JSONValue.parse(data) } catch { throw failure("\(method) \(path) did not answer JSON") }
    }

    private func failure(_ message: String) -> ProviderError {
        ProviderError(.invalidRequest, provider: "github", message: redactor.redact(message))
    }
}
