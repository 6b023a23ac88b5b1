/// A run's counts, gathered case by case: from its rows when they are read back, or as its
/// cases are written (``RunTallies``). Both give the same figures, since both are this.
struct RunTally {
    var groups: [CaseGroup.Key: CaseGroup] = [:]
    /// Turns recorded, and those of them answered from the response cache.
    var replies = 0, cachedReplies = 0

    mutating func add(_ key: CaseGroup.Key, outcome: String, repeatIndex: Int) {
        groups[key, default: CaseGroup(first: outcome)].add(outcome, repeatIndex: repeatIndex)
    }

    /// Each suite's counts, the groups of one case's repeats summed.
    var suiteCounts: [String: ResultStore.SuiteCounts] {
        var counts: [String: ResultStore.SuiteCounts] = [:]
        for (key, group) in groups {
            var count = counts.removeValue(forKey: key.suite) ?? ResultStore.SuiteCounts(repeats: 0)
            count.cases += group.cases
            count.passed += group.passed
            count.failed += group.failed
            count.errors += group.errors
            count.repeats = max(count.repeats, group.repeats)
            count.groups += 1
            if group.passed == group.cases { count.groupsAllPassed += 1 }
            if group.passed > 0 { count.groupsAnyPassed += 1 }
            count.repeatGroups.add(passed: group.passed, scored: group.passed + group.failed)
            // Repeats that disagree: a flaky case.
            if group.mixed { count.flaky.append("\(key.fixture)/\(key.provider)") }
            counts[key.suite] = count
        }
        // In SQLite's order for text (by bytes), as the list always was.
        for suite in counts.keys { counts[suite]?.flaky.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
        return counts
    }
}
