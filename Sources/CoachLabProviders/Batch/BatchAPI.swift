import CoachLab
import Foundation

/// A provider's batch API: the same chat requests, submitted together, answered within hours
/// at about half the price. Each request carries a `custom_id` by which its result comes back.
/// Three protocols, one shape: submit the requests, poll the batch, read its results.
///
/// - OpenAI: upload a JSONL file to `/files` (purpose `batch`), create `/batches` on it, poll
///   `/batches/{id}`, then read `/files/{output_file_id}/content` and the error file.
/// - Anthropic: `POST /v1/messages/batches` with the requests, poll it, then read `results_url`.
/// - Gemini: `POST /v1beta/models/{model}:batchGenerateContent` with inline requests, poll the
///   operation `batches/{id}`, and read its inlined responses.
public enum BatchAPI: Sendable {
    case openai, anthropic, gemini

    /// The protocol of a provider kind, when it has a batch API.
    public init?(kind: ProviderKind) {
        switch kind {
        case .openai: self = .openai
        case .anthropic: self = .anthropic
        case .gemini: self = .gemini
        default: return nil
        }
    }

    /// Where a batch stands.
    public enum Status: Sendable, Equatable {
        /// Still working: how many of its requests are done.
        case running(done: Int, total: Int)
        /// Finished (completed, expired or cancelled): its results can be read. Requests with
        /// no result are reported as errors.
        case ended(state: String)
        /// The batch as a whole failed; nothing can be read.
        case failed(String)
    }

    /// One request's outcome: the chat response body as the synchronous API would give it, or
    /// an error.
    public typealias Outcome = Result<Data, ProviderError>

    // MARK: - Submitting

    /// The requests to send for `items` (custom id, the synchronous request), in order; the
    /// last one's answer names the batch.
    func submission(_ items: [(id: String, spec: HTTPRequestSpec)], baseURL: String) -> [HTTPRequestSpec] {
        guard let first = items.first else { return [] }
        let headers = Self.authHeaders(first.spec)
        switch self {
        case .openai:
            let endpoint = URLComponents(string: first.spec.url)?.path ?? "/v1/chat/completions"
            let lines = items.map { item -> String in
                let body = (try? JSONValue.parse(item.spec.body)) ?? .null
                return JSONValue.object(["custom_id": .string(item.id), "method": "POST", "url": .string(endpoint), "body": body]).text
            }
            let boundary = "coachlab-" + StableHash.hex(items.map(\.id).joined())
            var form = "--\(boundary)\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\nbatch\r\n"
            form += "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"coachlab-batch.jsonl\"\r\n"
            form += "Content-Type: application/jsonl\r\n\r\n" + lines.joined(separator: "\n") + "\n\r\n--\(boundary)--\r\n"
            return [HTTPRequestSpec(url: Wire.joinPath(baseURL, "/files"),
                                    headers: headers + [HTTPHeader("Content-Type", "multipart/form-data; boundary=\(boundary)")], body: Data(form.utf8))]
        case .anthropic:
            let requests = items.map { item -> JSONValue in
                ["custom_id": .string(item.id), "params": (try? JSONValue.parse(item.spec.body)) ?? .null]
            }
            return [HTTPRequestSpec(url: Wire.joinPath(baseURL, "/v1/messages/batches"), headers: headers + [HTTPHeader("Content-Type", "application/json")],
                                    body: JSONValue.object(["requests": .array(requests)]).data)]
        case .gemini:
            let url = first.spec.url.replacingOccurrences(of: ":generateContent", with: ":batchGenerateContent")
            let requests = items.map { item -> JSONValue in
                ["request": (try? JSONValue.parse(item.spec.body)) ?? .null, "metadata": ["key": .string(item.id)]]
            }
            let batch: JSONValue = ["batch": ["display_name": "coachlab", "input_config": ["requests": ["requests": .array(requests)]]]]
            return [HTTPRequestSpec(url: url, headers: headers + [HTTPHeader("Content-Type", "application/json")], body: batch.data)]
        }
    }

    /// OpenAI's second step: the batch over the uploaded file.
    func createBatch(file: String, endpoint: String, baseURL: String, headers: [HTTPHeader]) -> HTTPRequestSpec {
        HTTPRequestSpec(url: Wire.joinPath(baseURL, "/batches"), headers: headers + [HTTPHeader("Content-Type", "application/json")],
                        body: JSONValue.object(["input_file_id": .string(file), "endpoint": .string(endpoint), "completion_window": "24h"]).data)
    }

    /// The batch's id from the answer to its submission.
    func batchId(_ body: Data, provider: String) throws -> String {
        let value = try Wire.parse(body, provider: provider)
        guard let id = (self == .gemini ? value["name"] : value["id"])?.string, !id.isEmpty else {
            throw ProviderError(.malformedResponse, provider: provider, message: "the batch API's answer names no batch")
        }
        return id
    }

    // MARK: - Polling

    func poll(_ batch: String, baseURL: String, headers: [HTTPHeader]) -> HTTPRequestSpec {
        let path: String
        switch self {
        case .openai: path = "/batches/\(batch)"
        case .anthropic: path = "/v1/messages/batches/\(batch)"
        case .gemini: path = "/v1beta/\(batch)"
        }
        return HTTPRequestSpec(method: "GET", url: Wire.joinPath(baseURL, path), headers: headers, body: Data())
    }

