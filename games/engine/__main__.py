"""`python -m games.engine replay RECORD.json|-` and `python -m games.engine verify RECORD.json|-`."""

import sys


def main(argv: list[str]) -> int:
    usage = "usage: python -m games.engine {replay|verify} FILE|-"
    if len(argv) != 2 or argv[0] not in ("replay", "verify"):
        print(usage, file=sys.stderr)
        return 2
    if argv[0] == "replay":
        from .replay_command import replay_main

        return replay_main(argv[1])
    from .verify import verify_main

    return verify_main(argv[1])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
