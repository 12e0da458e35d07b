"""The narrator in the service, started and steered from the phones. On the Pi's speaker
when it has one (one table at a time: there is one speaker); otherwise mixed into a WAV file
that the host's phone plays, with the cue times so that phone can repeat and skip too. Each
table has its own narration: one table's never stops or replaces another's, and each table
keeps at most one WAV file, removed when the table ends.

The scripts come from public information only (the table's view for nobody: what is in play,
the player count), so nothing spoken depends on a secret.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.devices.speaker import SpeakerUnavailable
from companion.engine import EyesClosed
from companion.narration.scripts import (
    NarrationError,
    Script,
    Step,
    build_script,
    eyes_closed,
)
from companion.narration.speech import SpeechError
from companion.narration.timeline import Pacing
from companion.runtime.narrator import NarrationRun, Narrator, Prepared
from companion.runtime.tables import Actor, LiveTable, TableError, TableHub

log = logging.getLogger(__name__)

CONTROLS = ("pause", "resume", "repeat", "skip", "stop")


@dataclass
class _Current:
    table_id: str
    phase: str
    prepared: Prepared
    run: NarrationRun | None  # None: played on the host's phone from a WAV file
    wav: Path | None


class NarrationService:
    def __init__(self, hub: TableHub, narrator: Narrator) -> None:
        self.hub = hub
        self.narrator = narrator
        self._current: dict[str, _Current] = {}  # table -> its narration
        self._lock = threading.Lock()
        self._said: dict[str, set[int]] = {}  # table -> numbers of the records announced
        # table -> (the state they were worked out for, its eyes-closed phases by name)
        self._phases: dict[str, tuple[object, dict[str, EyesClosed]]] = {}
        self._announcing: NarrationRun | None = None
        hub.on_change(self.announce_events)
        hub.on_end(self.forget)
        self._remove_stray_files()

    def announce_events(self, table: LiveTable) -> None:
        """Say aloud what the table should hear at once (the game's announcement of the
        last action's public events)."""
        if table.ended:  # its end is a change too, after forget(): keep nothing for it
            return
        history = table.session.history
        # Each record once: an undo that brings an earlier record back to the end of the log
        # must not say it again (and a new record in an undone one's place is new).
        seen = {n for n in self._said.get(table.id, ()) if n <= len(history)}
        self._said[table.id] = seen
        if not history or history[-1].number in seen:
            return
        seen.add(history[-1].number)
        text = table.session.rules.announce(history[-1].events)
        if text:
            threading.Thread(target=self.announce, args=(text,), daemon=True,
                             name="announce").start()

    def phases_of(self, table: LiveTable) -> dict[str, EyesClosed]:
        """The eyes-closed phases this table has, by name (from its public view). Every
        phone's snapshot asks: worked out once per state of the table."""
        if table.ended:  # nothing to start any more (and nothing kept for it after forget())
            return {}
        session = table.session
        known = self._phases.get(table.id)
        if known is None or known[0] is not session.state:
            known = self._phases[table.id] = (session.state, eyes_closed(
                session.rules, session.view(None), len(session.setup.seats)))
        return known[1]

    def script_for(self, table: LiveTable, phase: str) -> Script:
        phases = self.phases_of(table)
        if phase not in phases:
            raise TableError(400, "no_such_phase",
                             f"this table has no eyes-closed phase {phase!r}")
        return build_script(phases[phase])

    def _speaking(self) -> _Current | None:
        """The narration playing on the speaker now, whichever table it is for."""
        return next((c for c in self._current.values() if c.run and c.run.running), None)

    def wav_file(self, table_id: str) -> Path:
        """A table's one narration file (a new start overwrites it)."""
        return self.narrator.data / "narration" / f"table-{table_id}.wav"

    def forget(self, table: LiveTable) -> None:
        """A table ended: stop its narration and remove its file."""
        with self._lock:
            current = self._current.pop(table.id, None)
            self._said.pop(table.id, None)
            self._phases.pop(table.id, None)
        if current and current.run:
            current.run.playback.stop()
        self.wav_file(table.id).unlink(missing_ok=True)

    def _remove_stray_files(self) -> None:
        """At start, the files of tables that are no longer open (ended, or from an older
        version of the companion)."""
        folder = self.narrator.data / "narration"
        keep = {self.wav_file(t.id).name for t in self.hub.tables()}
        for path in folder.glob("*.wav") if folder.is_dir() else ():
            if path.name not in keep:
                path.unlink(missing_ok=True)

    def announce(self, text: str) -> bool:
        """One short line on the speaker, unless a narration is playing or there is no
        speaker (the phones show it in the log anyway). Whether it was played."""
        with self._lock:
            if self._speaking():
                return False
            try:
                speaker = self.narrator.open_output()
            except SpeakerUnavailable:
                return False
            try:
                script = Script("announcement", "Announcement", (Step("announce", text=text),))
                prepared = self.narrator.prepare(script, Pacing.preset("quick"))
            except (SpeechError, NarrationError) as exc:
                speaker.close()
                log.warning("announcement not spoken: %s", exc)
                return False
            run = self._announcing = self.narrator.play(prepared, speaker)
        run.wait()
        return run.error is None

    def start(self, table: LiveTable, actor: Actor, phase: str) -> dict[str, Any]:
        if not actor.host:
            raise TableError(403, "host_only", "only the host starts a narration")
        script = self.script_for(table, phase)
        if self._announcing is not None:
            self._announcing.wait(10)  # a short line: let it end before the phase begins
        with self._lock:
            playing = self._speaking()
            if playing:
                here = playing.table_id == table.id
                raise TableError(409, "busy", "a narration is playing: stop it first" if here
                                 else "the speaker is reading another table's narration")
            try:
                prepared = self.narrator.prepare(script, Pacing.preset(
                    self.narrator.settings.pacing))
            except (SpeechError, NarrationError) as exc:
                raise TableError(503, "no_voice", str(exc)) from None
            try:
                speaker = self.narrator.open_output()
            except SpeakerUnavailable as exc:
                log.info("narration on the host's phone: %s", exc)
                wav = self.narrator.to_wav(prepared, self.wav_file(table.id))
                self._current[table.id] = _Current(table.id, phase, prepared, None, wav)
            else:
                run = self.narrator.play(prepared, speaker)
                self._current[table.id] = _Current(table.id, phase, prepared, run, None)
                threading.Thread(target=self._follow, args=(table, run), daemon=True,
                                 name="narration-status").start()
        log.info("table %s: narration of %s started", table.id, phase)
        table.touch()
        return self.status(table, actor)

    def _follow(self, table: LiveTable, run: NarrationRun) -> None:
        """Tell the phones when the line or the state changes."""
        last = None
        while True:
            status = run.playback.status()
            key = (status["state"], status["line"])
            if key != last:
                last = key
                table.touch()
            if not run.running:
                table.touch()
                return
            run.wait(0.2)

    def control(self, table: LiveTable, actor: Actor, command: str) -> dict[str, Any]:
        if not actor.host:
            # Everyone else's eyes are closed: a player's tap would be heard, and tell the
            # table who was awake (a captain in play) and when.
            raise TableError(403, "host_only", "only the host steers the narration")
        if command not in CONTROLS:
            raise TableError(400, "bad_request", f"command must be one of {', '.join(CONTROLS)}")
        current = self._current.get(table.id)
        if current is None or current.run is None:
            raise TableError(409, "not_playing",
                             "nothing is playing on the companion's speaker at this table")
        getattr(current.run.playback, command)()
        table.touch()
        return self.status(table, actor)

    def wav_path(self, table: LiveTable) -> Path:
        current = self._current.get(table.id)
        if current is None or current.wav is None:
            raise TableError(404, "no_recording", "no narration is waiting for a phone")
        return current.wav

    def status(self, table: LiveTable, actor: Actor) -> dict[str, Any]:
        current = self._current.get(table.id)
        phases = self.phases_of(table)
        out: dict[str, Any] = {
            "phases": {name: phase.title for name, phase in phases.items()},
            # What every phone shows while the game is in one of them (its view's phase).
            "eyes_closed": [{"phase": p.during, "title": p.title, "instructions": p.instructions}
                            for p in phases.values() if p.during],
            "state": "idle"}
        if current is None:
            return out
        out["phase"] = current.phase
        if current.run is not None:
            out.update(current.run.playback.status())
            if current.run.error:
                out["error"] = current.run.error
        else:
            out["state"] = "on_phone"
            if actor.host:  # the host's phone plays it: it gets the file and the cue times
                out["wav"] = f"/api/tables/{table.id}/narration.wav"
                timeline = current.prepared.timeline
                out["cues"] = [{"start": c.start / timeline.rate, "spoken": c.spoken}
                               for c in timeline.cues]
        return out
