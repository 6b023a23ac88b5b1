import Foundation
import Hummingbird
import NIOCore
import Testing

/// The GitHub REST endpoints the pull-request comment uses, kept in memory: list an issue's
/// comments, create one, edit one. Every request's headers and body are kept for inspection.
actor ImitationGitHub {
    struct Comment { var id: Int; var body: String; var user = ImitationGitHub.login }
    /// Whose the token is: the login every comment it posts carries.
    static let login = "coachlab-bot"
    private(set) var comments: [Comment] = []
    private(set) var requests: [String] = []
    private(set) var authorizations: [String] = []
    private var nextID = 1000

    func record(_ line: String, authorization: String?) {
        requests.append(line)
        authorizations.append(authorization ?? "")
    }

    func add(_ body: String, user: String = ImitationGitHub.login) -> Int {
        nextID += 1
        comments.append(Comment(id: nextID, body: body, user: user))
        return nextID
    }

    func edit(_ id: Int, _ body: String) -> Bool {
        guard let index = comments.firstIndex(where: { $0.id == id }) else { return false }
        comments[index].body = body
        return true
    }

    /// Serves until `body` returns; `body` gets the base URL.
    static func with(_ state: ImitationGitHub, _ body: @escaping @Sendable (String) async throws -> Void) async throws {
        let router = Router()
        @Sendable func json(_ status: HTTPResponse.Status, _ object: Any) -> Response {
            let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
            return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        @Sendable func text(_ request: Request) async throws -> String {
            String(decoding: Data(buffer: try await request.body.collect(upTo: 1 << 20)), as: UTF8.self)
        }
        router.get("/repos/:owner/:name/issues/:number/comments") { request, _ in
            await state.record("GET \(request.uri.path)", authorization: request.headers[.authorization])
            let all = await state.comments
            return json(.ok, all.map { ["id": $0.id, "body": $0.body, "user": ["login": $0.user], "html_url": "https://github.example/c/\($0.id)"] })
        }
        router.get("/user") { request, _ in
            await state.record("GET /user", authorization: request.headers[.authorization])
            return json(.ok, ["login": ImitationGitHub.login])
        }
        router.post("/repos/:owner/:name/issues/:number/comments") { request, _ in
            await state.record("POST \(request.uri.path)", authorization: request.headers[.authorization])
            let payload = try JSONSerialization.jsonObject(with: Data(try await text(request).utf8)) as? [String: Any]
            let id = await state.add(payload?["body"] as? String ?? "")
            return json(.created, ["id": id, "html_url": "https://github.example/c/\(id)"])
        }
        router.patch("/repos/:owner/:name/issues/comments/:id") { request, context in
            await state.record("PATCH \(request.uri.path)", authorization: request.headers[.authorization])
            let payload = try JSONSerialization.jsonObject(with: Data(try await text(request).utf8)) as? [String: Any]
            let id = Int(context.parameters.get("id") ?? "") ?? 0
            guard await state.edit(id, payload?["body"] as? String ?? "") else { return json(.notFound, ["message": "Not Found"]) }
            return json(.ok, ["id": id, "html_url": "https://github.example/c/\(id)"])
        }
        let ports = AsyncStream<Int>.makeStream()
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { channel in ports.continuation.yield(channel.localAddress?.port ?? 0) })
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.run() }
            var iterator = ports.stream.makeAsyncIterator()
            guard let port = await iterator.next() else { throw CancellationError() }
            try await body("http://127.0.0.1:\(port)")
            group.cancelAll()
        }
    }
}

/// The Action's comment step against the imitation API: one comment, updated in place, and
/// the token nowhere in what CoachLab prints.
@Suite(.serialized) struct GitHubActionTests {
    static let token = "ghs_imitationTOKEN0123456789abcdefXYZ"

