"""Adapters to research frameworks: OpenSpiel games and PettingZoo environments."""
