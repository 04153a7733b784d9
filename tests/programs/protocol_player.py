"""A protocol program for the tests: plays by the engine protocol, or breaks it on
purpose. ``protocol_player.py MODE [LOG]``; every line received is appended to LOG.

Modes: ``first`` answers the first legal action; ``garbage`` answers a line that is not
JSON; ``illegal`` answers an action that is not legal; ``exit`` quits at the first
observation; ``slow`` never answers.
"""

import json
import sys
import time

mode = sys.argv[1]
log = open(sys.argv[2], "a", encoding="utf-8") if len(sys.argv) > 2 else None  # noqa: SIM115
for line in sys.stdin:
    if log is not None:
        log.write(line)
        log.flush()
    message = json.loads(line)
    if message["type"] != "observation":
        continue
    if mode == "garbage":
        print("I play the crane", flush=True)
    elif mode == "illegal":
        print(json.dumps({"koikoi": True}) if message["phase"] == "play" else "{}", flush=True)
    elif mode == "exit":
        sys.exit(3)
    elif mode == "slow":
        time.sleep(60)
    else:
        print(json.dumps(message["legal"][0]), flush=True)
