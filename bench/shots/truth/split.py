#!/usr/bin/env python3
"""Recomputes the tune/held-out split of the shot-boundary truth from the fixed rule in README.md
and checks it against each file's "split" field. Standard library only.  python3 split.py [DIR]"""
import json, os, sys

here = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
clips = [json.load(open(os.path.join(here, f))) for f in sorted(os.listdir(here)) if f.endswith('.json')]
# Clips added later (the fresh held-out sets "heldout-new", "heldout-3" and "heldout-4", and single takes added
# to the tune half with an "added_later" note) stay out of the rule's split.
clips = [c for c in clips if c['split'] in ('tune', 'heldout') and 'added_later' not in c]

# A clip whose truth was corrected after the split was fixed keeps the split it had: "split_rule_input" holds
# its kind and boundary count as they were then.
def as_fixed(c):
    r = c.get('split_rule_input')
    return c if r is None else dict(c, kind=r['kind'], boundaries=[{'kind': 'cut'}] * r['boundaries'])

clips = [as_fixed(c) for c in clips]

def stratum(c):
    kinds = {b['kind'] for b in c['boundaries']}
    if kinds - {'cut'}:
        return 0  # has a gradual transition (dissolve, fade, wipe)
    if kinds:
        return 1  # cuts only
    return 2 if c['kind'] == 'single_take' else 3  # no boundary: single takes, then the rest

halves = {'tune': {'clips': [0, 0, 0, 0], 'bounds': 0}, 'heldout': {'clips': [0, 0, 0, 0], 'bounds': 0}}
want, ok = {}, True
order = sorted(clips, key=lambda c: (stratum(c), -len(c['boundaries']), c['file'].lower()))
for c in order:
    s = stratum(c)
    t, h = halves['tune'], halves['heldout']
    if t['clips'][s] != h['clips'][s]:
        side = 'tune' if t['clips'][s] < h['clips'][s] else 'heldout'
    elif t['bounds'] != h['bounds']:
        side = 'tune' if t['bounds'] < h['bounds'] else 'heldout'
    else:
        side = 'tune'
    halves[side]['clips'][s] += 1
    halves[side]['bounds'] += len(c['boundaries'])
    mark = 'ok' if c['split'] == side else 'MISMATCH (file says ' + c['split'] + ')'
    ok &= c['split'] == side
    print(f"{c['file']:34s} stratum {s}  {len(c['boundaries']):2d} boundaries  -> {side:8s} {mark}")
for side, v in halves.items():
    print(f"{side}: {sum(v['clips'])} clips, {v['bounds']} boundaries")
sys.exit(0 if ok else 1)
