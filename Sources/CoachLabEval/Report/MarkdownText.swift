/// Text that did not come from the author (a model's reply, a judge's or a script's reason, a
/// provider's error) on its way into Markdown that GitHub renders: a job summary or a
/// pull-request comment. There it must stay inert: no `@mention` or `@org/team` notifies
/// anyone, no `#123` links an issue, no HTML (`<img>`, `</details>`) renders, and no link or
/// image is made.
enum MarkdownText {
    /// `text` as one inline code span: GitHub renders a code span's content as it is, with no
    /// mentions, references, HTML or links. Line breaks become spaces, a pipe is escaped so a
    /// table cell stays whole, and text longer than `limit` characters is cut with a note.
    static func inert(_ text: String, limit: Int = 300) -> String {
        // Control characters (a NUL, a terminal escape) and bidirectional controls, which
        // reorder what a reader sees, are dropped.
        let visible = String(String.UnicodeScalarView(text.unicodeScalars.compactMap { scalar -> Unicode.Scalar? in
            if scalar == "\n" || scalar == "\r" || scalar == "\t" { return " " }
            if scalar.properties.generalCategory == .control || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value) { return nil }
            return scalar
        }))
        var flat = String(visible.map { $0.isNewline ? " " : $0 }).replacingOccurrences(of: "|", with: "\\|")
        if flat.count > limit { flat = String(flat.prefix(limit)) + " … (\(text.count) characters; the report has it whole)" }
        guard !flat.isEmpty else { return "" }
        // A fence longer than any run of backticks inside; padded when the text starts or ends
        // with one, as CommonMark strips one space from each side.
        var longest = 0, run = 0
        for character in flat {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let padded = flat.hasPrefix("`") || flat.hasSuffix("`") || flat.hasPrefix(" ") && flat.hasSuffix(" ") ? " \(flat) " : flat
        return fence + padded + fence
    }

    /// An author's name for something (a suite or case id) in a table cell: pipes escaped and
    /// line breaks flattened, so the table keeps its shape.
    static func cell(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 }).replacingOccurrences(of: "|", with: "\\|")
    }
}
