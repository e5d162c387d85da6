#!/usr/bin/env python3
"""Convert the MB3-CenterNet COCO detector (TF.js graph model shipped in the npm
package @vladmandic/human, models/centernet.json + centernet.bin) into ONNX.

Usage:  /usr/bin/python3 deploy/centernet_to_onnx.py MODEL_DIR OUT.onnx
        (MODEL_DIR holds centernet.json and the .bin shard(s) it names)
Needs only `onnx` and `numpy`. Idempotent: OUT.onnx is rewritten on every run.

ONNX model (opset 13)
---------------------
  input   images   float32 [N,512,512,3]  NHWC, RGB, values 0..255 (no normalisation:
                   human feeds tf.image.resizeBilinear(frame,[512,512]) of the float32
                   0..255 RGB frame tensor; the graph's first op is the stride-2 conv
                   straight on the input, the scaling is folded into its weights).
                   Resize the FULL frame to 512x512 (aspect ratio not kept), bilinear,
                   align_corners=false, half_pixel_centers=false (tf.image.resizeBilinear
                   defaults: src = dst * inSize/512).
  output  heatmap  float32 [N,128,128,80] = tower_0/keypoints (sigmoid class scores)
  output  wh       float32 [N,128,128,4]  = tower_0/wh (box extents in 512-input pixels)
  N is dynamic.  Internally NCHW; the outputs are transposed back to NHWC.
  H and W are dynamic too: the model was trained at 512, but any side that is a multiple of
  32 runs (the SAME pads of the five stride-2 convs are the same for every such side, and the
  three upsamplings are scales, not sizes); outputs are then H/4 x W/4, extents in input pixels.
  VideoWorld's vw.detect.input-size picks the side (smaller is faster: docs/perception.md, docs/benchmarks.md).

Decode (the TF.js graph's own tower_0/detections part, not converted; per image)
-------------------------------------------------------------------------------
  K = heatmap[b] (128x128x80), W = wh[b] (128x128x4); stride 4.
  1. P = MaxPool(K, 3x3, stride 1, SAME)   (i.e. max over the 3x3 neighbourhood
     clipped at the map border, per class channel independently).
  2. S[y][x][c] = K[y][x][c] if K[y][x][c] == P[y][x][c] else 0   (exact float equality,
     a plateau keeps every equal cell).
  3. Flatten S in NHWC order: idx = (y*128 + x)*80 + c  (0..1310719).
     Take the top 100 by value, descending (TopK sorted=true; on equal values the lower
     idx comes first).  Always exactly 100 rows, even if some scores are 0.
  4. For each picked idx:  c = idx % 80;  x = (idx / 80) % 128;  y = (idx / 80) / 128
     (integer division), score = S value.
     [w0,w1,w2,w3] = W[y][x][0..3]
     x1 = 4*x - w0;  y1 = 4*y - w1;  x2 = 4*x + w2;  y2 = 4*y + w3
     (no +0.5 centre offset, no sub-pixel offset regression, no clipping; coordinates
     are in the 512x512 input space, may fall slightly outside 0..512).
  5. detections row = [x1, y1, x2, y2, score, c]; c is the 0-based COCO-80 index:
     label = labels[c] of human's src/object/labels.ts (0=person, 1=bicycle, 2=car, ...).
  human then: NMS (tf.image.nonMaxSuppression on [y1,x1,y2,x2], maxDetected default 10,
  iouThreshold 0.4, minConfidence 0.2), box/512 * original frame size.

Op mapping notes
----------------
  _FusedConv2D / Conv2D            -> Conv; HWIO weights -> OIHW; fused_ops BiasAdd
                                      (bias input), FusedBatchNorm (folded, uses epsilon),
                                      then Relu / Relu6(Clip 0..6) / Elu / LeakyRelu / Sigmoid
  (Fused)DepthwiseConv2dNative     -> Conv group=Cin, [H,W,Cin,mult] -> [Cin*mult,1,H,W]
  padding SAME                     -> explicit pads as TF computes them (extra pad at
                                      bottom/right), from static shapes for 512x512 input
                                      (the same for any side that is a multiple of 32)
  ResizeBilinear                   -> Resize mode=linear, coordinate_transformation_mode =
                                      align_corners | half_pixel(tf half_pixel_centers) |
                                      asymmetric (both false, the case here); scales
                                      [1,1,2,2] (TF's const size / the input's) so N, H
                                      and W stay dynamic
  Mean(keep_dims, axes NHWC)       -> ReduceMean on the mapped NCHW axes
  ConcatV2 axis                    -> Concat on the mapped axis
  Mul/Add/Sub with consts          -> same op; per-channel consts reshaped to [C,1,1]
  Minimum / Maximum                -> Min / Max (the face descriptor's clip to 0..6)
  Pad (constant)                   -> Pad, the NHWC paddings moved to NCHW axes
  Mean without keep_dims           -> ReduceMean keepdims=0, only over H and W (global pooling to [N,C])
  Relu6 -> Clip(0,6); Relu, Sigmoid, Identity as is.
  Only the subgraph feeding tower_0/keypoints and tower_0/wh is converted (no Reshape
  with a hard-coded batch of 1 remains there); any other op fails loudly.
"""
import base64
import json
import os
import sys

