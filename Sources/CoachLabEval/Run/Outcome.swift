import CoachLab
import CoachLabProviders
import Foundation

/// How a case ended. `error` (the provider failed) is distinct from `fail` (a check failed).
public enum Outcome: String, Sendable, Codable, Hashable {
    case pass, fail, error
}
