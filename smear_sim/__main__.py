"""``python -m smear_sim``: the same command line as the ``smear-sim`` console script."""

from .cli import main

if __name__ == "__main__":
    main()