import numpy as np

try:
    import onnx
    from onnx import TensorProto, helper, numpy_helper
except ImportError:  # pragma: no cover
    sys.exit("centernet_to_onnx: needs the 'onnx' python package (Debian: python3-onnx)")

OPSET = 13
INPUT_HW = 512
SRC_INPUT = "tower_0/images"
OUTPUTS = [("tower_0/keypoints", "heatmap"), ("tower_0/wh", "wh")]
NHWC_TO_NCHW_AXIS = {0: 0, 1: 2, 2: 3, 3: 1, -1: 1, -2: 3, -3: 2, -4: 0}


class ConvertError(Exception):
    pass


# ----------------------------------------------------------------------------- loading
def load_graph_model(model_dir, name="centernet"):
    path = os.path.join(model_dir, name + ".json")
    if not os.path.isfile(path):
        raise ConvertError("no %s.json in %s" % (name, model_dir))
    with open(path) as f:
        j = json.load(f)
    nodes = j["modelTopology"]["node"]
    weights = {}
    for group in j["weightsManifest"]:
        buf = b""
        for p in group["paths"]:
            with open(os.path.join(model_dir, p), "rb") as f:
                buf += f.read()
        off = 0
        for w in group["weights"]:
            shape = [int(d) for d in w["shape"]]
            n = int(np.prod(shape)) if shape else 1
            q = w.get("quantization")
            if q:
                qd = q["dtype"]
                if qd == "float16":
                    a = np.frombuffer(buf, np.float16, n, off).astype(np.float32)
                    off += 2 * n
                elif qd in ("uint8", "uint16"):
                    dt = np.uint8 if qd == "uint8" else np.uint16
                    raw = np.frombuffer(buf, dt, n, off).astype(np.float32)
                    off += n * np.dtype(dt).itemsize
                    a = raw * np.float32(q["scale"]) + np.float32(q["min"])
                else:
                    raise ConvertError("weight %s: unknown quantization %s" % (w["name"], qd))
                if w["dtype"] == "int32":
                    a = np.round(a).astype(np.int32)
            else:
                dt = {"float32": np.float32, "int32": np.int32}.get(w["dtype"])
                if dt is None:
                    raise ConvertError("weight %s: unsupported dtype %s" % (w["name"], w["dtype"]))
                a = np.frombuffer(buf, dt, n, off).copy()
                off += 4 * n
            weights[w["name"]] = a.reshape(shape)
        if off != len(buf):
            raise ConvertError("weights manifest covers %d bytes, shards hold %d" % (off, len(buf)))
    return j, nodes, weights


def attr(node, key, default=None):
    a = node.get("attr", {}).get(key)
    if a is None:
        return default
    if "s" in a:
        return base64.b64decode(a["s"]).decode()
    if "list" in a:
        lst = a["list"]
        if "s" in lst:
            return [base64.b64decode(x).decode() for x in lst["s"]]
        if "i" in lst:
            return [int(x) for x in lst["i"]]
        if "f" in lst:
            return [float(x) for x in lst["f"]]
        return []
    if "i" in a:
        return int(a["i"])
    if "f" in a:
        return float(a["f"])
    if "b" in a:
        return bool(a["b"])
    if "type" in a:
        return a["type"]
    return default