    func status(_ body: Data, provider: String) throws -> Status {
        let value = try Wire.parse(body, provider: provider)
        switch self {
        case .openai:
            let state = value["status"]?.string ?? ""
            let counts = value["request_counts"]
            let total = counts?["total"]?.number.map(Int.init) ?? 0
            let done = (counts?["completed"]?.number).map(Int.init).map { $0 + (counts?["failed"]?.number.map(Int.init) ?? 0) } ?? 0
            switch state {
            case "completed", "expired", "cancelled": return .ended(state: state)
            case "failed":
                let message = value["errors"]?["data"]?[0]?["message"]?.string ?? "the batch failed"
                return .failed(message)
            default: return .running(done: done, total: total)
            }
        case .anthropic:
            let counts = value["request_counts"]
            func count(_ key: String) -> Int { counts?[key]?.number.map(Int.init) ?? 0 }
            let done = count("succeeded") + count("errored") + count("canceled") + count("expired")
            return value["processing_status"]?.string == "ended" ? .ended(state: "ended") : .running(done: done, total: done + count("processing"))
        case .gemini:
            let state = value["metadata"]?["state"]?.string ?? value["state"]?.string ?? ""
            let stats = value["metadata"]?["batchStats"]
            let total = stats?["requestCount"]?.string.flatMap(Int.init) ?? 0
            let done = (stats?["successfulRequestCount"]?.string.flatMap(Int.init) ?? 0) + (stats?["failedRequestCount"]?.string.flatMap(Int.init) ?? 0)
            if state == "BATCH_STATE_FAILED" { return .failed(value["error"]?["message"]?.string ?? "the batch failed") }
            return value["done"]?.bool == true ? .ended(state: state) : .running(done: done, total: total)
        }
    }

    // MARK: - Results

    /// The requests that read an ended batch's results, given the last poll's answer.
    func resultRequests(_ polled: Data, batch: String, baseURL: String, headers: [HTTPHeader]) throws -> [HTTPRequestSpec] {
        let value = (try? JSONValue.parse(polled)) ?? .null
        switch self {
        case .openai:
            return ["output_file_id", "error_file_id"].compactMap { value[$0]?.string }.filter { !$0.isEmpty }.map {
                HTTPRequestSpec(method: "GET", url: Wire.joinPath(baseURL, "/files/\($0)/content"), headers: headers, body: Data())
            }
        case .anthropic:
            let url = value["results_url"]?.string ?? Wire.joinPath(baseURL, "/v1/messages/batches/\(batch)/results")
            return [HTTPRequestSpec(method: "GET", url: url, headers: headers, body: Data())]
        case .gemini:
            return []  // the inlined responses are in the polled operation itself
        }
    }

    /// Each request's outcome in a result file (or, for Gemini, the polled operation).
    func outcomes(_ body: Data, provider: String) -> [String: Outcome] {
        var outcomes: [String: Outcome] = [:]
        func error(_ message: String, code: ProviderError.Code = .server) -> Outcome { .failure(ProviderError(code, provider: provider, message: message)) }
        switch self {
        case .openai, .anthropic:
            for line in String(decoding: body, as: UTF8.self).split(separator: "\n") {
                guard let value = try? JSONValue.parse(Data(line.utf8)), let id = value["custom_id"]?.string else { continue }
                if self == .openai {
                    let status = value["response"]?["status_code"]?.number.map(Int.init) ?? 0
                    if let body = value["response"]?["body"], (200..<300).contains(status) {
                        outcomes[id] = .success(body.data)
                    } else {
                        let message = value["error"]?["message"]?.string ?? value["response"]?["body"]?["error"]?["message"]?.string ?? "no result"
                        let code = value["error"]?["code"]?.string
                        outcomes[id] = error("batch request failed: \(message)", code: code == "batch_expired" ? .timeout : Wire.code(forStatus: status == 0 ? 500 : status))
                    }
                } else {
                    let result = value["result"]
                    switch result?["type"]?.string {
                    case "succeeded": outcomes[id] = result?["message"].map { .success($0.data) } ?? error("a succeeded result has no message")
                    case "errored": outcomes[id] = error("batch request failed: " + (result?["error"]?["error"]?["message"]?.string ?? result?["error"]?["message"]?.string ?? "errored"))
                    case let type: outcomes[id] = error("the batch ended with this request \(type ?? "unanswered")", code: .timeout)
                    }
                }
            }
        case .gemini:
            let value = (try? JSONValue.parse(body)) ?? .null
            let output = value["response"] ?? value["metadata"]?["output"]
            let responses = output?["inlinedResponses"]?["inlinedResponses"]?.array ?? []
            for item in responses {
                guard let id = item["metadata"]?["key"]?.string else { continue }
                if let response = item["response"] {
                    outcomes[id] = .success(response.data)
                } else {
                    outcomes[id] = error("batch request failed: " + (item["error"]?["message"]?.string ?? "no response"))
                }
            }
        }
        return outcomes
    }

    /// The headers that authenticate a request (its key and version), without its body's.
    static func authHeaders(_ spec: HTTPRequestSpec) -> [HTTPHeader] {
        spec.headers.filter { !["content-type", "content-length", "accept"].contains($0.name.lowercased()) }
    }
}
