#!/usr/bin/env python3
"""Convert the face models of the npm package @vladmandic/human (TF.js graph models) into ONNX, with
the op mapping of centernet_to_onnx.py, and check each conversion numerically.

Usage:  /usr/bin/python3 deploy/face_to_onnx.py MODEL_DIR OUT_DIR
        (MODEL_DIR holds blazeface.json, faceres.json and the .bin shards they name)
        writes OUT_DIR/blazeface/model.onnx and OUT_DIR/faceres/model.onnx
Needs only `onnx` and `numpy`. Idempotent: the models are rewritten on every run.

Check: after writing a model, the script evaluates the TF.js graph with numpy, as TensorFlow defines
each op (NHWC, HWIO weights, TF's SAME padding), and the written ONNX graph with numpy, as ONNX defines
each op (NCHW, OIHW weights, explicit pads), on the same pseudo-random image, and fails when the
outputs differ by more than 1e-3 of their range.

blazeface/model.onnx (opset 13): BlazeFace "back" (256x256, 896 anchors, 6 landmarks)
  input   images  float32 [N,256,256,3] NHWC, RGB, values 0..255 (the graph's scaling to -1..1,
                  x/127.5-1 as human feeds it, is put inside). Feed the image resized to 256x256.
  output  raw     float32 [N,896,17]  per anchor: score logit, then box centre (dx, dy) and size
                  (w, h) and 6 landmarks (dx, dy) in pixels of the 256x256 input, the offsets from
                  the anchor's centre. Anchors: the 16x16 grid (stride 16) with 2 per cell, then the
                  8x8 grid (stride 32) with 6 per cell, row by row, centre ((x+0.5)*stride,
                  (y+0.5)*stride). Landmarks: right eye, left eye, nose, mouth, right ear, left ear
                  (the subject's sides).
faceres/model.onnx (opset 13): the face descriptor of human's faceres (a MobileNet)
  input   images  float32 [N,224,224,3] NHWC, RGB, values 0..255: a face crop resized to 224x224.
  output  descriptor float32 [N,1024] the global-pooled features (human's face descriptor); the
                  age and gender heads are not converted.
"""
import os
import sys

import numpy as np

from centernet_to_onnx import NHWC_TO_NCHW_AXIS, ConvertError, Converter, attr, load_graph_model, src_name

try:
    import onnx
    from onnx import TensorProto, helper, numpy_helper
except ImportError:  # pragma: no cover
    sys.exit("face_to_onnx: needs the 'onnx' python package (Debian: python3-onnx)")

OPSET = 13
BF_SIDE = 256
BF_SRC = "input"
BF_PREFIX = "StatefulPartitionedCall/functional_1/"
# (score, regressors) per anchor level, in human's order: the 512 anchors of the 16x16 grid first
BF_LEVELS = [(BF_PREFIX + "tf_op_layer_classificators_1/classificators_1",
              BF_PREFIX + "tf_op_layer_regressors_1/regressors_1", 512),
             (BF_PREFIX + "tf_op_layer_classificators_2/classificators_2",
              BF_PREFIX + "tf_op_layer_regressors_2/regressors_2", 384)]
FR_SIDE = 224
FR_SRC = "input_1"
FR_OUT = "global_pooling/Mean"


def _finish(conv, name, inputs, outputs, doc, out_path):
    graph = helper.make_graph(conv.onnx_nodes, name, inputs, outputs, initializer=list(conv.inits.values()))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                              producer_name="videoworld-face_to_onnx")
    model.ir_version = 7
    model.doc_string = doc
    onnx.checker.check_model(model)
    os.makedirs(os.path.dirname(os.path.abspath(out_path)), exist_ok=True)
    tmp = out_path + ".tmp"
    onnx.save(model, tmp)
    os.replace(tmp, out_path)
    return model


def _scaled_input(conv, side, scale, shift):
    """images (0..255) -> images*scale+shift under 'images_scaled', placed before run()'s nodes."""
    a = conv.init("input_scale", np.array(scale, np.float32))
    b = conv.init("input_shift", np.array(shift, np.float32))
    return [helper.make_node("Mul", ["images", a], ["images_mul"], name="images_mul"),
            helper.make_node("Add", ["images_mul", b], ["images_scaled"], name="images_scaled")]


