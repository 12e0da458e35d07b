#!/usr/bin/env python3
"""Write fixtures/voice/hum.onnx(.json): a Piper-format "voice" that hums instead of speaking.

It has a real Piper voice's inputs, outputs and config, so the tests run the real piper-tts
package (espeak phonemes, phoneme ids, onnxruntime, WAV writing) without a multi-megabyte
neural voice: every phoneme id becomes 256 samples (times Piper's length scale) of a
172 Hz tone. Needs the `onnx`
package (only for writing the fixture):  python tools/make_piper_fixture.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper

OUT = Path(__file__).resolve().parents[1] / "fixtures" / "voice"
RATE = 22050
SAMPLES_PER_ID = 256
# Phonemes espeak-ng produces for English, plus Piper's pad (_), start (^) and end ($).
PHONEMES = (
    "_^$ !'(),-.:;?abcdefhijklmnopqrstuvwxyzæ"
    "çðøħŋœǀǁǂǃɐɑɒɓɔɕɖɗɘəɚɛɜɞɟɠɡɢɣɤɥɦɧɨɪɫɬɭɮɯ"
    "ɰɱɲɳɴɵɶɸɹɺɻɽɾʀʁʂʃʄʈʉʊʋʌʍʎʏʐʑʒʔʕʘʙʛʜʝʟʡʢʲ"
    "ˈˌːˑ˞βθχᵻⱱ"
)


def model() -> onnx.ModelProto:
    """samples = ids x 256 x length_scale; output = 0.5 sin(2 pi 172 Hz t)."""
    nodes = [
        helper.make_node("Shape", ["input"], ["dims"]),
        helper.make_node("Gather", ["dims", "one_i"], ["n"], axis=0),
        helper.make_node("Cast", ["n"], ["n_f"], to=TensorProto.FLOAT),
        helper.make_node("Gather", ["scales", "one_i"], ["length_scale"], axis=0),
        helper.make_node("Mul", ["n_f", "per_id"], ["base"]),
        helper.make_node("Mul", ["base", "length_scale"], ["total_f"]),
        helper.make_node("Range", ["zero_f", "total_f", "one_f"], ["t"]),
        helper.make_node("Mul", ["t", "omega"], ["phase"]),
        helper.make_node("Sin", ["phase"], ["wave"]),
        helper.make_node("Mul", ["wave", "half"], ["quiet"]),
        helper.make_node("Reshape", ["quiet", "shape"], ["output"]),
    ]
    scalar = TensorProto.FLOAT
    init = [
        helper.make_tensor("one_i", TensorProto.INT64, [], [1]),
        helper.make_tensor("per_id", scalar, [], [float(SAMPLES_PER_ID)]),
        helper.make_tensor("zero_f", scalar, [], [0.0]),
        helper.make_tensor("one_f", scalar, [], [1.0]),
        helper.make_tensor("omega", scalar, [], [float(2 * np.pi * (RATE / 128) / RATE)]),
        helper.make_tensor("half", scalar, [], [0.5]),
        helper.make_tensor("shape", TensorProto.INT64, [3], [1, 1, -1]),
    ]
    graph = helper.make_graph(
        nodes, "hum",
        [helper.make_tensor_value_info("input", TensorProto.INT64, [1, "n"]),
         helper.make_tensor_value_info("input_lengths", TensorProto.INT64, [1]),
         helper.make_tensor_value_info("scales", TensorProto.FLOAT, [3])],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 1, "samples"])],
        init)
    made = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    made.ir_version = 8
    onnx.checker.check_model(made)
    return made


def config() -> dict[str, object]:
    return {
        "audio": {"sample_rate": RATE},
        "espeak": {"voice": "en-us"},
        "inference": {"noise_scale": 0.667, "length_scale": 1.0, "noise_w": 0.8},
        "phoneme_type": "espeak",
        "phoneme_id_map": {p: [i] for i, p in enumerate(PHONEMES)},
        "num_symbols": len(PHONEMES),
        "num_speakers": 1,
        "piper_version": "1.0.0",
        "dataset": "hum (a test fixture, not a voice)",
    }


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    onnx.save(model(), OUT / "hum.onnx")
    (OUT / "hum.onnx.json").write_text(json.dumps(config(), ensure_ascii=False, indent=1) + "\n")
    print(f"wrote {OUT / 'hum.onnx'}")
