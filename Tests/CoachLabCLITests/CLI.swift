import Foundation
import CoachLabTestSupport

/// Runs the built `coachlab` binary, as a user would.
enum CLI {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
        }
        return FileManager.default.currentDirectoryPath
    }()

    /// The binary beside the test bundle (same build folder and configuration).
    static let binary: String = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent("coachlab").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory.deleteLastPathComponent()
        }
        return root + "/.build/debug/coachlab"
    }()

    static func run(_ arguments: [String], in directory: String = root, environment: [String: String] = [:],
                    stdin: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        // Each run gets a response cache and a result store of its own unless the test names
        // one: answers cached by one test (or by an earlier `swift test`) must never answer
        // another's, and no test writes into the project's .coachlab folder.
        let isolated = ["COACHLAB_CACHE": Scratch.path("cache"), "COACHLAB_STORE": Scratch.path("store") + "/coachlab.sqlite"]
        process.environment = ProcessInfo.processInfo.environment.merging(isolated) { _, new in new }.merging(environment) { _, new in new }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(Data((stdin ?? "").utf8))
        try input.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// A fresh temporary folder.
    static func temporaryDirectory() throws -> String {
        try Scratch.folder("cli")
    }
}
