import Foundation
import Glibc

/// Headless Chromium driven over the DevTools protocol, as a person would use a page: real
/// mouse clicks at an element's place, real typing, real downloads. The protocol runs over
/// `--remote-debugging-pipe` (JSON messages ended by a NUL, commands on the browser's fd 3,
/// answers and events on its fd 4), reached through two named pipes the shell opens as those
/// descriptors, so no port and no WebSocket client are needed.
///
/// Every call blocks its thread: run a session inside ``run(_:)``, which puts it on one of
/// Dispatch's threads. A watchdog ends the browser after `timeout` seconds, which makes any
/// blocked read fail instead of hanging the tests.
final class DevTools {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let process = Process()
    private let commands: FileHandle
    private let answers: FileHandle
    private var buffer = Data()
    private var nextId = 0
    private var events: [[String: Any]] = []
    private let folder: String
    /// The page's session, once ``open(_:)`` attached to it.
    private var session: String?

    /// Runs `body` with a browser, on one of Dispatch's threads, and closes the browser after.
    static func run<T: Sendable>(timeout: TimeInterval = 90, _ body: @escaping @Sendable (DevTools) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result {
                    let browser = try DevTools(timeout: timeout)
                    defer { browser.close() }
                    return try body(browser)
                })
            }
        }
    }

    private init(timeout: TimeInterval) throws {
        guard let path = Browser.path else { throw Failure(description: "no Chromium installed") }
        folder = try CLI.temporaryDirectory()
        let (input, output) = (folder + "/commands", folder + "/answers")
        guard mkfifo(input, 0o600) == 0, mkfifo(output, 0o600) == 0 else { throw Failure(description: "mkfifo failed: errno \(errno)") }
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"exec "$0" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$1" --remote-debugging-pipe 3<"$2" 4>"$3""#,
                             path, folder + "/profile", input, output]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The shell opens fd 3 and then fd 4, each waiting for this side: open them in that order.
        guard let commands = FileHandle(forWritingAtPath: input), let answers = FileHandle(forReadingAtPath: output) else {
            process.terminate()
            throw Failure(description: "could not open the browser's pipes")
        }
        self.commands = commands
        self.answers = answers
        let process = self.process
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { if process.isRunning { process.terminate() } }
    }

    private func close() {
        try? commands.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: folder + "/profile")
    }

    // MARK: - The protocol

    /// Sends a command and returns its result; an error answer throws.
    @discardableResult
    func send(_ method: String, _ params: [String: Any] = [:], toPage: Bool = true) throws -> [String: Any] {
        nextId += 1
        var message: [String: Any] = ["id": nextId, "method": method, "params": params]
        if toPage, let session { message["sessionId"] = session }
        commands.write(try JSONSerialization.data(withJSONObject: message) + Data([0]))
        let id = nextId
        while true {
            let answer = try read()
            guard answer["id"] as? Int == id else {
                if answer["method"] != nil { events.append(answer) }
                continue
            }
            if let error = answer["error"] as? [String: Any] { throw Failure(description: "\(method): \(error["message"] ?? error)") }
            return answer["result"] as? [String: Any] ?? [:]
        }
    }

    /// Waits for an event whose parameters satisfy `matches`, and returns them.
    @discardableResult
    func wait(for method: String, where matches: ([String: Any]) -> Bool = { _ in true }) throws -> [String: Any] {
        while true {
            if let index = events.firstIndex(where: { $0["method"] as? String == method && matches($0["params"] as? [String: Any] ?? [:]) }) {
                return events.remove(at: index)["params"] as? [String: Any] ?? [:]
            }
            let message = try read()
            if message["method"] != nil { events.append(message) }
        }
    }

    private func read() throws -> [String: Any] {
        while true {
            if let end = buffer.firstIndex(of: 0) {
                let message = buffer[buffer.startIndex..<end]
                buffer = Data(buffer[(end + 1)...])
                guard let object = try JSONSerialization.jsonObject(with: message) as? [String: Any] else { continue }
                return object
            }
            let data = answers.availableData
            guard !data.isEmpty else { throw Failure(description: "the browser closed its pipe (it ended, or the watchdog ended it)") }
            buffer.append(data)
        }
    }

    // MARK: - What a person does

    /// Opens `url` in a new tab, allows downloads into `downloads`, and waits until the page's
    /// script marks it ready.
    func open(_ url: String, downloads: String) throws {
        try send("Browser.setDownloadBehavior", ["behavior": "allow", "downloadPath": downloads, "eventsEnabled": true], toPage: false)
        let target = try send("Target.createTarget", ["url": url], toPage: false)
        let attached = try send("Target.attachToTarget", ["targetId": target["targetId"] ?? "", "flatten": true], toPage: false)
        session = attached["sessionId"] as? String
        try waitUntilReady()
    }

    /// Reloads the page and waits until it is ready again.
    func reload() throws {
        try send("Page.reload")
        Thread.sleep(forTimeInterval: 0.3)
        try waitUntilReady()
    }

    private func waitUntilReady() throws {
        for _ in 0..<100 {
            if try evaluate("document.body && document.body.getAttribute('data-ready')") as? String == "true" { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw Failure(description: "the page never became ready")
    }

    /// The value of a JavaScript expression in the page.
    func evaluate(_ expression: String) throws -> Any? {
        let result = try send("Runtime.evaluate", ["expression": expression, "returnByValue": true])
        if let exception = result["exceptionDetails"] { throw Failure(description: "\(expression): \(exception)") }
        return (result["result"] as? [String: Any])?["value"]
    }

    /// Clicks the element `expression` evaluates to with the mouse, at its centre, after
    /// scrolling it into view: what the page's listeners see is a person's click.
    func click(_ expression: String) throws {
        let place = try evaluate("""
            (function(){var e=\(expression);if(!e)return null;e.scrollIntoView({block:"center"});
            var r=e.getBoundingClientRect();return [r.left+r.width/2,r.top+r.height/2]})()
            """)
        guard let point = place as? [Double], point.count == 2 else { throw Failure(description: "nothing to click: \(expression)") }
        for type in ["mousePressed", "mouseReleased"] {
            try send("Input.dispatchMouseEvent", ["type": type, "x": point[0], "y": point[1], "button": "left", "clickCount": 1])
        }
    }

    /// Clicks the element and types `text` into it, as keystrokes would.
    func type(_ text: String, into expression: String) throws {
        try click(expression)
        try send("Input.insertText", ["text": text])
    }

    /// Waits for the download the last click started to finish, and returns its file.
    func download(into folder: String) throws -> String {
        let begun = try wait(for: "Browser.downloadWillBegin")
        let guid = begun["guid"] as? String
        try wait(for: "Browser.downloadProgress") { $0["guid"] as? String == guid && $0["state"] as? String == "completed" }
        return folder + "/" + (begun["suggestedFilename"] as? String ?? "")
    }
}
