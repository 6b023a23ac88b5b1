import CoachLab
import CoachLabProviders
import Foundation

/// Writes a simulated user's next message: the mock plays the fixture's script (so suites
/// stay reproducible); any other provider plays the part from the user's own prompt.
enum SimulatedUserPlayer {
    /// The next message, and whether the user says their goal is reached.
    /// - Parameters:
    ///   - step: How many simulated messages came before, from 0.
    ///   - history: The conversation so far, from the coach's side.
    static func next(_ user: SimulatedUser, step: Int, history: [ChatMessage], slot: ProviderSlot,
                     bypassCache: Bool) async throws -> (text: String, goalReached: Bool) {
        if step == 0, let opening = user.opening { return (opening, false) }
        guard slot.configuration.kind != .mock else { return user.scriptedMessage(turn: step) }
        let reply = try await slot.run {
            try await EvalRunner.uncached(bypassCache) { try await slot.provider.complete(request(user, history: history)) }
        }
        var text = reply.text.trimmingCharacters(in: .whitespacesAndNewlines)
        let done = text.contains(SimulatedUser.doneMarker)
        text = text.replacingOccurrences(of: SimulatedUser.doneMarker, with: "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty || done else {
            throw ProviderError(.malformedResponse, provider: slot.configuration.id, message: "the simulated user's message was empty")
        }
        return (text.isEmpty ? "Thank you." : text, done)
    }

    /// The simulated user's request: its own prompt, never the coach's, and the conversation
    /// with the roles turned round (the coach's replies are what the user reads).
    static func request(_ user: SimulatedUser, history: [ChatMessage]) -> ChatRequest {
        var messages = history.map { message in
            ChatMessage(message.role == .user ? .assistant : .user, message.content)
        }
        if messages.first?.role != .user {
            messages.insert(ChatMessage(.user, "(You open the coaching app. Write your first message to the coach.)"), at: 0)
        }
        return ChatRequest(system: user.prompt, messages: messages, settings: GenerationSettings(model: "", temperature: 0.7))
    }
}
