"""A rule card's sentences read back into rules (the inverse of `Rule.words`), so the tests can show that
every sentence a card prints states exactly one rule."""
import re

from analyzer.strategy.language import Condition, FeatureSet, Flag, Rule


def _alternation(words) -> str:
    return "(" + "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True)) + ")"


def _condition_patterns(features: FeatureSet) -> list:
    """(regex, builder) for every feature and operator the templates allow."""
    patterns = []
    for feature in features.features.values():
        kind = feature.kind
        by_word = {kind.word(v): v for v in kind.values()}
        one = _alternation(by_word)
        if isinstance(kind, Flag):
            for flag in (True, False):
                patterns.append((re.compile(re.escape(feature.templates["true" if flag else "false"])),
                                 lambda m, f=feature.name, x=int(flag): Condition(f, "eq", x)))
            continue
        for op, template in feature.templates.items():
            if op not in kind.ops:
                continue
            pieces = re.split(r"(\{value\}|\{low\}|\{high\}|\{values\})", template)
            regex = ""
            for piece in pieces:
                if piece in ("{value}", "{low}", "{high}"):
                    regex += one
                elif piece == "{values}":
                    regex += f"((?:{one[1:-1]})(?:, (?:{one[1:-1]}))*(?: or (?:{one[1:-1]})))"
                else:
                    regex += re.escape(piece)

            def build(m, f=feature.name, op=op, by_word=by_word, one=one):
                if op == "between":
                    return Condition(f, op, (by_word[m.group(1)], by_word[m.group(2)]))
                if op in ("in", "not_in"):
                    items = re.findall(one, m.group(1))
                    return Condition(f, op, tuple(sorted(by_word[w] for w in items)))
                return Condition(f, op, by_word[m.group(1)])
            patterns.append((re.compile(regex), build))
    return patterns


def parse_rule(sentence: str, features: FeatureSet) -> Rule:
    """The Rule a sentence states, the inverse of Rule.words: every reading the templates allow is tried
    (backtracking on ", " and " and "); ValueError unless exactly one rule reads back."""
    for action in features.actions:
        verb = features.verb(action)
        # each lead, and the (chained, first) wordings that begin with it
        leads = {f"{verb} if ": ((False, True), (True, True)), f"Otherwise {verb.lower()} if ": ((True, False),)}
        lead = next((lead for lead in leads if sentence.startswith(lead)), None)
        if lead:
            break
    else:
        raise ValueError(f"{sentence!r} does not start with an action ({', '.join(features.actions)}) and 'if'")
    patterns = _condition_patterns(features)
    readings = []

    def read(position: int, so_far: list):
        for regex, build in patterns:
            m = regex.match(sentence, position)
            if not m:
                continue
            condition = build(m)
            end = m.end()
            if sentence[end:] == ".":
                readings.append(tuple(so_far + [condition]))
            for separator in (", ", " and "):
                if sentence.startswith(separator, end):
                    read(end + len(separator), so_far + [condition])

    read(len(lead), [])
    rules = {Rule(r, action) for r in readings for chained, first in leads[lead]
             if Rule(r, action).words(features, chained, first) == sentence}
    if len(rules) != 1:
        raise ValueError(f"{sentence!r} reads as {len(rules)} rules, not exactly one")
    return rules.pop()
