import CoachLab
import Foundation
import Mustache

/// The wire of an app's own endpoint (``HTTPTarget``): the body its template renders, headers
/// with their variables filled in, and the reply where its pointers say.
public struct HTTPTargetWire: WireFormat {
    let target: HTTPTarget
    let headers: [HTTPHeader]
    let template: MustacheTemplate?

    /// - Parameter variables: The values of the environment variables the headers name.
    /// - Throws: ``ProviderError`` (`configuration`) for a body template that does not parse.
    public init(target: HTTPTarget, variables: [String: String], provider: String) throws {
        self.target = target
        headers = target.resolvedHeaders(variables)
        do { template = try target.body.map { try HTTPTargetTemplate.parse($0, sendsJSON: target.sendsJSON) } } catch {
            throw ProviderError(.configuration, provider: provider, message: "the body template does not parse: \(error)")
        }
    }

    public var streams: Bool { target.stream != nil }

    public func request(_ request: ChatRequest, model: String, stream: Bool, baseURL: String, apiKey: String?) -> HTTPRequestSpec {
        let stream = stream && streams
        let body = template.map { Data($0.render(HTTPTargetTemplate.data(request, model: model, stream: stream)).utf8) } ?? Data()
        var headers = self.headers
        let named = Set(headers.map { $0.name.lowercased() })
        if template != nil, !named.contains("content-type") { headers.append(HTTPHeader("content-type", target.contentType)) }
        if stream, !named.contains("accept") { headers.append(HTTPHeader("accept", "text/event-stream")) }
        return HTTPRequestSpec(method: target.method, url: target.url, headers: headers, body: body)
    }

    public func decodeReply(_ body: Data, provider: String) throws -> DecodedReply {
        let json = try Wire.parse(body, provider: provider)
        guard let value = target.reply.resolve(in: json) else {
            throw ProviderError(.malformedResponse, provider: provider,
                                message: "the response has nothing at \(target.reply) (reply): \(String(decoding: body.prefix(200), as: UTF8.self))")
        }
        guard let text = value.string else {
            throw ProviderError(.malformedResponse, provider: provider, message: "the response's \(target.reply) (reply) is \(value.text.prefix(80)), not text")
        }
        return DecodedReply(text: text, inputTokens: target.inputTokens?.resolve(in: json)?.int,
                            outputTokens: target.outputTokens?.resolve(in: json)?.int, rawFinishReason: nil, finishReason: .stop, model: nil)
    }

    public func streamDecoder(provider: String) -> any StreamDecoder {
        Decoder(provider: provider, stream: target.stream ?? HTTPTarget.Stream(text: target.reply))
    }

    public func error(status: Int, headers: [HTTPHeader], body: Data, provider: String, now: Date) -> ProviderError {
        let json = try? JSONValue.parse(body)
        let pointed = target.error.flatMap { json.flatMap($0.resolve(in:)) }
        let message = pointed?.string ?? pointed?.text ?? json?["error"]?["message"]?.string ?? json?["error"]?.string
            ?? json?["message"]?.string ?? String(decoding: body.prefix(300), as: UTF8.self)
        let kind = Wire.looksLikeContextOverflow(message) ? .contextLength : Wire.code(forStatus: status)
        let advice = Wire.RetryAdvice(headers: headers, now: now)
        return ProviderError(kind, provider: provider, status: status, message: message.isEmpty ? "HTTP \(status)" : message,
                             retryAfter: advice.after, shouldRetry: advice.should)
    }

    struct Decoder: StreamDecoder {
        let provider: String
        let stream: HTTPTarget.Stream
        var tally = StreamTally()
        var isDone = false
        var endsOnClose: Bool { stream.done == nil }

        mutating func consume(_ event: SSEEvent) throws -> [String] {
            if let done = stream.done, event.data == done {
                isDone = true
                return []
            }
            guard !event.data.isEmpty else { return [] }
            let json = try Wire.parse(Data(event.data.utf8), provider: provider)
            if let pointer = stream.error, let error = pointer.resolve(in: json), error != .null {
                throw ProviderError(.streamInterrupted, provider: provider, message: error.string ?? error.text)
            }
            tally.inputTokens = stream.inputTokens?.resolve(in: json)?.int ?? tally.inputTokens
            tally.outputTokens = stream.outputTokens?.resolve(in: json)?.int ?? tally.outputTokens
            return tally.append(stream.text.resolve(in: json)?.string)
        }

        var summary: DecodedReply { tally.summary { _ in .stop } }
    }
}