def src_name(inp):
    """'^ctrl' control deps are dropped by callers; 'node:1' -> ('node', 1)."""
    if ":" in inp:
        n, i = inp.rsplit(":", 1)
        return n, int(i)
    return inp, 0


# ----------------------------------------------------------------------------- converter
class Converter:
    def __init__(self, nodes, weights):
        self.by_name = {n["name"]: n for n in nodes}
        self.weights = weights
        self.onnx_nodes = []
        self.inits = {}
        self.shape = {}  # tensor name -> static NCHW shape (batch as 1) for 4-D tensors
        self.counter = 0

    # -- helpers
    def uniq(self, base):
        self.counter += 1
        return "%s__%d" % (base, self.counter)

    def const(self, name):
        n = self.by_name.get(name)
        if n is None or n["op"] != "Const":
            raise ConvertError("expected a Const input, got %s" % name)
        if name not in self.weights:
            raise ConvertError("Const %s has no data in the weights manifest" % name)
        return self.weights[name]

    def is_const(self, name):
        n = self.by_name.get(src_name(name)[0])
        return n is not None and n["op"] == "Const"

    def init(self, base, arr):
        name = self.uniq(base)
        self.inits[name] = numpy_helper.from_array(np.ascontiguousarray(arr), name)
        return name

    def add(self, op, inputs, outputs, **kw):
        self.onnx_nodes.append(helper.make_node(op, inputs, outputs, name=outputs[0], **kw))

    @staticmethod
    def tname(tf_input):
        n, i = src_name(tf_input)
        return n if i == 0 else "%s:%d" % (n, i)

    def operand(self, tf_input, out_rank=4):
        """Return an ONNX tensor name for a binary-op operand; consts laid out for NCHW."""
        if not self.is_const(tf_input):
            return self.tname(tf_input)
        a = self.const(src_name(tf_input)[0]).astype(np.float32)
        if a.ndim == 1 and a.size > 1:
            a = a.reshape(-1, 1, 1)  # per-channel (last NHWC axis) -> [C,1,1]
        elif a.ndim == 4:
            a = a.transpose(0, 3, 1, 2)
        elif a.ndim in (2, 3):
            raise ConvertError("rank-%d const operand %s not supported" % (a.ndim, tf_input))
        return self.init(src_name(tf_input)[0], a)

    def sh(self, tf_input):
        s = self.shape.get(self.tname(tf_input))
        if s is None:
            raise ConvertError("no static shape known for %s" % tf_input)
        return s

    @staticmethod
    def same_pads(in_hw, k_hw, strides, dil):
        pads_begin, pads_end, out = [], [], []
        for i, k, s, d in zip(in_hw, k_hw, strides, dil):
            ek = (k - 1) * d + 1
            o = (i + s - 1) // s
            total = max((o - 1) * s + ek - i, 0)
            pads_begin.append(total // 2)
            pads_end.append(total - total // 2)
            out.append(o)
        return pads_begin + pads_end, out

    # -- ops
    def conv(self, node, depthwise):
        op = node["op"]
        ins = [i for i in node["input"] if not i.startswith("^")]
        x = ins[0]
        if attr(node, "data_format", "NHWC") != "NHWC":
            raise ConvertError("%s: data_format %s" % (node["name"], attr(node, "data_format")))
        strides = attr(node, "strides", [1, 1, 1, 1])[1:3]
        dil = attr(node, "dilations", [1, 1, 1, 1])[1:3]
        padding = attr(node, "padding", "VALID")
        w = self.const(src_name(ins[1])[0]).astype(np.float32)
        kh, kw_, cin, cx = w.shape
        if depthwise:
            wt = w.reshape(kh, kw_, cin * cx).transpose(2, 0, 1)[:, None, :, :]
            group, cout = cin, cin * cx
        else:
            wt = w.transpose(3, 2, 0, 1)
            group, cout = 1, cx
        fused = attr(node, "fused_ops", []) if op.startswith("_Fused") or op.startswith("Fused") else []
        extra = ins[2:]
        bias = None
        act = None
        for f in fused:
            if f == "BiasAdd":
                bias = self.const(src_name(extra[0])[0]).astype(np.float32)
                extra = extra[1:]
            elif f == "FusedBatchNorm":
                scale, offset, mean, var = [self.const(src_name(e)[0]).astype(np.float32) for e in extra[:4]]
                extra = extra[4:]
                eps = attr(node, "epsilon", 0.0) or 0.0
                m = scale / np.sqrt(var + np.float32(eps))
                wt = wt * m.reshape(-1, 1, 1, 1)
                bias = offset - mean * m
            elif f in ("Relu", "Relu6", "Elu", "Sigmoid", "LeakyRelu", "Prelu"):
                act = f
            else:
                raise ConvertError("%s: unsupported fused op %s (fused_ops=%s)" % (node["name"], f, fused))
        if bias is not None and bias.shape != (cout,):
            raise ConvertError("%s: bias shape %s != (%d,)" % (node["name"], bias.shape, cout))
        n_, c_, h_, w_ = self.sh(x)
        if c_ != cin:
            raise ConvertError("%s: channel mismatch %d vs %d" % (node["name"], c_, cin))
        if padding == "SAME":
            pads, (oh, ow) = self.same_pads((h_, w_), (kh, kw_), strides, dil)
        elif padding == "VALID":
            pads = [0, 0, 0, 0]
            oh = (h_ - ((kh - 1) * dil[0] + 1)) // strides[0] + 1
            ow = (w_ - ((kw_ - 1) * dil[1] + 1)) // strides[1] + 1
        else:
            raise ConvertError("%s: padding %s not supported" % (node["name"], padding))
        inputs = [self.tname(x), self.init(node["name"] + "/W", wt.astype(np.float32))]
        if bias is not None:
            inputs.append(self.init(node["name"] + "/B", bias.astype(np.float32)))
        out = node["name"]
        conv_out = out if act is None else self.uniq(out + "/conv")
        self.add("Conv", inputs, [conv_out], kernel_shape=[kh, kw_], strides=strides,
                 dilations=dil, pads=pads, group=group)
        if act == "Relu":
            self.add("Relu", [conv_out], [out])
        elif act == "Relu6":
            self.relu6(conv_out, out)
        elif act == "Elu":
            self.add("Elu", [conv_out], [out])
        elif act == "Sigmoid":
            self.add("Sigmoid", [conv_out], [out])
        elif act == "LeakyRelu":
            self.add("LeakyRelu", [conv_out], [out], alpha=float(attr(node, "leakyrelu_alpha", 0.2)))
        elif act == "Prelu":
            alpha = self.const(src_name(extra[0])[0]).astype(np.float32).reshape(-1, 1, 1)
            self.add("PRelu", [conv_out, self.init(out + "/alpha", alpha)], [out])
        self.shape[out] = [1, cout, oh, ow]

    def relu6(self, x, out):
        lo = self.init("relu6_min", np.array(0, np.float32))
        hi = self.init("relu6_max", np.array(6, np.float32))
        self.add("Clip", [x, lo, hi], [out])

    def binary(self, node, onnx_op):
        ins = [i for i in node["input"] if not i.startswith("^")]
        a, b = ins
        if self.is_const(a) and self.is_const(b):
            raise ConvertError("%s: const-only %s not folded" % (node["name"], node["op"]))
        self.add(onnx_op, [self.operand(a), self.operand(b)], [node["name"]])
        shapes = [self.shape.get(self.tname(i)) for i in (a, b) if not self.is_const(i)]
        shapes = [s for s in shapes if s is not None]
        if shapes:
            self.shape[node["name"]] = [max(d) for d in zip(*shapes)] if len(shapes) > 1 else shapes[0]

    def convert_node(self, node):
        op, name = node["op"], node["name"]
        ins = [i for i in node["input"] if not i.startswith("^")]
        if op in ("_FusedConv2D", "Conv2D"):
            self.conv(node, depthwise=False)
        elif op in ("FusedDepthwiseConv2dNative", "DepthwiseConv2dNative"):
            self.conv(node, depthwise=True)
        elif op in ("Mul", "Add", "AddV2", "Sub", "RealDiv", "Minimum", "Maximum"):
            self.binary(node, {"Mul": "Mul", "Add": "Add", "AddV2": "Add", "Sub": "Sub", "RealDiv": "Div",
                               "Minimum": "Min", "Maximum": "Max"}[op])
        elif op == "Pad":
            # constant zero padding; NHWC pads [[n0,n1],[h0,h1],[w0,w1],[c0,c1]] -> ONNX NCHW begins then ends
            p = self.const(src_name(ins[1])[0]).astype(np.int64)
            if p.shape != (4, 2):
                raise ConvertError("%s: paddings of shape %s" % (name, p.shape))
            nchw = p[[0, 3, 1, 2]]
            pads = self.init(name + "/pads", np.concatenate([nchw[:, 0], nchw[:, 1]]).astype(np.int64))
            self.add("Pad", [self.tname(ins[0]), pads], [name], mode="constant")
            self.shape[name] = [d + int(a) + int(b) for d, (a, b) in zip(self.sh(ins[0]), nchw)]
        elif op in ("Relu", "Sigmoid", "Identity", "Tanh", "Elu"):
            self.add(op, [self.tname(ins[0])], [name])
            self.shape[name] = self.sh(ins[0])
        elif op == "Relu6":
            self.relu6(self.tname(ins[0]), name)
            self.shape[name] = self.sh(ins[0])
        elif op == "Mean":
            axes = np.atleast_1d(self.const(src_name(ins[1])[0])).tolist()
            axes = sorted(NHWC_TO_NCHW_AXIS[int(a)] for a in axes)
            keep = bool(attr(node, "keep_dims", False))
            if not keep and axes != [2, 3]:
                raise ConvertError("%s: Mean without keep_dims over %s not supported" % (name, axes))
            # without keep_dims only the spatial mean (global pooling) is taken: [N,C,H,W] -> [N,C]
            self.add("ReduceMean", [self.tname(ins[0])], [name], axes=axes, keepdims=1 if keep else 0)
            s = list(self.sh(ins[0]))
            for a in axes:
                s[a] = 1
            self.shape[name] = s if keep else s[:2]
        elif op == "ConcatV2":
            axis = int(self.const(src_name(ins[-1])[0]))
            axis = NHWC_TO_NCHW_AXIS[axis]
            data = ins[:-1]
            self.add("Concat", [self.tname(i) for i in data], [name], axis=axis)
            s = list(self.sh(data[0]))
            s[axis] = sum(self.sh(i)[axis] for i in data)
            self.shape[name] = s
        elif op == "ResizeBilinear":
            hw = [int(v) for v in self.const(src_name(ins[1])[0]).tolist()]
            ac = bool(attr(node, "align_corners", False))
            hp = bool(attr(node, "half_pixel_centers", False))
            if ac and hp:
                raise ConvertError("%s: align_corners and half_pixel_centers both set" % name)
            mode = "align_corners" if ac else ("half_pixel" if hp else "asymmetric")
            x = self.tname(ins[0])
            s = list(self.sh(ins[0]))
            # Scales, not the TF graph's fixed sizes (exact 2x here), so any input side that is a
            # multiple of 32 runs: the same model at 512 (as trained) or smaller for speed.
            scales = self.init(name + "/scales", np.array([1, 1, hw[0] / s[2], hw[1] / s[3]], np.float32))
            self.add("Resize", [x, "", scales], [name], mode="linear",
                     coordinate_transformation_mode=mode, nearest_mode="floor")
            self.shape[name] = [s[0], s[1], hw[0], hw[1]]
        elif op == "MaxPool" or op == "AvgPool":
            k = attr(node, "ksize")[1:3]
            st = attr(node, "strides")[1:3]
            s = self.sh(ins[0])
            if attr(node, "padding") == "SAME":
                pads, (oh, ow) = self.same_pads(s[2:], k, st, [1, 1])
            else:
                pads = [0, 0, 0, 0]
                oh, ow = (s[2] - k[0]) // st[0] + 1, (s[3] - k[1]) // st[1] + 1
            kw = dict(kernel_shape=k, strides=st, pads=pads)
            if op == "AvgPool":
                kw["count_include_pad"] = 0
            self.add("MaxPool" if op == "MaxPool" else "AveragePool",
                     [self.tname(ins[0])], [name], **kw)
            self.shape[name] = [s[0], s[1], oh, ow]
        elif op == "Reshape":
            # layout-sensitive: go back to NHWC, reshape with the batch taken from the input
            shape = [int(v) for v in self.const(src_name(ins[1])[0]).tolist()]
            if shape and shape[0] == 1:
                shape[0] = 0  # ONNX: 0 copies the input's (dynamic) batch
            t = self.uniq(name + "/nhwc")
            self.add("Transpose", [self.tname(ins[0])], [t], perm=[0, 2, 3, 1])
            self.add("Reshape", [t, self.init(name + "/shape", np.array(shape, np.int64))], [name])
            if len(shape) == 4:
                raise ConvertError("%s: rank-4 Reshape output layout not handled" % name)
        else:
            raise ConvertError("unsupported TF op %s (node %s)" % (op, name))

    def run(self, outputs=OUTPUTS, src_input=SRC_INPUT, input_hw=(INPUT_HW, INPUT_HW), input_name="images"):
        """Converts the subgraph from src_input (fed by an NHWC input_name) to the outputs; the
        outputs are transposed back to NHWC under their new names."""
        # collect the subgraph feeding the wanted outputs
        needed, order, stack = set(), [], [(o, False) for o, _ in outputs]
        while stack:
            name, done = stack.pop()
            if done:
                order.append(name)
                continue
            if name in needed:
                continue
            needed.add(name)
            node = self.by_name.get(name)
            if node is None:
                raise ConvertError("graph has no node %s" % name)
            stack.append((name, True))
            if name == src_input:
                continue
            for i in node.get("input", []):
                if not i.startswith("^"):
                    stack.append((src_name(i)[0], False))
        if src_input not in needed:
            raise ConvertError("outputs do not depend on %s" % src_input)
        self.add("Transpose", [input_name], [src_input], perm=[0, 3, 1, 2])
        self.shape[src_input] = [1, 3, input_hw[0], input_hw[1]]
        count = 0
        for name in order:
            node = self.by_name[name]
            if name == src_input:
                continue
            if node["op"] in ("Const", "Placeholder"):
                if node["op"] == "Placeholder":
                    raise ConvertError("unexpected Placeholder %s" % name)
                continue
            self.convert_node(node)
            count += 1
        for src, dst in outputs:
            self.add("Transpose", [src], [dst], perm=[0, 2, 3, 1])
        return count


def build(model_dir, out_path):
    j, nodes, weights = load_graph_model(model_dir)
    sig_in = j.get("signature", {}).get("inputs", {}).get(SRC_INPUT)
    if sig_in:
        dims = [int(d["size"]) for d in sig_in["tensorShape"]["dim"]]
        if dims[1:] != [INPUT_HW, INPUT_HW, 3]:
            raise ConvertError("unexpected input shape %s" % dims)
    conv = Converter(nodes, weights)
    n_tf = conv.run()
    out_shapes = {"heatmap": 80, "wh": 4}
    for src, dst in OUTPUTS:
        s = conv.shape[src]
        if s[1] != out_shapes[dst] or s[2:] != [INPUT_HW // 4, INPUT_HW // 4]:
            raise ConvertError("%s has shape %s" % (src, s))
    graph = helper.make_graph(
        conv.onnx_nodes, "mb3_centernet",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, ["N", "H", "W", 3])],
        [helper.make_tensor_value_info(dst, TensorProto.FLOAT, ["N", "H/4", "W/4", out_shapes[dst]])
         for _, dst in OUTPUTS],
        initializer=list(conv.inits.values()))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                              producer_name="videoworld-centernet_to_onnx")
    model.ir_version = 7
    model.doc_string = ("MB3-CenterNet COCO detector from @vladmandic/human centernet.json; "
                        "input images NHWC RGB 0..255 512x512, outputs heatmap/wh NHWC stride 4")
    onnx.checker.check_model(model)
    d = os.path.dirname(os.path.abspath(out_path))
    os.makedirs(d, exist_ok=True)
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
        sys.stderr.write("centernet_to_onnx: ERROR: %s\n" % e)
        return 1
    print("centernet_to_onnx: %d TF nodes -> %d ONNX nodes (opset %d), wrote %s (%d bytes)"
          % (n_tf, n_onnx, OPSET, argv[2], size))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
