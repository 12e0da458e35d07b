"""The loops that join devices, vision, the engine and the narrator."""
