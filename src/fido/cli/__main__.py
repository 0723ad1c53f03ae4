"""``python -m fido.cli``: the ``fido`` command."""

from fido.cli.main import main

if __name__ == "__main__":
    main()
