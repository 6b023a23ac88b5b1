/// Recognises strings that look like API keys, so they can be reported (never printed)
/// wherever content is read.
public enum SecretDetector {
    /// What kind of key `text` appears to contain, such as "an OpenAI-style API key", or nil.
    public static func kind(of text: String) -> String? { SecretScanner.secretKind(in: text) }
}
