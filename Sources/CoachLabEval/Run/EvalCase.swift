import CoachLab
import CoachLabProviders
import Foundation

/// One unit of work: a fixture on a provider, one repeat.
public struct EvalCase: Sendable, Hashable {
    public var suite: String
    public var fixture: String
    public var provider: String
    public var repeatIndex: Int
    public var id: String { "\(suite)/\(fixture)/\(provider)#\(repeatIndex)" }
}
