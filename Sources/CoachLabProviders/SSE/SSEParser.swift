/// One server-sent event.
public struct SSEEvent: Sendable, Hashable {
    /// The `event:` field; nil means the default ("message").
    public var event: String?
    /// The `data:` lines joined with "\n".
    public var data: String
    /// The `id:` field, when given.
    public var id: String?

    /// Creates an event.
    public init(event: String? = nil, data: String, id: String? = nil) {
        self.event = event
        self.data = data
        self.id = id
    }
}

/// A server-sent events parser as a pure value: feed it bytes as they arrive, in chunks of any
/// size, and it returns the events completed so far.
///
/// It buffers bytes across chunks, splits lines on CRLF, LF or CR (a CR at the end of one chunk
/// and an LF at the start of the next are one line break), decodes UTF-8 only once a line is
/// whole, joins several `data:` lines with "\n", skips `:` comment lines, and dispatches on a
/// blank line. ``finish()`` dispatches an event left pending when the stream closes.
public struct SSEParser: Sendable {
    private var line: [UInt8] = []
    private var skipNextLineFeed = false
    private var dataLines: [String] = []
    private var hasData = false
    private var eventName: String?
    private var lastId: String?

    /// Creates a parser.
    public init() {}

    /// Feeds bytes; returns the events they complete.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [SSEEvent] {
        var events: [SSEEvent] = []
        for byte in bytes {
            if skipNextLineFeed {
                skipNextLineFeed = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0D:
                skipNextLineFeed = true
                if let event = endLine() { events.append(event) }
            case 0x0A:
                if let event = endLine() { events.append(event) }
            default:
                line.append(byte)
            }
        }
        return events
    }

    /// Ends the stream: a partial last line is processed and a pending event dispatched.
    public mutating func finish() -> [SSEEvent] {
        var events: [SSEEvent] = []
        if !line.isEmpty, let event = endLine() { events.append(event) }
        if let event = dispatch() { events.append(event) }
        return events
    }

    private mutating func endLine() -> SSEEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty { return dispatch() }
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix(":") { return nil }
        let field: Substring
        var value: Substring
        if let colon = text.firstIndex(of: ":") {
            field = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.hasPrefix(" ") { value = value.dropFirst() }
        } else {
            field = Substring(text)
            value = ""
        }
        switch field {
        case "data":
            dataLines.append(String(value))
            hasData = true
        case "event":
            eventName = String(value)
        case "id":
            lastId = String(value)
        default:
            break
        }
        return nil
    }

    private mutating func dispatch() -> SSEEvent? {
        defer {
            dataLines.removeAll()
            hasData = false
            eventName = nil
        }
        guard hasData else { return nil }
        return SSEEvent(event: eventName, data: dataLines.joined(separator: "\n"), id: lastId)
    }
}
