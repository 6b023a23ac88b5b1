import CoachLab
import Foundation
import Hummingbird
import Logging
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

    /// The imitation's log: nothing below critical, so stopping it (its task cancelled) logs no error.
    static let logger: Logger = {
        var logger = Logger(label: "imitation-github")
        logger.logLevel = .critical
        return logger
    }()

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
                              onServerRunning: { channel in ports.continuation.yield(channel.localAddress?.port ?? 0) },
                              logger: Self.logger)
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
        for command in ["lint", "compile --check", "eval ${{ inputs.suites }}", "pr-comment \"${gate[@]}\""] {
            #expect(action.contains("\"$COACHLAB_BIN\" \(command)"), "action.yml runs \(command)")
        }
        // Every coachlab subcommand the action calls exists.
        for subcommand in ["lint", "compile", "eval", "pr-comment"] {
            #expect(try await CLI.run([subcommand, "--help"]).status == 0)
        }
    }

    /// action.yml's own steps, run as the runner runs them (bash, its variables, a step summary
    /// file, step outputs) against a project `coachlab init` made outside this repository, with
    /// an imitation GitHub API: a fresh project has no baseline and no compiled prompts, and the
    /// action runs it, says how to add both, writes the summary, the JUnit file and one comment.
    @Test func theActionsStepsRunOnAFreshInitProjectOutsideTheRepository() async throws {
        let project = try CLI.temporaryDirectory()
        let made = try await CLI.spawn(["init", "--app", "stride"], in: project, variables: ProcessInfo.processInfo.environment)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(!FileManager.default.fileExists(atPath: project + "/Package.swift"))
        let action = try YAMLDocument.parse(try String(contentsOfFile: CLI.root + "/action.yml", encoding: .utf8), file: "action.yml")
        let steps = try #require(action["runs"]?["steps"]?.items)
        let inputs = Dictionary(uniqueKeysWithValues: (action["inputs"]?.entries ?? []).map { ($0.key, $0.value["default"]?.text ?? "") })
            .merging(["coachlab": CLI.binary, "github-token": Self.token]) { $1 }
        let summary = project + "/summary.md", output = project + "/output.txt", env = project + "/env.txt"
        let event = project + "/event.json"
        try #"{"pull_request": {"number": 7}}"#.write(toFile: event, atomically: true, encoding: .utf8)
        let state = ImitationGitHub()
        let logFile = project + "/action.log"
        try await ImitationGitHub.with(state) { api in
            var log = ""
            var outputs: [String: [String: String]] = [:]
            var exported: [String: String] = [:]
            func expand(_ text: String) -> String {
                var result = text
                for match in text.matches(of: /\$\{\{\s*([^}]+?)\s*\}\}/) {
                    let expression = String(match.1)
                    let value: String
                    if expression.hasPrefix("inputs.") {
                        value = inputs[String(expression.dropFirst(7))] ?? ""
                    } else if expression.hasPrefix("steps."), case let parts = expression.split(separator: "."), parts.count == 4 {
                        value = outputs[String(parts[1])]?[String(parts[3])] ?? ""
                    } else {
                        value = ["github.event_name": "pull_request", "github.action_path": CLI.root, "runner.os": "Linux"][expression] ?? ""
                    }
                    result = result.replacingOccurrences(of: String(match.0), with: value)
                }
                return result
            }
            /// `if:` as the action writes it: terms joined by &&, each always(), X == 'v' or X != 'v'.
            func holds(_ condition: String?) -> Bool {
                guard let condition else { return true }
                return condition.components(separatedBy: "&&").allSatisfy { term in
                    let term = term.trimmingCharacters(in: .whitespaces)
                    if term == "always()" { return true }
                    for (op, equal) in [("!=", false), ("==", true)] {
                        let sides = term.components(separatedBy: op)
                        guard sides.count == 2 else { continue }
                        let left = expand("${{ " + sides[0].trimmingCharacters(in: .whitespaces) + " }}")
                        let right = sides[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "'"))
                        return (left == right) == equal
                    }
                    return false
                }
            }
            for step in steps {
                guard holds(step["if"]?.text), let script = step["run"]?.text else { continue }
                try "".write(toFile: output, atomically: true, encoding: .utf8)
                try "".write(toFile: env, atomically: true, encoding: .utf8)
                var variables = ProcessInfo.processInfo.environment.merging(exported) { $1 }
                variables.merge(["GITHUB_STEP_SUMMARY": summary, "GITHUB_OUTPUT": output, "GITHUB_ENV": env, "GITHUB_ACTION_PATH": CLI.root,
                                 "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": event, "GITHUB_REPOSITORY": "team/app",
                                 "GITHUB_API_URL": api, "COACHLAB_CACHE": project + "/.coachlab/cache"]) { $1 }
                for (key, value) in step["env"]?.entries?.map({ ($0.key, expand($0.value.text ?? "")) }) ?? [] { variables[key] = value }
                let result = try await CLI.spawn(["-eo", "pipefail", "-c", expand(script)], in: project, variables: variables, executable: "/bin/bash")
                log += "== \(step["name"]?.text ?? "")\n\(result.stdout)\(result.stderr)"
                if let id = step["id"]?.text {
                    for line in try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n") {
                        let pair = line.split(separator: "=", maxSplits: 1).map(String.init)
                        if pair.count == 2 { outputs[id, default: [:]][pair[0]] = pair[1] }
                    }
                }
                for line in try String(contentsOfFile: env, encoding: .utf8).split(separator: "\n") {
                    let pair = line.split(separator: "=", maxSplits: 1).map(String.init)
                    if pair.count == 2 { exported[pair[0]] = pair[1] }
                }
                #expect(result.status == 0, "step \(step["name"]?.text ?? ""): \(result.stdout)\(result.stderr)")
            }
            #expect(outputs["eval"]?["code"] == "0", "\(log)")
            #expect(outputs["prompts"]?["code"] == "0", "\(log)")
            try log.write(toFile: logFile, atomically: true, encoding: .utf8)
        }
        let log = try String(contentsOfFile: logFile, encoding: .utf8)
        #expect(log.contains("No baseline at evals/baseline.json") && log.contains("coachlab eval --write-baseline evals/baseline.json"), "\(log)")
        #expect(log.contains("No compiled prompts in prompts/, so the drift check is skipped"), "\(log)")
        #expect(try String(contentsOfFile: summary, encoding: .utf8).contains("stride"))
        #expect(FileManager.default.fileExists(atPath: project + "/.coachlab/junit.xml"))
        let comments = await state.comments
        #expect(comments.count == 1 && comments[0].body.contains("stride"), "\(comments.map(\.body))")
        #expect(!log.contains(Self.token))
    }
}
