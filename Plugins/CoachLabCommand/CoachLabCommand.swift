import Foundation
import PackagePlugin

/// `swift package coachlab ARGUMENTS`: runs the `coachlab` command, built from the package that
/// depends on CoachLab, in that package's folder. Nothing is installed; `eval`, `lint`,
/// `compile`, `mutate` and every other command take their usual arguments.
///
/// A plugin can import only PackagePlugin and Foundation, so the child process is Foundation's
/// `Process` here, not swift-subprocess.
@main
struct CoachLabCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let coachlab = try context.tool(named: "coachlab")
        let process = Process()
        process.executableURL = coachlab.url
        process.arguments = arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        // coachlab has printed its own diagnostics; its exit code (1 failed checks, 2 bad
        // input, 3 errored cases) becomes the plugin's, so a CI step fails as the command would.
        if process.terminationReason != .exit || process.terminationStatus != 0 {
            Diagnostics.error("coachlab \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
            exit(process.terminationReason == .exit ? process.terminationStatus : 1)
        }
    }
}
