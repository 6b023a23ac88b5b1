import CoachLab
import Foundation

/// Reads the two bodies every case over HTTP reads, many times, with `JSONValue.parse` and
/// with `JSONDecoder` (what `parse` used before): a Chat Completions request carrying
/// BetterOne's compiled prompt (what serve-mock reads), and a reply (what a provider reads).
enum JSONBench {
    static func run(iterations: Int) throws {
        let message = "I want to get back into running but I keep skipping mornings."
        let prompt = try ScoreBench.betterOne(message).prompt
        let request: JSONValue = ["model": "coachlab-mock-1", "temperature": 0.7, "max_tokens": 512, "stream": false,
                                  "messages": [["role": "system", "content": .string(prompt.system)], ["role": "user", "content": .string(message)]]]
        let reply: JSONValue = [
            "id": "chatcmpl-8f1c2a", "object": "chat.completion", "created": 1_795_830_000, "model": "coachlab-mock-1",
            "system_fingerprint": "fp_mock",
            "choices": [["index": 0, "finish_reason": "stop", "logprobs": .null,
                         "message": ["role": "assistant", "content": "That sounds frustrating. What usually gets in the way on the mornings you skip?"]]],
            "usage": ["prompt_tokens": 1_180, "completion_tokens": 21, "total_tokens": 1_201],
        ]
        print("| body | bytes | JSONValue.parse | JSONDecoder | ratio |")
        print("|---|---|---|---|---|")
        for (name, value) in [("Chat Completions request, BetterOne's prompt", request), ("Chat Completions reply", reply)] {
            let data = value.data
            var read: [Double] = [], decoded: [Double] = []
            for _ in 0..<5 {
                read.append(try seconds { for _ in 0..<iterations { _ = try JSONValue.parse(data) } } / Double(iterations))
                decoded.append(try seconds { for _ in 0..<iterations { _ = try JSONDecoder().decode(JSONValue.self, from: data) } } / Double(iterations))
            }
            let (fast, slow) = (median(read), median(decoded))
            print(String(format: "| %@ | %d | %.1f µs | %.1f µs | %.1f× |", name, data.count, fast * 1e6, slow * 1e6, slow / fast))
        }
    }
}
