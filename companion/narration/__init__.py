"""The narrator: scripts as data, timelines, offline speech, masking sound, playback."""
