import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `chat`'s line editing on a terminal: the cursor moves with the arrows, Home, End, Ctrl-A and
/// Ctrl-E; Backspace, Delete, Ctrl-K, Ctrl-U and Ctrl-W delete; Up and Down walk the messages
/// sent before; Ctrl-C drops the line and Ctrl-D on an empty line ends the chat.
///
/// The editing itself is a value with no I/O: ``KeyDecoder`` turns the bytes a terminal sends
/// into keys, ``apply(_:)`` edits, and ``render(prompt:)`` gives what redraws the line. Only
/// ``read(prompt:history:)`` touches the terminal.
struct LineEditor {
    /// A key, as far as editing cares.
    enum Key: Equatable {
        case text(String)
        case enter, backspace, delete, left, right, home, end, up, down
        case interrupt, endOfInput, killToEnd, killToStart, deleteWord
        /// A key that edits nothing here (F1, Tab, an unknown escape sequence).
        case ignored
    }

    /// What a key did to the line.
    enum Outcome: Equatable {
        case editing
        case submit(String)
        /// Ctrl-C: the line is dropped and a fresh one starts.
        case cancelled
        /// Ctrl-D on an empty line.
        case end
    }

    /// Turns bytes into keys: UTF-8 text, control characters, and the escape sequences of
    /// xterm-style terminals (`ESC [ A`, `ESC O H`, `ESC [ 3 ~`).
    struct KeyDecoder {
        private var pending: [UInt8] = []

        /// The key `byte` completes, or nil while a sequence is still arriving.
        mutating func feed(_ byte: UInt8) -> Key? {
            pending.append(byte)
            let bytes = pending
            if bytes[0] == 0x1B {
                guard bytes.count >= 2 else { return nil }
                if bytes[1] == UInt8(ascii: "[") {
                    // CSI: parameters and intermediates, then a final byte in @...~.
                    guard bytes.count >= 3, let last = bytes.last, (0x40...0x7E).contains(last) else { return nil }
                    return finish(Self.csi(bytes))
                }
                if bytes[1] == UInt8(ascii: "O") {
                    guard bytes.count >= 3 else { return nil }
                    return finish([UInt8(ascii: "H"): .home, UInt8(ascii: "F"): .end, UInt8(ascii: "A"): .up,
                                   UInt8(ascii: "B"): .down, UInt8(ascii: "C"): .right, UInt8(ascii: "D"): .left][bytes[2]] ?? .ignored)
                }
                return finish(.ignored)  // Alt plus a key
            }
            if bytes[0] < 0x80 {
                switch bytes[0] {
                case 0x0D, 0x0A: return finish(.enter)
                case 0x7F, 0x08: return finish(.backspace)
                case 0x01: return finish(.home)
                case 0x05: return finish(.end)
                case 0x02: return finish(.left)
                case 0x06: return finish(.right)
                case 0x03: return finish(.interrupt)
                case 0x04: return finish(.endOfInput)
                case 0x0B: return finish(.killToEnd)
                case 0x15: return finish(.killToStart)
                case 0x17: return finish(.deleteWord)
                case 0x10: return finish(.up)
                case 0x0E: return finish(.down)
                case 0x20...0x7E: return finish(.text(String(UnicodeScalar(bytes[0]))))
                default: return finish(.ignored)
                }
            }
            // UTF-8: the lead byte says how many follow.
            let length = bytes[0] >= 0xF0 ? 4 : bytes[0] >= 0xE0 ? 3 : bytes[0] >= 0xC0 ? 2 : 1
            guard bytes.count >= length else { return nil }
            return finish(String(bytes: bytes, encoding: .utf8).map(Key.text) ?? .ignored)
        }

        private mutating func finish(_ key: Key) -> Key {
            pending = []
            return key
        }

        private static func csi(_ bytes: [UInt8]) -> Key {
            let body = String(decoding: bytes.dropFirst(2), as: UTF8.self)
            switch body {
            case "A": return .up
            case "B": return .down
            case "C": return .right
            case "D": return .left
            case "H", "1~", "7~": return .home
            case "F", "4~", "8~": return .end
            case "3~": return .delete
            default: return .ignored
            }
        }
    }