def build_blazeface(model_dir, out_path):
    _, nodes, weights = load_graph_model(model_dir, "blazeface")
    conv = Converter(nodes, weights)
    wanted = [n for level in BF_LEVELS for n in level[:2]]
    n_tf = conv.run(outputs=[(w, w + "/unused") for w in wanted], src_input=BF_SRC,
                    input_hw=(BF_SIDE, BF_SIDE), input_name="images_scaled")
    conv.onnx_nodes = [n for n in conv.onnx_nodes if not n.output[0].endswith("/unused")]
    conv.onnx_nodes = _scaled_input(conv, BF_SIDE, 1 / 127.5, -1.0) + conv.onnx_nodes
    levels = []
    for score, regress, n in BF_LEVELS:
        out = conv.uniq("level%d" % n)
        conv.add("Concat", [score, regress], [out], axis=2)
        levels.append(out)
    conv.add("Concat", levels, ["raw"], axis=1)
    _finish(conv, "blazeface_back",
            [helper.make_tensor_value_info("images", TensorProto.FLOAT, ["N", BF_SIDE, BF_SIDE, 3])],
            [helper.make_tensor_value_info("raw", TensorProto.FLOAT, ["N", 896, 17])],
            "BlazeFace (back, 256) from @vladmandic/human blazeface.json; input NHWC RGB 0..255 256x256; "
            "output raw [N,896,17] anchor offsets, decoded by the caller", out_path)
    return n_tf, len(conv.onnx_nodes)


def build_faceres(model_dir, out_path):
    _, nodes, weights = load_graph_model(model_dir, "faceres")
    conv = Converter(nodes, weights)
    n_tf = conv.run(outputs=[(FR_OUT, FR_OUT + "/unused")], src_input=FR_SRC, input_hw=(FR_SIDE, FR_SIDE))
    conv.onnx_nodes = [n for n in conv.onnx_nodes if not n.output[0].endswith("/unused")]
    if conv.shape[FR_OUT] != [1, 1024]:
        raise ConvertError("%s has shape %s" % (FR_OUT, conv.shape[FR_OUT]))
    conv.add("Identity", [FR_OUT], ["descriptor"])
    _finish(conv, "faceres",
            [helper.make_tensor_value_info("images", TensorProto.FLOAT, ["N", FR_SIDE, FR_SIDE, 3])],
            [helper.make_tensor_value_info("descriptor", TensorProto.FLOAT, ["N", 1024])],
            "faceres descriptor from @vladmandic/human faceres.json; input NHWC RGB 0..255 224x224 face crop; "
            "output descriptor [N,1024]", out_path)
    return n_tf, len(conv.onnx_nodes)


# ----------------------------------------------------------------------------- numeric check
def _tf_same(size, k, s):
    out = (size + s - 1) // s
    total = max((out - 1) * s + k - size, 0)
    return total // 2, total - total // 2


def _conv_nhwc(x, w, stride, padding, depthwise):
    """TensorFlow's Conv2D / DepthwiseConv2dNative: x NHWC, w HWIO (depthwise: H,W,C,mult)."""
    kh, kw = w.shape[:2]
    if padding == "SAME":
        (t, b), (l, r) = _tf_same(x.shape[1], kh, stride[0]), _tf_same(x.shape[2], kw, stride[1])
        x = np.pad(x, ((0, 0), (t, b), (l, r), (0, 0)))
    oh = (x.shape[1] - kh) // stride[0] + 1
    ow = (x.shape[2] - kw) // stride[1] + 1
    cout = w.shape[2] * w.shape[3] if depthwise else w.shape[3]
    y = np.zeros((x.shape[0], oh, ow, cout), np.float64)
    for i in range(kh):
        for j in range(kw):
            patch = x[:, i:i + stride[0] * (oh - 1) + 1:stride[0], j:j + stride[1] * (ow - 1) + 1:stride[1], :]
            if depthwise:
                y += (patch[..., :, None] * w[i, j][None, None, None]).reshape(y.shape)
            else:
                y += np.tensordot(patch, w[i, j], axes=([3], [0]))
    return y


