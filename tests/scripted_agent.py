"""A scripted command-line agent for the tests of ``nl2sparql-gen ask``.

``scripted_agent.py --answers FILE --log FILE [--question TEXT]`` (without
``--question`` the question is read from stdin). ``FILE`` maps a question to
what to do: a string is printed; an object may hold ``sleep`` (seconds),
``print``, ``stderr`` and ``exit`` (status). Each call appends one JSON line
to the log: the question exactly as received, and when it started and ended.
"""

import argparse
import json
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--answers", required=True)
parser.add_argument("--log", required=True)
parser.add_argument("--question")
args = parser.parse_args()
question = args.question if args.question is not None else sys.stdin.read()
start = time.time()
with open(args.answers, encoding="utf-8") as fh:
    script = json.load(fh).get(question, "")
if isinstance(script, str):
    script = {"print": script}
time.sleep(script.get("sleep", 0))
if script.get("stderr"):
    print(script["stderr"], file=sys.stderr)
print(script.get("print", ""))
with open(args.log, "a", encoding="utf-8") as fh:
    fh.write(json.dumps({"question": question, "start": start, "end": time.time()}) + "\n")
sys.exit(script.get("exit", 0))
