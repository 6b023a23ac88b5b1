#!/usr/bin/env python3
"""A CoachLab script check: is the reply easy to read?

CoachLab runs this once per scored reply, writes the case to standard input as JSON
(reply, user, turn, transcript, system, inputs, suite, fixture, provider, check) and reads
one JSON object from standard output: {"pass": bool, "score": 0-1, "reason": str}.

It estimates the Flesch-Kincaid grade level of the reply and passes when it is at most
--max-grade (default 8: a reply a tired person can take in at 3 a.m.). The score falls
from 1 at the limit to 0 four grades above it.

Use it in a suite:
  checks:
    - {check: script, script: examples/checks/reading_level.py, args: ["--max-grade", "8"]}
"""
import argparse
import json
import re
import sys


def syllables(word):
    word = word.lower()
    groups = re.findall(r"[aeiouy]+", word)
    count = len(groups)
    if word.endswith("e") and not word.endswith(("le", "ee")) and count > 1:
        count -= 1
    return max(count, 1)


def grade(text):
    sentences = [s for s in re.split(r"[.!?]+", text) if s.strip()]
    words = re.findall(r"[A-Za-z']+", text)
    if not words:
        return 0.0
    per_sentence = len(words) / max(len(sentences), 1)
    per_word = sum(syllables(w) for w in words) / len(words)
    return 0.39 * per_sentence + 11.8 * per_word - 15.59


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-grade", type=float, default=8.0)
    options = parser.parse_args()
    case = json.load(sys.stdin)
    level = grade(case["reply"])
    passed = level <= options.max_grade
    score = 1.0 if passed else max(0.0, 1.0 - (level - options.max_grade) / 4.0)
    json.dump({"pass": passed, "score": round(score, 3),
               "reason": f"reading grade {level:.1f}; wanted at most {options.max_grade:g}"}, sys.stdout)


if __name__ == "__main__":
    main()
