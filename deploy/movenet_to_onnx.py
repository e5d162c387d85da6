#!/usr/bin/env python3
"""Convert MoveNet Lightning (single-person body pose, 17 COCO keypoints; the TF.js graph model
shipped in the npm package @vladmandic/human, models/movenet-lightning.json + .bin) into ONNX,
with the op mapping of centernet_to_onnx.py.

Usage:  /usr/bin/python3 deploy/movenet_to_onnx.py MODEL_DIR OUT.onnx
Needs only `onnx` and `numpy`. Idempotent: OUT.onnx is rewritten on every run.

ONNX model (opset 13)
---------------------
  input   images   float32 [N,192,192,3] NHWC, RGB, values 0..255 (the graph's int32 input cast
                   to float; its scaling to -1..1 is kept inside). Feed a square crop around the
                   person resized to 192x192.
  output  heatmap  float32 [N,48,48,17]  keypoint heatmaps (sigmoid)
  output  center   float32 [N,48,48,1]   person-centre heatmap (sigmoid) already multiplied by the
                   graph's fixed centre-prior map (ConstantFolding/.../truediv_2_recip)
  output  regress  float32 [N,48,48,34]  per cell, keypoint k's (dy, dx) from that cell, in cells
  output  offset   float32 [N,48,48,34]  per cell, keypoint k's sub-cell (dy, dx)

Decode (the graph's own tail, not converted: ArgMax/GatherNd; done by the caller per image)
------------------------------------------------------------------------------------------
  1. (cy, cx) = argmax of center (first maximum in row-major order).
  2. for keypoint k: ry = cy + regress[cy,cx,2k], rx = cx + regress[cy,cx,2k+1].
  3. score map s[y,x] = heatmap[y,x,k] / (sqrt((y-ry)^2 + (x-rx)^2) + 1.7998047);
     (ky, kx) = argmax of s.
  4. y = (ky + offset[ky,kx,2k]) * 0.020828247, x = (kx + offset[ky,kx,2k+1]) * 0.020828247
     (both in 0..1 of the 192x192 input), confidence = heatmap[ky,kx,k].
  Keypoints in COCO order: nose, left/right eye, left/right ear, left/right shoulder, left/right
  elbow, left/right wrist, left/right hip, left/right knee, left/right ankle.
"""
import os
import sys

import numpy as np

from centernet_to_onnx import ConvertError, Converter, load_graph_model

try:
    import onnx
    from onnx import TensorProto, helper
except ImportError:  # pragma: no cover
    sys.exit("movenet_to_onnx: needs the 'onnx' python package (Debian: python3-onnx)")

NAME = "movenet-lightning"
SIDE = 192
CELLS = SIDE // 4
SRC = "StatefulPartitionedCall/stack"  # the float image, after the int32 cast
CENTER = "StatefulPartitionedCall/Sigmoid_1"
CENTER_PRIOR = "ConstantFolding/StatefulPartitionedCall/truediv_2_recip"
OUTS = [
    ("StatefulPartitionedCall/Sigmoid", "heatmap", 17),
    ("StatefulPartitionedCall/kpt_regress_0/conv2d_6/BiasAdd", "regress", 34),
    ("StatefulPartitionedCall/kpt_offset_0/conv2d_7/BiasAdd", "offset", 34),
]


def build(model_dir, out_path):
    j, nodes, weights = load_graph_model(model_dir, NAME)
    conv = Converter(nodes, weights)
    wanted = [(src, dst) for src, dst, _ in OUTS] + [(CENTER, CENTER)]
    n_tf = conv.run(outputs=[(s, s + "/nhwc") for s, _ in wanted], src_input=SRC, input_hw=(SIDE, SIDE))
    # the Transposes run() appended are replaced by ours: drop them and lay out the outputs here
    conv.onnx_nodes = [n for n in conv.onnx_nodes if not n.output[0].endswith("/nhwc")]
    for src, dst, ch in OUTS:
        s = conv.shape[src]
        if s != [1, ch, CELLS, CELLS]:
            raise ConvertError("%s has shape %s" % (src, s))
        conv.add("Transpose", [src], [dst], perm=[0, 2, 3, 1])
    prior = conv.const(CENTER_PRIOR).astype(np.float32)
    if prior.shape != (CELLS, CELLS, 1):
        raise ConvertError("centre prior has shape %s" % (prior.shape,))
    weighted = conv.uniq("center_weighted")
    conv.add("Mul", [CENTER, conv.init("center_prior", prior.reshape(1, 1, CELLS, CELLS))], [weighted])
    conv.add("Transpose", [weighted], ["center"], perm=[0, 2, 3, 1])
    outs = [(dst, ch) for _, dst, ch in OUTS] + [("center", 1)]
    graph = helper.make_graph(
        conv.onnx_nodes, "movenet_lightning",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, ["N", SIDE, SIDE, 3])],
        [helper.make_tensor_value_info(d, TensorProto.FLOAT, ["N", CELLS, CELLS, ch]) for d, ch in outs],
        initializer=list(conv.inits.values()))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                              producer_name="videoworld-movenet_to_onnx")
    model.ir_version = 7
    model.doc_string = ("MoveNet Lightning from @vladmandic/human movenet-lightning.json; input NHWC RGB 0..255 "
                        "192x192; outputs heatmap/center/regress/offset NHWC 48x48, decoded by the caller")
    onnx.checker.check_model(model)
    os.makedirs(os.path.dirname(os.path.abspath(out_path)), exist_ok=True)
    tmp = out_path + ".tmp"
    onnx.save(model, tmp)
    os.replace(tmp, out_path)
    return n_tf, len(conv.onnx_nodes), os.path.getsize(out_path)


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: %s MODEL_DIR OUT.onnx\n" % argv[0])
        return 2
    try:
        n_tf, n_onnx, size = build(argv[1], argv[2])
    except ConvertError as e:
        sys.stderr.write("movenet_to_onnx: ERROR: %s\n" % e)
        return 1
    print("movenet_to_onnx: %d TF nodes -> %d ONNX nodes, wrote %s (%d bytes)" % (n_tf, n_onnx, argv[2], size))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