    @Test func theCommentIsPostedOnceThenUpdatedInPlaceAndTheTokenNeverShows() async throws {
        let directory = try CLI.temporaryDirectory()
        let store = directory + "/s.sqlite"
        #expect(try await CLI.run(["eval", "evals/luna.yaml", "--store", store, "--write-baseline", directory + "/baseline.json"]).status == 0)
        try "--- prompts/luna/three-am.txt\n+++ compiled\n-It is late.\n+It is very late.\n".write(toFile: directory + "/diff.txt", atomically: true, encoding: .utf8)
        let event = directory + "/event.json"
        try #"{"pull_request": {"number": 42}}"#.write(toFile: event, atomically: true, encoding: .utf8)
        let state = ImitationGitHub()
        try await ImitationGitHub.with(state) { api in
            let environment = ["GITHUB_TOKEN": Self.token, "GITHUB_API_URL": api, "GITHUB_REPOSITORY": "coachlab/app", "GITHUB_EVENT_PATH": event]
            let arguments = ["pr-comment", "--store", store, "--baseline", directory + "/baseline.json", "--prompt-diff", directory + "/diff.txt",
                             "--artifact-url", "https://github.example/artifacts/7"]
            let first = try await CLI.run(arguments, environment: environment)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stderr.contains("commented on coachlab/app#42 (comment 1001)"))
            // A later push tightens a check: luna cases now fail, and the same comment says so.
            let strict = try String(contentsOfFile: CLI.root + "/evals/luna.yaml", encoding: .utf8)
                .replacingOccurrences(of: "{check: sentences, max: 4}", with: "{check: sentences, max: 1}")
            try strict.write(toFile: directory + "/luna.yaml", atomically: true, encoding: .utf8)
            #expect(try await CLI.run(["eval", directory + "/luna.yaml", "--store", store]).status == 1)
            let second = try await CLI.run(arguments, environment: environment)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.stderr.contains("updated the comment on coachlab/app#42 (comment 1001)"))
            for output in [first.stdout, first.stderr, second.stdout, second.stderr] { #expect(!output.contains(Self.token)) }
        }
        let comments = await state.comments
        #expect(comments.count == 1)
        let body = try #require(comments.first?.body)
        #expect(body.hasPrefix("<!-- coachlab-eval -->"))
        #expect(body.contains("| luna |") && body.contains("❌ **regression** `luna/"))
        #expect(body.contains("<details><summary>Compiled prompts changed (1 prompt, 2 lines)</summary>"), "\(body)")
        #expect(body.contains("[The HTML report](https://github.example/artifacts/7)"))
        #expect(!body.contains(Self.token))
        #expect(await state.requests == ["GET /user", "GET /repos/coachlab/app/issues/42/comments", "POST /repos/coachlab/app/issues/42/comments",
                                         "GET /user", "GET /repos/coachlab/app/issues/42/comments", "PATCH /repos/coachlab/app/issues/comments/1001"])
        #expect(await state.authorizations.allSatisfy { $0 == "Bearer \(Self.token)" })
    }

    /// Each missing setting's message is tested in GitHubCommentsTests; this is one through
    /// the binary (exit 2), and an API that cannot be reached.
    @Test func missingSettingsAreClearErrorsNotCrashes() async throws {
        let directory = try CLI.temporaryDirectory()
        let store = directory + "/s.sqlite"
        #expect(try await CLI.run(["eval", "evals/luna.yaml", "--store", store]).status == 0)
        let noToken = try await CLI.run(["pr-comment", "--store", store, "--repo", "a/b", "--pr", "1"], environment: ["GITHUB_TOKEN": ""])
        #expect(noToken.status == 2 && noToken.stderr.contains("GITHUB_TOKEN is not set"))
        let refused = try await CLI.run(["pr-comment", "--store", store, "--repo", "a/b", "--pr", "1", "--api-url", "http://127.0.0.1:1"],
                                  environment: ["GITHUB_TOKEN": Self.token])
        #expect(refused.status != 0 && !refused.stderr.contains(Self.token), "\(refused.stderr)")
    }

    @Test func theActionRunsTheSameCommandsItsDocsPromise() async throws {
        let action = try String(contentsOfFile: CLI.root + "/action.yml", encoding: .utf8)
        #expect(action.contains("using: composite"))
        for command in ["lint", "compile --check", "eval ${{ inputs.suites }}", "pr-comment --baseline"] {
            #expect(action.contains("\"$COACHLAB_BIN\" \(command)"), "action.yml runs \(command)")
        }
        // Every coachlab subcommand the action calls exists.
        for subcommand in ["lint", "compile", "eval", "pr-comment"] {
            #expect(try await CLI.run([subcommand, "--help"]).status == 0)
        }
    }
}
