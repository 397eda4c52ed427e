"""``python -m discloser``: the same command as ``discloser``."""

from ._cli import main

if __name__ == "__main__":
    main()
