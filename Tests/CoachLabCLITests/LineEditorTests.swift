@testable import coachlab
import Testing

/// `chat`'s line editing, as keys in and a line out.
@Suite struct LineEditorTests {
    /// Feeds bytes as a terminal sends them and returns the outcomes of the keys they make.
    static func type(_ bytes: String, into editor: inout LineEditor) -> [LineEditor.Outcome] {
        var decoder = LineEditor.KeyDecoder()
        return Array(bytes.utf8).compactMap { decoder.feed($0) }.map { editor.apply($0) }
    }

    @Test(arguments: [("\u{1B}[A", LineEditor.Key.up), ("\u{1B}[B", .down), ("\u{1B}[C", .right), ("\u{1B}[D", .left),
                      ("\u{1B}[H", .home), ("\u{1B}OF", .end), ("\u{1B}[1~", .home), ("\u{1B}[4~", .end), ("\u{1B}[3~", .delete),
                      ("\u{1B}[1;5C", .ignored), ("\u{01}", .home), ("\u{05}", .end), ("\r", .enter), ("\u{7F}", .backspace),
                      ("é", .text("é")), ("🌙", .text("🌙")), ("\t", .ignored)])
    func bytesBecomeKeys(_ bytes: String, _ key: LineEditor.Key) {
        var decoder = LineEditor.KeyDecoder()
        let keys = Array(bytes.utf8).compactMap { decoder.feed($0) }
        #expect(keys == [key])
    }

    @Test func arrowsHomeAndEndMoveTheCursorAndTypingInsertsThere() {
        var editor = LineEditor()
        // "I sleep", Left x6, " can't" → "I can't sleep"; Ctrl-A, "Oh, "; Ctrl-E, "!"
        let outcomes = Self.type("I sleep" + String(repeating: "\u{1B}[D", count: 6) + " can't\u{01}Oh, \u{05}!\r", into: &editor)
        #expect(outcomes.last == .submit("Oh, I can't sleep!"))
        #expect(editor.history == ["Oh, I can't sleep!"])
    }

    @Test func deletingKeys() {
        var editor = LineEditor()
        #expect(Self.type("abc\u{7F}\r", into: &editor).last == .submit("ab"))
        #expect(Self.type("abc\u{01}\u{1B}[3~\r", into: &editor).last == .submit("bc"))
        #expect(Self.type("one two\u{1B}[D\u{1B}[D\u{0B}\r", into: &editor).last == .submit("one t"))
        #expect(Self.type("one two\u{1B}[D\u{15}\r", into: &editor).last == .submit("o"))
        #expect(Self.type("one two  \u{17}\r", into: &editor).last == .submit("one "))
        #expect(Self.type("\u{7F}\u{1B}[3~x\r", into: &editor).last == .submit("x"), "nothing to delete is no error")
    }

    @Test func upAndDownWalkEarlierMessagesAndKeepTheDraft() {
        var editor = LineEditor(history: ["first", "second"])
        #expect(Self.type("dra\u{1B}[A", into: &editor).last == .editing)
        #expect(String(editor.line) == "second")
        _ = Self.type("\u{1B}[A\u{1B}[A", into: &editor)
        #expect(String(editor.line) == "first", "Up stops at the oldest")
        _ = Self.type("\u{1B}[B\u{1B}[B", into: &editor)
        #expect(String(editor.line) == "dra", "Down past the newest gives back the draft")
        #expect(Self.type("\u{1B}[A!\r", into: &editor).last == .submit("second!"))
        #expect(editor.history == ["first", "second", "second!"])
        _ = Self.type("\u{1B}[A\r", into: &editor)
        #expect(editor.history.count == 3, "sending the last message again does not repeat it in the history")
    }

    @Test func ctrlCDropsTheLineAndCtrlDEndsOnlyAnEmptyOne() {
        var editor = LineEditor()
        #expect(Self.type("never mind\u{03}", into: &editor).last == .cancelled)
        #expect(editor.line.isEmpty && editor.history.isEmpty)
        #expect(Self.type("ab\u{01}\u{04}", into: &editor).last == .editing, "Ctrl-D in a line deletes under the cursor")
        #expect(String(editor.line) == "b")
        #expect(Self.type("\u{05}\u{15}\u{04}", into: &editor).last == .end)
    }

    @Test func renderRedrawsThePromptAndPutsTheCursorBack() {
        var editor = LineEditor()
        _ = Self.type("hello\u{1B}[D\u{1B}[D", into: &editor)
        #expect(editor.render(prompt: "you> ") == "\ryou> hello\u{1B}[K\u{1B}[2D")
        _ = Self.type("\u{05}", into: &editor)
        #expect(editor.render(prompt: "you> ") == "\ryou> hello\u{1B}[K")
    }
}