def eval_tf(nodes, weights, feeds, wanted):
    """numpy evaluation of the TF.js graph (NHWC), the ops these face graphs use."""
    by = {n["name"]: n for n in nodes}
    vals = dict(feeds)

    def get(inp):
        name, idx = src_name(inp)
        if idx != 0:
            raise ConvertError("multi-output %s" % inp)
        if name not in vals:
            vals[name] = compute(by[name])
        return vals[name]

    def compute(n):
        op, ins = n["op"], [i for i in n.get("input", []) if not i.startswith("^")]
        if op == "Const":
            return weights[n["name"]].astype(np.float64)
        if op in ("_FusedConv2D", "Conv2D", "DepthwiseConv2dNative"):
            y = _conv_nhwc(get(ins[0]), get(ins[1]), attr(n, "strides")[1:3], attr(n, "padding"),
                           op == "DepthwiseConv2dNative")
            for f in attr(n, "fused_ops", []) or []:
                if f == "BiasAdd":
                    y = y + get(ins[2])
                elif f == "Relu":
                    y = np.maximum(y, 0)
                else:
                    raise ConvertError("check: fused op %s" % f)
            return y
        if op in ("Add", "AddV2"):
            return get(ins[0]) + get(ins[1])
        if op == "Mul":
            return get(ins[0]) * get(ins[1])
        if op == "Minimum":
            return np.minimum(get(ins[0]), get(ins[1]))
        if op == "Maximum":
            return np.maximum(get(ins[0]), get(ins[1]))
        if op == "Relu":
            return np.maximum(get(ins[0]), 0)
        if op == "Identity":
            return get(ins[0])
        if op == "Pad":
            return np.pad(get(ins[0]), get(ins[1]).astype(int))
        if op == "MaxPool":
            x = get(ins[0])
            k, s = attr(n, "ksize")[1:3], attr(n, "strides")[1:3]
            if attr(n, "padding") == "SAME":
                (t, b), (l, r) = _tf_same(x.shape[1], k[0], s[0]), _tf_same(x.shape[2], k[1], s[1])
                x = np.pad(x, ((0, 0), (t, b), (l, r), (0, 0)), constant_values=-np.inf)
            oh, ow = (x.shape[1] - k[0]) // s[0] + 1, (x.shape[2] - k[1]) // s[1] + 1
            return np.max([x[:, i:i + s[0] * (oh - 1) + 1:s[0], j:j + s[1] * (ow - 1) + 1:s[1], :]
                           for i in range(k[0]) for j in range(k[1])], axis=0)
        if op == "Reshape":
            shape = [int(v) for v in get(ins[1]).tolist()]
            return get(ins[0]).reshape(shape)
        if op == "Mean":
            axes = tuple(int(a) for a in np.atleast_1d(get(ins[1])))
            return get(ins[0]).mean(axis=axes, keepdims=bool(attr(n, "keep_dims", False)))
        raise ConvertError("check: TF op %s" % op)

    return [get(w) for w in wanted]


def _conv_nchw(x, w, b, strides, pads, group):
    """ONNX Conv: x NCHW, w OIHW (I = C/group), pads [top, left, bottom, right]."""
    x = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    o, ipg, kh, kw = w.shape
    oh = (x.shape[2] - kh) // strides[0] + 1
    ow = (x.shape[3] - kw) // strides[1] + 1
    y = np.zeros((x.shape[0], o, oh, ow), np.float64)
    opg = o // group
    for g in range(group):
        xs = x[:, g * ipg:(g + 1) * ipg]
        ws = w[g * opg:(g + 1) * opg]
        for i in range(kh):
            for j in range(kw):
                patch = xs[:, :, i:i + strides[0] * (oh - 1) + 1:strides[0], j:j + strides[1] * (ow - 1) + 1:strides[1]]
                y[:, g * opg:(g + 1) * opg] += np.einsum("nchw,oc->nohw", patch, ws[:, :, i, j])
    if b is not None:
        y += b.reshape(1, -1, 1, 1)
    return y


def _depthwise_nchw(x, w, b, strides, pads):
    x = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    o, _, kh, kw = w.shape
    mult = o // x.shape[1]
    x = np.repeat(x, mult, axis=1)
    oh = (x.shape[2] - kh) // strides[0] + 1
    ow = (x.shape[3] - kw) // strides[1] + 1
    y = np.zeros((x.shape[0], o, oh, ow), np.float64)
    for i in range(kh):
        for j in range(kw):
            y += x[:, :, i:i + strides[0] * (oh - 1) + 1:strides[0], j:j + strides[1] * (ow - 1) + 1:strides[1]] \
                * w[:, 0, i, j].reshape(1, -1, 1, 1)
    if b is not None:
        y += b.reshape(1, -1, 1, 1)
    return y


