"""A built-in player of an earlier commit, as an engine-protocol program (``cmd:``).

To measure a player against the one it replaces, check the old commit out beside
this one and let the old code play through the protocol, as any outside AI would:

    git worktree add --detach /tmp/past COMMIT
    koikoi tournament --pairs "expert:cmd:python bench/past_player.py --src /tmp/past/src" ...

The observation is rebuilt from its protocol JSON with the old code's own classes, so
the old player sees what the referee sends and nothing else. Runs on this
interpreter, with ``--src`` first on the import path (the old code must not be mixed
with this checkout's, so nothing of koikoi is imported before it).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", required=True, help="the old checkout's src folder")
    parser.add_argument("--player", default="expert", help="a built-in player's name")
    parser.add_argument("--rollouts", type=int, help="the expert's rollouts per move")
    args = parser.parse_args()
    sys.path.insert(0, args.src)
    # Imported only now: from the old checkout, which is first on the path.
    from koikoi.cards import card_from_slug, cards_from_slugs
    from koikoi.players import make_player
    from koikoi.round import (
        Event,
        MatchView,
        Observation,
        Phase,
        action_from_json,
        action_to_json,
    )
    from koikoi.rules import RuleSet

    def observation(data: dict[str, Any]) -> Observation:
        view = data["match"]
        pending = data["pending"]
        return Observation(
            seat=data["seat"],
            rules=RuleSet.from_mapping(data["rules"]),
            phase=Phase(data["phase"]),
            turn=data["turn"],
            dealer=data["dealer"],
            month=data["month"],
            hand=cards_from_slugs(data["hand"]),
            opponent_hand_size=data["opponent_hand"],
            field=cards_from_slugs(data["field"]),
            captured=(cards_from_slugs(data["captured"][0]), cards_from_slugs(data["captured"][1])),
            stock_size=data["stock"],
            pending_card=None if pending is None else card_from_slug(pending),
            legal_actions=tuple(action_from_json(action) for action in data["legal"]),
            calls=(data["calls"][0], data["calls"][1]),
            yaku=(data["yaku"][0], data["yaku"][1]),
            decided=(data["decided"][0], data["decided"][1]),
            history=tuple(
                Event(
                    event["seat"],
                    event["source"],
                    card_from_slug(event["card"]),
                    cards_from_slugs(event["captured"]),
                )
                for event in data["history"]
            ),
            result=None,
            match=None
            if view is None
            else MatchView(
                view["round"], view["rounds"], tuple(view["totals"]), view["target_score"]
            ),
        )

    player = None
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            options = {} if args.rollouts is None else {"rollouts": args.rollouts}
            player = make_player(args.player, message["seed"], **options)
        elif message["type"] == "observation":
            assert player is not None, "an observation before the start message"
            action = player.choose(observation(message))
            print(json.dumps(action_to_json(action)), flush=True)
        else:
            break


if __name__ == "__main__":
    main()
