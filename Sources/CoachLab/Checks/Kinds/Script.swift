extension CheckKinds {
    /// An executable reads the case as JSON on standard input and answers
    /// `{"pass": …, "score": …, "reason": …}`. The eval runner runs it; scored here, without
    /// running anything, it fails and says so.
    public struct Script: CheckKind {
        public var path: String
        public var arguments: [String]
        /// Seconds it may take.
        public var timeout: Double

        public static let names = [CheckName("script", takes: "script (an executable path), args, timeout", needsParameters: true)]
        public static let fields = [
            FieldSpec("script", .string, "the executable, relative to the directory coachlab runs in."),
            FieldSpec("args", .list(.string), "arguments after the path."),
            FieldSpec("timeout", .number, "seconds it may take. Default 10."),
        ]

        public static func read(_ reading: inout CheckReading) -> Script? {
            guard let path = reading.value.located("script")?.value, !path.isEmpty else { return reading.missing("'script': the executable to run") }
            let timeout = reading.value.number("timeout") ?? 10
            guard timeout > 0 else { return reading.error("timeout must be above 0 seconds", at: reading.value["timeout"]?.location) }
            return Script(path: path, arguments: reading.value.locatedList("args").map(\.value), timeout: timeout)
        }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            check.result(false, "script checks run an executable; run them with coachlab eval")
        }
    }
}

extension Check.Kind {
    /// An executable scores the case.
    public static func script(path: String, arguments: [String], timeout: Double) -> Check.Kind {
        Check.Kind(CheckKinds.Script(path: path, arguments: arguments, timeout: timeout))
    }
}
