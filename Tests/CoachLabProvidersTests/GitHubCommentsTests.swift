import CoachLab
@testable import CoachLabProviders
import Foundation
import Testing

/// `coachlab pr-comment`'s GitHub side, with a scripted transport instead of a server.
@Suite struct GitHubCommentsTests {
    static let token = "ghs_scriptedTOKEN0123456789abcdef"

    /// Answers each request with the next scripted status and body, and keeps what was sent.
    final class ScriptedGitHub: HTTPTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var answers: [(Int, String)]
        private(set) var sent: [HTTPRequestSpec] = []

        init(_ answers: [(Int, String)]) { self.answers = answers }

        var requests: [String] { lock.withLock { sent.map { "\($0.method) \($0.url)" } } }

        func send(_ request: HTTPRequestSpec, timeout: Double, provider: String) async throws -> HTTPResponse {
            let (status, body) = lock.withLock { () -> (Int, String) in
                sent.append(request)
                return answers.isEmpty ? (500, "{}") : answers.removeFirst()
            }
            return HTTPResponse(status: status, headers: [HTTPHeader("content-type", "application/json")],
                                body: CassetteTransport.stream(Array(body.utf8)))
        }
    }

    static func system(_ variables: [String: String], files: [String: String] = [:], transport: any HTTPTransport = ScriptedGitHub([])) -> SystemEnvironment {
        var system = SystemEnvironment.tests
        system.variables = variables
        system.fileSystem = .inMemory(files)
        system.transport = transport
        return system
    }

    @Test func theTargetComesFromTheFlagsElseWhatGitHubActionsSets() throws {
        let actions = Self.system(["GITHUB_REPOSITORY": "coachlab/app", "GITHUB_EVENT_PATH": "event.json", "GITHUB_TOKEN": Self.token,
                                   "GITHUB_API_URL": "https://github.example/api/v3/"],
                                  files: ["event.json": #"{"pull_request": {"number": 42}}"#])
        let (comments, number) = try GitHubComments.target(repository: nil, pullRequest: nil, tokenVariable: "GITHUB_TOKEN", apiURL: nil, system: actions)
        #expect(comments.repository == "coachlab/app" && number == 42 && comments.apiURL == "https://github.example/api/v3")
        let flags = try GitHubComments.target(repository: "a/b", pullRequest: 7, tokenVariable: "GITHUB_TOKEN", apiURL: "http://127.0.0.1:9",
                                              system: actions)
        #expect(flags.comments.repository == "a/b" && flags.pullRequest == 7 && flags.comments.apiURL == "http://127.0.0.1:9")
        let plain = try GitHubComments.target(repository: "a/b", pullRequest: 1, tokenVariable: "MY_TOKEN", apiURL: nil,
                                              system: Self.system(["MY_TOKEN": "t"]))
        #expect(plain.comments.apiURL == "https://api.github.com")
    }

    @Test(arguments: [
        ([:], "a/b", 1, "the environment variable GITHUB_TOKEN is not set"),
        (["GITHUB_TOKEN": ""], "a/b", 1, "the environment variable GITHUB_TOKEN is not set"),
        (["GITHUB_TOKEN": "t"], "a/b", nil, "no pull request: give --pr N"),
        (["GITHUB_TOKEN": "t", "GITHUB_EVENT_PATH": "push.json"], "a/b", nil, "no pull request: give --pr N"),
        (["GITHUB_TOKEN": "t", "GITHUB_EVENT_PATH": "missing.json"], "a/b", nil, "no pull request: give --pr N"),
        (["GITHUB_TOKEN": "t"], nil, 1, "name the repository with --repo owner/name"),
        (["GITHUB_TOKEN": "t", "GITHUB_REPOSITORY": "no-slash"], nil, 1, "name the repository with --repo owner/name"),
    ] as [([String: String], String?, Int?, String)])
    func aMissingSettingIsAUsageErrorThatSaysWhere(_ variables: [String: String], repository: String?, pullRequest: Int?, message: String) {
        let system = Self.system(variables, files: ["push.json": #"{"ref": "refs/heads/main"}"#])
        do {
            _ = try GitHubComments.target(repository: repository, pullRequest: pullRequest, tokenVariable: "GITHUB_TOKEN", apiURL: nil, system: system)
            Issue.record("no error for \(variables)")
        } catch let error as CoachLabError {
            #expect(error.description.contains(message), "\(error)")
        } catch {
            Issue.record("\(error)")
        }
    }

    /// The first comment is created; later ones update it in place, found by its marker on any
    /// page; the token goes only in the Authorization header.
    @Test func theCommentIsCreatedOnceThenUpdatedInPlace() async throws {
        let others = "[" + (1...100).map { #"{"id": \#($0), "body": "looks good", "user": {"login": "ana"}}"# }.joined(separator: ",") + "]"
        let github = ScriptedGitHub([
            (200, #"{"login": "coachlab-bot"}"#), (200, "[]"), (201, #"{"id": 1001, "html_url": "https://github.example/c/1001"}"#),
            (200, others), (200, #"[{"id": 1001, "body": "<!-- coachlab-eval -->\nold", "user": {"login": "coachlab-bot"}}]"#), (200, #"{"id": 1001}"#),
        ])
        var comments = GitHubComments(apiURL: "https://api.example", repository: "coachlab/app", token: Self.token, transport: github)
        #expect(try await comments.upsert(pullRequest: 42, body: "<!-- coachlab-eval -->\nfirst", marker: "<!-- coachlab-eval -->")
                == .created(id: 1001, url: "https://github.example/c/1001"))
        comments.author = "coachlab-bot"
        #expect(try await comments.upsert(pullRequest: 42, body: "<!-- coachlab-eval -->\nsecond", marker: "<!-- coachlab-eval -->")
                == .updated(id: 1001, url: nil))
        let base = "https://api.example/repos/coachlab/app/issues"
        #expect(github.requests == ["GET https://api.example/user", "GET \(base)/42/comments?per_page=100&page=1", "POST \(base)/42/comments",
                                    "GET \(base)/42/comments?per_page=100&page=1", "GET \(base)/42/comments?per_page=100&page=2",
                                    "PATCH \(base)/comments/1001"])
        for request in github.sent {
            #expect(request.headers.contains { $0.name == "Authorization" && $0.value == "Bearer \(Self.token)" })
            #expect(!request.url.contains(Self.token) && !String(decoding: request.body, as: UTF8.self).contains(Self.token))
        }
        #expect(String(decoding: github.sent[5].body, as: UTF8.self) == #"{"body":"<!-- coachlab-eval -->\nsecond"}"#)
    }

    /// Finding 5 of the secrets issue: the first comment holding the marker was edited, whoever
    /// wrote it, and its author could then change the results.
    @Test func aCommentSomeoneElseWroteIsNeverTakenOver() async throws {
        let page = #"""
            [{"id": 1, "body": "<!-- coachlab-eval -->\nquoted by a reviewer", "user": {"login": "mallory"}},
             {"id": 2, "body": "see <!-- coachlab-eval --> above", "user": {"login": "github-actions[bot]"}},
             {"id": 3, "body": "<!-- coachlab-eval -->\nold results", "user": {"login": "github-actions[bot]"}}]
            """#
        // In GitHub Actions the token cannot read /user; the run's own bot is the author.
        let github = ScriptedGitHub([(403, #"{"message": "Resource not accessible by integration"}"#), (200, page), (200, #"{"id": 3}"#)])
        let system = Self.system(["GITHUB_TOKEN": Self.token, "GITHUB_ACTIONS": "true"], transport: github)
        let (comments, _) = try GitHubComments.target(repository: "a/b", pullRequest: 5, tokenVariable: "GITHUB_TOKEN", apiURL: "https://api.example",
                                                      system: system)
        #expect(try await comments.upsert(pullRequest: 5, body: "<!-- coachlab-eval -->\nnew", marker: "<!-- coachlab-eval -->") == .updated(id: 3, url: nil))
        #expect(github.requests.last == "PATCH https://api.example/repos/a/b/issues/comments/3")
        // Outside GitHub Actions a token GitHub will not name is an error that says what to pass.
        let unknown = ScriptedGitHub([(403, #"{"message": "Resource not accessible by integration"}"#)])
        let elsewhere = try GitHubComments.target(repository: "a/b", pullRequest: 5, tokenVariable: "GITHUB_TOKEN", apiURL: "https://api.example",
                                                  system: Self.system(["GITHUB_TOKEN": Self.token], transport: unknown)).comments
        await #expect(throws: ProviderError.self) { try await elsewhere.upsert(pullRequest: 5, body: "x", marker: "<!-- coachlab-eval -->") }
        do { _ = try await elsewhere.upsert(pullRequest: 5, body: "x", marker: "m") } catch let error as ProviderError {
            #expect(error.message.contains("pass --author"), "\(error.message)")
        }
    }

    /// A refusal says what the token needs, and never holds the token, even when GitHub's
    /// message repeats it.
    @Test func aRefusalNamesThePermissionAndNeverTheToken() async throws {
        let github = ScriptedGitHub([(403, #"{"message": "Resource not accessible by integration \#(Self.token)"}"#)])
        var comments = GitHubComments(apiURL: "https://api.example", repository: "a/b", token: Self.token, transport: github)
        comments.author = "coachlab-bot"
        do {
            _ = try await comments.upsert(pullRequest: 1, body: "x", marker: "m")
            Issue.record("a 403 was taken for a comment")
        } catch let error as ProviderError {
            #expect(error.message.contains("HTTP 403") && error.message.contains("'pull-requests: write'"), "\(error.message)")
            #expect(!"\(error)".contains(Self.token))
        }
    }
}
