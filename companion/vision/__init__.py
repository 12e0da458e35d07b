"""Pixels to typed readings: QR-tagged cards and dice. OpenCV, numpy and the decoders live here."""
