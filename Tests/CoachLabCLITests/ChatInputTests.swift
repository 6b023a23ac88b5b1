@testable import coachlab
import Foundation
import Testing

/// `chat` handles its slash commands itself, and no key's escape code reaches the coach or a
/// saved fixture.
@Suite struct ChatInputTests {
    @Test func escapeCodesNeverReachTheCoachAndCommandsAreHandledHere() async throws {
        let directory = try CLI.temporaryDirectory()
        let saved = directory + "/chat.yaml"
        // An up arrow pressed alone, one inside a message, /help, a first message dropped by
        // /reset, an unknown command, and a save.
        let input = "\u{1B}[A\nThrowaway\n/reset\nI can't sleep\u{1B}[D again\n/help\n/nope\n/save \(saved)\n/quit\nnever sent\n"
        let chat = try await CLI.run(["chat", "personas/luna", "--provider", "mock"], stdin: input)
        #expect(chat.status == 0, "\(chat.stderr)")
        #expect(!chat.stdout.contains("\u{1B}") && !chat.stdout.contains("[A"), "\(chat.stdout)")
        #expect(chat.stdout.contains("you> I can't sleep again"), "\(chat.stdout)")
        #expect(!chat.stdout.contains("you> /help") && !chat.stdout.contains("never sent"))
        #expect(chat.stderr.contains("/save PATH") && chat.stderr.contains("the conversation starts again"))
        #expect(chat.stderr.contains("no command /nope; /help lists them"))
        let fixture = try String(contentsOfFile: saved, encoding: .utf8)
        #expect(fixture.contains("I can't sleep again") && !fixture.contains("Throwaway") && !fixture.contains("\u{1B}"), "\(fixture)")
    }

    @Test(arguments: [("\u{1B}[A", ""), ("hi\u{1B}[Cthere", "hithere"), ("tab\tkept", "tab\tkept"), ("bell\u{07}", "bell"), ("\u{1B}OHhome", "home")])
    func typedTextLosesItsEscapeCodes(_ line: String, _ typed: String) {
        #expect(ChatCommand.ChatSession.typed(line) == typed)
    }
}