    /// The messages sent before, oldest first.
    private(set) var history: [String]
    private(set) var line: [Character] = []
    /// Where the cursor is, in characters from the start.
    private(set) var cursor = 0
    /// Which earlier message Up and Down show; nil, the line being written.
    private var recalled: Int?
    /// The line being written while an earlier one is shown.
    private var draft: [Character] = []

    init(history: [String] = []) {
        self.history = history
    }

    /// Applies one key.
    mutating func apply(_ key: Key) -> Outcome {
        switch key {
        case .text(let text):
            let typed = text.filter { !$0.isNewline }
            line.insert(contentsOf: typed, at: cursor)
            cursor += typed.count
        case .enter:
            let sent = String(line)
            if !sent.trimmingCharacters(in: .whitespaces).isEmpty, history.last != sent { history.append(sent) }
            clear()
            return .submit(sent)
        case .backspace:
            guard cursor > 0 else { break }
            line.remove(at: cursor - 1)
            cursor -= 1
        case .delete:
            if cursor < line.count { line.remove(at: cursor) }
        case .endOfInput:
            if line.isEmpty { return .end }
            if cursor < line.count { line.remove(at: cursor) }
        case .left: cursor = max(cursor - 1, 0)
        case .right: cursor = min(cursor + 1, line.count)
        case .home: cursor = 0
        case .end: cursor = line.count
        case .killToEnd: line.removeSubrange(cursor...)
        case .killToStart:
            line.removeSubrange(..<cursor)
            cursor = 0
        case .deleteWord:
            var start = cursor
            while start > 0, line[start - 1] == " " { start -= 1 }
            while start > 0, line[start - 1] != " " { start -= 1 }
            line.removeSubrange(start..<cursor)
            cursor = start
        case .up:
            guard !history.isEmpty else { break }
            if recalled == nil { draft = line }
            let index = max((recalled ?? history.count) - 1, 0)
            show(Array(history[index]), recalled: index)
        case .down:
            guard let index = recalled else { break }
            if index + 1 < history.count { show(Array(history[index + 1]), recalled: index + 1) } else { show(draft, recalled: nil) }
        case .interrupt:
            clear()
            return .cancelled
        case .ignored:
            break
        }
        return .editing
    }

    /// What redraws the line after `prompt` and puts the cursor back where it belongs: a
    /// carriage return, the prompt and line, clear to the end, then back over what follows
    /// the cursor.
    func render(prompt: String) -> String {
        let after = line.count - cursor
        return "\r" + prompt + String(line) + "\u{1B}[K" + (after > 0 ? "\u{1B}[\(after)D" : "")
    }

    private mutating func show(_ text: [Character], recalled: Int?) {
        line = text
        cursor = text.count
        self.recalled = recalled
    }

    private mutating func clear() {
        line = []
        cursor = 0
        recalled = nil
        draft = []
    }

    /// Reads one line from the terminal on standard input, edited, after `prompt`: nil at the
    /// end (Ctrl-D on an empty line, or the input closing). The terminal is in raw mode only
    /// while the line is read, so a reply streams to a terminal set as usual.
    static func read(prompt: String, editor: inout LineEditor) -> String? {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else {
            FileHandle.standardError.write(Data(prompt.utf8))
            return Swift.readLine()
        }
        var raw = saved
        // No line buffering, echo or signals from keys (Ctrl-C edits here); output as usual.
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
        defer { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
        let write = { (text: String) in FileHandle.standardOutput.write(Data(text.utf8)) }
        var decoder = KeyDecoder()
        write(editor.render(prompt: prompt))
        var byte: UInt8 = 0
        while readByte(&byte) {
            guard let key = decoder.feed(byte) else { continue }
            switch editor.apply(key) {
            case .editing: write(editor.render(prompt: prompt))
            case .submit(let line):
                write("\r\n")
                return line
            case .cancelled: write("^C\r\n" + editor.render(prompt: prompt))
            case .end:
                write("\r\n")
                return nil
            }
        }
        return nil
    }

    private static func readByte(_ byte: inout UInt8) -> Bool {
        #if canImport(Glibc)
        Glibc.read(STDIN_FILENO, &byte, 1) == 1
        #else
        Darwin.read(STDIN_FILENO, &byte, 1) == 1
        #endif
    }
}
