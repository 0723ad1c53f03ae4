"""Playing at the terminal: the screen (pure lines of a seat view) and the game loop."""
