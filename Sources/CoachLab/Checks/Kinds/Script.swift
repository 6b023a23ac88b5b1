extension CheckKinds {
    /// An executable reads the case as JSON on standard input and answers
    /// `{"pass": …, "score": …, "reason": …}`. The eval runner runs it; scored here, without
    /// running anything, it fails and says so.
    public struct Script: CheckKind {
        public var path: String
        public var arguments: [String]
        /// Seconds it may take.
        public var timeout: Double
        /// The environment variables it is given besides `PATH`, `HOME`, the locale's, `TZ` and
        /// `TMPDIR`: nothing else of the environment, and so no key, reaches it unless named here.
        public var environment: [String]

        public static let names = [CheckName("script", takes: "script (an executable path), args, timeout, env", needsParameters: true)]
        public static let fields = [
            FieldSpec("script", .string, "the executable, relative to the directory coachlab runs in."),
            FieldSpec("args", .list(.string), "arguments after the path."),
            FieldSpec("timeout", .number, "seconds it may take. Default 10."),
            FieldSpec("env", .list(.string), "environment variables passed to it by name; it gets only PATH, HOME, the locale, TZ, TMPDIR and these."),
        ]

        public static func read(_ reading: inout CheckReading) -> Script? {
            guard let path = reading.value.located("script")?.value, !path.isEmpty else { return reading.missing("'script': the executable to run") }
            let timeout = reading.value.number("timeout") ?? 10
            guard timeout > 0 else { return reading.error("timeout must be above 0 seconds", at: reading.value["timeout"]?.location) }
            if leavesProject(path) {
                reading.diagnostics.append(.warning(
                    "the script check runs '\(path)', a program outside the project: it runs with your permissions on every eval, and a review of the suite does not see what it does",
                    at: reading.value.located("script")?.location ?? reading.location,
                    hint: "keep check scripts in the project (checks/…); a script gets PATH, HOME, the locale, TZ, TMPDIR and the variables its env: names (docs/evals.md)"))
            }
            var environment: [String] = []
            for name in reading.value.locatedList("env") {
                guard !name.value.isEmpty, name.value.unicodeScalars.allSatisfy({ $0 == "_" || ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) }),
                      !("0"..."9").contains(name.value.unicodeScalars.first!) else {
                    return reading.error("'\(name.value)' is not an environment variable's name (letters, digits and _)", at: name.location)
                }
                environment.append(name.value)
            }
            return Script(path: path, arguments: reading.value.locatedList("args").map(\.value), timeout: timeout, environment: environment)
        }

        /// Whether `path`, as written, names a program outside the project: an absolute path, a
        /// home-relative one, or one that leaves with "..". (A link in the project that leads out
        /// is found by lint, which reads the disk: ``EvalLinter/scriptProblems(_:checks:)``.)
        static func leavesProject(_ path: String) -> Bool {
            let normalized = Paths.normalize(path)
            return path.hasPrefix("/") || path.hasPrefix("~") || normalized == ".." || normalized.hasPrefix("../")
        }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            check.result(false, "script checks run an executable; run them with coachlab eval")
        }

        public var callout: CheckCallout { .process }
    }
}

extension Check.Kind {
    /// An executable scores the case.
    public static func script(path: String, arguments: [String], timeout: Double, environment: [String] = []) -> Check.Kind {
        Check.Kind(CheckKinds.Script(path: path, arguments: arguments, timeout: timeout, environment: environment))
    }
}
