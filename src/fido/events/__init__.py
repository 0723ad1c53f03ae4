"""Events: championships and cups (seat draws, rounds, standings)."""