def eval_onnx(model, feeds):
    """numpy evaluation of the written ONNX graph, the ops the converter emits here."""
    vals = {k: v.astype(np.float64) for k, v in feeds.items()}
    for t in model.graph.initializer:
        vals[t.name] = numpy_helper.to_array(t)
    vals[""] = None
    for n in model.graph.node:
        a = {x.name: helper.get_attribute_value(x) for x in n.attribute}
        ins = [vals[i] for i in n.input]
        op = n.op_type
        if op == "Transpose":
            y = ins[0].transpose(a["perm"])
        elif op in ("Mul", "Add", "Sub", "Div", "Min", "Max"):
            y = {"Mul": np.multiply, "Add": np.add, "Sub": np.subtract, "Div": np.divide,
                 "Min": np.minimum, "Max": np.maximum}[op](ins[0], ins[1])
        elif op == "Relu":
            y = np.maximum(ins[0], 0)
        elif op == "Identity":
            y = ins[0]
        elif op == "Clip":
            y = np.clip(ins[0], ins[1], ins[2])
        elif op == "Conv":
            w, b = ins[1].astype(np.float64), (ins[2] if len(ins) > 2 else None)
            if a.get("group", 1) == ins[0].shape[1] and w.shape[1] == 1 and a.get("group", 1) > 1:
                y = _depthwise_nchw(ins[0], w, b, a["strides"], a["pads"])
            else:
                y = _conv_nchw(ins[0], w, b, a["strides"], a["pads"], a.get("group", 1))
        elif op == "MaxPool":
            p, k, s = a["pads"], a["kernel_shape"], a["strides"]
            x = np.pad(ins[0], ((0, 0), (0, 0), (p[0], p[2]), (p[1], p[3])), constant_values=-np.inf)
            oh, ow = (x.shape[2] - k[0]) // s[0] + 1, (x.shape[3] - k[1]) // s[1] + 1
            y = np.max([x[:, :, i:i + s[0] * (oh - 1) + 1:s[0], j:j + s[1] * (ow - 1) + 1:s[1]]
                        for i in range(k[0]) for j in range(k[1])], axis=0)
        elif op == "Pad":
            p = ins[1].astype(int)
            r = len(p) // 2
            y = np.pad(ins[0], [(p[i], p[i + r]) for i in range(r)])
        elif op == "Reshape":
            shape = [ins[0].shape[i] if d == 0 else int(d) for i, d in enumerate(ins[1].tolist())]
            y = ins[0].reshape(shape)
        elif op == "Concat":
            y = np.concatenate(ins, axis=a["axis"])
        elif op == "ReduceMean":
            y = ins[0].mean(axis=tuple(a["axes"]), keepdims=bool(a.get("keepdims", 1)))
        else:
            raise ConvertError("check: ONNX op %s" % op)
        vals[n.output[0]] = y
    return [vals[o.name] for o in model.graph.output]


def check(model_dir, name, out_path, side, tf_input, tf_outputs, tf_feed, combine):
    rng = np.random.default_rng(7)
    img = rng.uniform(0, 255, (1, side, side, 3))
    # smooth it a little so the activations look like an image's, not noise's
    img = (img + np.roll(img, 1, 1) + np.roll(img, 1, 2) + np.roll(img, (1, 1), (1, 2))) / 4
    _, nodes, weights = load_graph_model(model_dir, name)
    want = combine(eval_tf(nodes, weights, {tf_input: tf_feed(img)}, tf_outputs))
    got = eval_onnx(onnx.load(out_path), {"images": img})[0]
    if got.shape != want.shape:
        raise ConvertError("check %s: ONNX output %s, TF graph %s" % (name, got.shape, want.shape))
    scale = float(np.max(want) - np.min(want)) or 1.0
    err = float(np.max(np.abs(got - want))) / scale
    if err > 1e-3:
        raise ConvertError("check %s: ONNX and TF graph differ by %.3g of the output range" % (name, err))
    return err


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: %s MODEL_DIR OUT_DIR\n" % argv[0])
        return 2
    src, out = argv[1], argv[2]
    try:
        bf = os.path.join(out, "blazeface", "model.onnx")
        n_tf, n_onnx = build_blazeface(src, bf)
        err = check(src, "blazeface", bf, BF_SIDE, BF_SRC, [n for lv in BF_LEVELS for n in lv[:2]],
                    lambda img: img / 127.5 - 1,
                    lambda o: np.concatenate([np.concatenate(o[0:2], 2), np.concatenate(o[2:4], 2)], 1))
        print("face_to_onnx: blazeface %d TF nodes -> %d ONNX nodes, wrote %s; check: max difference %.2g of range"
              % (n_tf, n_onnx, bf, err))
        fr = os.path.join(out, "faceres", "model.onnx")
        n_tf, n_onnx = build_faceres(src, fr)
        err = check(src, "faceres", fr, FR_SIDE, FR_SRC, [FR_OUT], lambda img: img, lambda o: o[0])
        print("face_to_onnx: faceres %d TF nodes -> %d ONNX nodes, wrote %s; check: max difference %.2g of range"
              % (n_tf, n_onnx, fr, err))
    except ConvertError as e:
        sys.stderr.write("face_to_onnx: ERROR: %s\n" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
