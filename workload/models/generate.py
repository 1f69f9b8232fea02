#!/usr/bin/env python3
"""Writes the bundled workload files (<name>.json in this folder) from the layer tables of the
models' papers. The JSON files are what the library reads; this script records how each layer's
geometry follows from its paper, and rewrites the files byte for byte (run it from anywhere).

Conventions (README.md in this folder): a convolution's ifmap size includes its zero padding
(SCALE-Sim's topology convention), pooling, normalisation, activation and softmax layers do no
multiply-accumulate on the systolic array and are left out, and parameters are the GEMM weights
(no biases, no normalisation scales)."""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def conv(name, size, filt, channels, filters, stride=1, pad=None, instances=1):
    """A square convolution over a size x size map; `pad` defaults to 'same' padding."""
    pad = (filt - 1) // 2 if pad is None else pad
    layer = {"name": name, "kind": "conv", "ifmap_h": size + 2 * pad, "ifmap_w": size + 2 * pad,
             "filter_h": filt, "filter_w": filt, "channels": channels, "filters": filters,
             "stride": stride}
    if instances != 1:
        layer["instances"] = instances
    return layer


def fc(name, inputs, outputs, instances=1):
    layer = {"name": name, "kind": "fc", "inputs": inputs, "outputs": outputs}
    if instances != 1:
        layer["instances"] = instances
    return layer


def gemm(name, m, k, n, kind="gemm", instances=1, tied_to=None):
    layer = {"name": name, "kind": kind, "m": m, "k": k, "n": n}
    if instances != 1:
        layer["instances"] = instances
    if tied_to:
        layer["tied_to"] = tied_to
    return layer


def embedding(name, rows, dim, lookups, tied_to=None):
    layer = {"name": name, "kind": "embedding", "rows": rows, "dim": dim, "lookups": lookups}
    if tied_to:
        layer["tied_to"] = tied_to
    return layer


def alexnet():
    # Krizhevsky et al. 2012, §3.5 and Fig. 2: five convolutions and three fully connected
    # layers. The 224x224 input of the paper's text needs 227x227 for its 55x55 conv1 output
    # ((227 - 11) / 4 + 1 = 55). The two-GPU split (conv2, conv4, conv5 seeing half the
    # channels) is not kept: one accelerator holds the whole layer, as in SCALE-Sim's file.
    return [
        conv("conv1", 227, 11, 3, 96, stride=4, pad=0),   # 55x55x96, pooled to 27x27
        conv("conv2", 27, 5, 96, 256),                   # 27x27x256, pooled to 13x13
        conv("conv3", 13, 3, 256, 384),
        conv("conv4", 13, 3, 384, 384),
        conv("conv5", 13, 3, 384, 256),                  # pooled to 6x6x256 = 9216
        fc("fc6", 9216, 4096),
        fc("fc7", 4096, 4096),
        fc("fc8", 4096, 1000),
    ]


def alphagozero():
    # Silver et al. 2017, Methods "Neural network architecture": a 19x19x17 input, one 3x3
    # convolution of 256 filters, a tower of residual blocks (two 3x3 convolutions of 256
    # filters each), a policy head (1x1 convolution of 2 filters, fully connected to 19*19+1
    # moves) and a value head (1x1 convolution of 1 filter, fully connected to 256, then to 1).
    # The 20-block network: the first convolution and 19 residual blocks.
    layers = [conv("conv", 19, 3, 17, 256)]
    for b in range(1, 20):
        layers += [conv(f"res{b}_conv1", 19, 3, 256, 256), conv(f"res{b}_conv2", 19, 3, 256, 256)]
    layers += [
        conv("policy_conv", 19, 1, 256, 2),
        fc("policy_fc", 2 * 19 * 19, 19 * 19 + 1),
        conv("value_conv", 19, 1, 256, 1),
        fc("value_fc1", 19 * 19, 256),
        fc("value_fc2", 256, 1),
    ]
    return layers


def resnet_stage(stage, blocks, size_in, channels_in, width, stride, instances=1):
    """Bottleneck blocks of He et al. 2016 (Table 1, Fig. 5 right): 1x1 width, 3x3 width,
    1x1 4*width, and a 1x1 projection shortcut in the first block. The first block's first 1x1
    convolution and its shortcut carry the stride (§3.3 and §4.1: conv3_1, conv4_1 and conv5_1
    downsample with a stride of 2)."""
    layers = []
    size = size_in // stride
    for b in range(blocks):
        tag = f"conv{stage}_{b + 1}"
        cin = channels_in if b == 0 else 4 * width
        s = stride if b == 0 else 1
        first_size = size_in if b == 0 else size
        layers += [
            conv(f"{tag}_a", first_size, 1, cin, width, stride=s, instances=instances),
            conv(f"{tag}_b", size, 3, width, width, instances=instances),
            conv(f"{tag}_c", size, 1, width, 4 * width, instances=instances),
        ]
        if b == 0:
            layers.append(conv(f"{tag}_proj", first_size, 1, cin, 4 * width, stride=s,
                               instances=instances))
    return layers


def resnet50_trunk():
    # He et al. 2016, Table 1, 50-layer column: conv1 7x7/2 of 64 over a 224x224 image (padding
    # 3), 3x3/2 max pooling to 56x56, then conv2_x to conv4_x.
    return ([conv("conv1", 224, 7, 3, 64, stride=2, pad=3)]
            + resnet_stage(2, 3, 56, 64, 64, 1)
            + resnet_stage(3, 4, 56, 256, 128, 2)
            + resnet_stage(4, 6, 28, 512, 256, 2))


def resnet50():
    # conv5_x, global average pooling and the 1000-way fully connected layer.
    return resnet50_trunk() + resnet_stage(5, 3, 14, 1024, 512, 2) + [fc("fc", 2048, 1000)]


def fasterrcnn():
    # Ren et al. 2015 on the ResNet-50 backbone of He et al. 2016 (§4.3 and Appendix A, the
    # "C4" arrangement that SCALE-Sim's MLPerf file follows): conv1 to conv4_x shared over the
    # 224x224 image (14x14x1024); the region proposal network (Ren et al. §3.1: a 3x3
    # convolution of 512 filters, then sibling 1x1 convolutions with 2k objectness scores and
    # 4k box coordinates for k = 9 anchors); the detection head conv5_x on each region of
    # interest pooled to 14x14x1024 (stride 2 in conv5_1, to 7x7x2048), average pooled, and
    # sibling fully connected layers for 21 classes (PASCAL VOC: 20 and background) and 4 box
    # coordinates per class. The head runs on 64 regions per image: Ren et al. train the detector
    # as Fast R-CNN does (Girshick 2015, §2.3: 128 regions from 2 images per mini-batch).
    rois = 64
    return (resnet50_trunk() + [
        conv("rpn_conv", 14, 3, 1024, 512),
        conv("rpn_cls", 14, 1, 512, 2 * 9),
        conv("rpn_bbox", 14, 1, 512, 4 * 9),
    ] + resnet_stage(5, 3, 14, 1024, 512, 2, instances=rois) + [
        fc("cls_score", 2048, 21, instances=rois),
        fc("bbox_pred", 2048, 4 * 21, instances=rois),
    ])


def inception(tag, size, cin, n1, n3r, n3, n5r, n5, pool_proj):
    """One inception module of Szegedy et al. 2015 (Table 1, Fig. 2b), its branches in the
    table's column order; the pool projection runs on the 3x3/1 max-pooled input."""
    return [
        conv(f"{tag}_1x1", size, 1, cin, n1),
        conv(f"{tag}_3x3_reduce", size, 1, cin, n3r),
        conv(f"{tag}_3x3", size, 3, n3r, n3),
        conv(f"{tag}_5x5_reduce", size, 1, cin, n5r),
        conv(f"{tag}_5x5", size, 5, n5r, n5),
        conv(f"{tag}_pool_proj", size, 1, cin, pool_proj),
    ]


def googlenet():
    # Szegedy et al. 2015, Table 1: the network without its two auxiliary classifiers (6.8M
    # parameters, the table's total).
    return ([
        conv("conv1", 224, 7, 3, 64, stride=2, pad=3),  # 112x112, pooled to 56x56
        conv("conv2_reduce", 56, 1, 64, 64),
        conv("conv2", 56, 3, 64, 192),                   # pooled to 28x28
    ]
        + inception("inception_3a", 28, 192, 64, 96, 128, 16, 32, 32)
        + inception("inception_3b", 28, 256, 128, 128, 192, 32, 96, 64)  # pooled to 14x14
        + inception("inception_4a", 14, 480, 192, 96, 208, 16, 48, 64)
        + inception("inception_4b", 14, 512, 160, 112, 224, 24, 64, 64)
        + inception("inception_4c", 14, 512, 128, 128, 256, 24, 64, 64)
        + inception("inception_4d", 14, 512, 112, 144, 288, 32, 64, 64)
        + inception("inception_4e", 14, 528, 256, 160, 320, 32, 128, 128)  # pooled to 7x7
        + inception("inception_5a", 7, 832, 256, 160, 320, 32, 128, 128)
        + inception("inception_5b", 7, 832, 384, 192, 384, 48, 128, 128)
        + [fc("fc", 1024, 1000)])


def ncf():
    # He et al. 2017 (NeuMF, §3.4 and Fig. 3): GMF embeddings of 8 factors, MLP embeddings of 32
    # for user and item (concatenated to 64), an MLP tower 64 -> 32 -> 16 -> 8, and the NeuMF
    # layer over the concatenated GMF and MLP vectors (8 + 8) to one score; predictive factors
    # 8, the paper's default and SCALE-Sim's file's. Rows: MovieLens-20M, 138,493 users and
    # 26,744 items (the MLPerf recommendation data set SCALE-Sim's file sizes its tables for).
    users, items = 138493, 26744
    return [
        embedding("gmf_user_embedding", users, 8, 1),
        embedding("gmf_item_embedding", items, 8, 1),
        embedding("mlp_user_embedding", users, 32, 1),
        embedding("mlp_item_embedding", items, 32, 1),
        fc("mlp_fc1", 64, 32),
        fc("mlp_fc2", 32, 16),
        fc("mlp_fc3", 16, 8),
        fc("neumf_predict", 16, 1),
    ]


def attention(tag, tokens, kv_tokens, d_model=512, heads=8):
    """Multi-head attention of Vaswani et al. 2017 (§3.2.2): query, key and value projections
    (all heads together), the scores Q K^T per head, the weighted sum of values per head, the
    output projection."""
    d_k = d_model // heads
    return [
        gemm(f"{tag}_query", tokens, d_model, d_model),
        gemm(f"{tag}_key", kv_tokens, d_model, d_model),
        gemm(f"{tag}_value", kv_tokens, d_model, d_model),
        gemm(f"{tag}_scores", tokens, d_k, kv_tokens, kind="matmul", instances=heads),
        gemm(f"{tag}_context", tokens, kv_tokens, d_k, kind="matmul", instances=heads),
        gemm(f"{tag}_output", tokens, d_model, d_model),
    ]


def feed_forward(tag, tokens, d_model=512, d_ff=2048):
    return [gemm(f"{tag}_ffn1", tokens, d_model, d_ff), gemm(f"{tag}_ffn2", tokens, d_ff, d_model)]


def transformer():
    # Vaswani et al. 2017, the base model (Table 3): d_model 512, d_ff 2048, 8 heads, 6 encoder
    # and 6 decoder layers; a shared source-target vocabulary of 37,000 tokens (§5.1, WMT 2014
    # English-German) whose embedding matrix the decoder's embedding and the pre-softmax
    # projection share (§3.4). 64 source and 64 target tokens per sample: the 64x64 attention
    # products of SCALE-Sim's Transformer file.
    vocab, tokens, d_model = 37000, 64, 512
    layers = [embedding("encoder_embedding", vocab, d_model, tokens)]
    for i in range(1, 7):
        layers += attention(f"enc{i}_self", tokens, tokens) + feed_forward(f"enc{i}", tokens)
    layers.append(embedding("decoder_embedding", vocab, d_model, tokens,
                            tied_to="encoder_embedding"))
    for i in range(1, 7):
        layers += (attention(f"dec{i}_self", tokens, tokens)
                   + attention(f"dec{i}_cross", tokens, tokens)
                   + feed_forward(f"dec{i}", tokens))
    layers.append(gemm("output_projection", tokens, d_model, vocab, tied_to="encoder_embedding"))
    return layers


MODELS = {
    "alexnet": (alexnet, "AlexNet: Krizhevsky, Sutskever, Hinton, \"ImageNet Classification with "
                "Deep Convolutional Neural Networks\", NIPS 2012, section 3.5 and Fig. 2"),
    "alphagozero": (alphagozero, "AlphaGo Zero: Silver et al., \"Mastering the game of Go "
                    "without human knowledge\", Nature 2017, Methods (neural network "
                    "architecture), the 20-block network"),
    "fasterrcnn": (fasterrcnn, "Faster R-CNN: Ren, He, Girshick, Sun, \"Faster R-CNN: Towards "
                   "Real-Time Object Detection with Region Proposal Networks\", NIPS 2015, on the "
                   "ResNet-50 C4 backbone of He et al., CVPR 2016 (section 4.3, Appendix A)"),
    "googlenet": (googlenet, "GoogLeNet: Szegedy et al., \"Going Deeper with Convolutions\", "
                  "CVPR 2015, Table 1"),
    "ncf": (ncf, "NCF: He et al., \"Neural Collaborative Filtering\", WWW 2017, NeuMF (section "
            "3.4) with predictive factors 8; MovieLens-20M table sizes"),
    "resnet50": (resnet50, "ResNet-50: He, Zhang, Ren, Sun, \"Deep Residual Learning for Image "
                 "Recognition\", CVPR 2016, Table 1 (50-layer)"),
    "transformer": (transformer, "Transformer: Vaswani et al., \"Attention Is All You Need\", "
                    "NIPS 2017, the base model (Table 3)"),
}

NOTES = {
    "alexnet": ["conv1's ifmap is 227x227: the 55x55 output of the paper's Fig. 2 needs it.",
                "The two-GPU split of conv2, conv4 and conv5 is not kept; the fully connected "
                "layers are included (SCALE-Sim's alexnet.csv has the five convolutions only)."],
    "alphagozero": ["19 residual blocks (SCALE-Sim's AlphaGoZero.csv lists one)."],
    "fasterrcnn": ["The image is 224x224, as in SCALE-Sim's FasterRCNN.csv; the detection head "
                   "(conv5_x and the classifier, absent from that file) runs on 64 regions of "
                   "interest per image (instances)."],
    "googlenet": ["The auxiliary classifiers are left out."],
    "ncf": ["Embedding lookups do no multiply-accumulate; their gradients are dense tables, as "
            "a data-parallel all-reduce sums them."],
    "transformer": ["The decoder embedding and the output projection are tied to the encoder "
                    "embedding: its gradient is all-reduced once.",
                    "64 tokens per sentence; layer normalisation, biases and softmax are not "
                    "counted."],
}

COMMON_NOTES = ["Convolution ifmap sizes include their zero padding (SCALE-Sim's convention).",
                "Pooling, normalisation, activations and softmax are left out; parameters are "
                "the GEMM weights only (no biases, no normalisation scales)."]


def text(name):
    build, source = MODELS[name]
    lines = ["{", f'  "version": 1,', f'  "name": {json.dumps(name)},',
             f'  "source": {json.dumps(source, ensure_ascii=False)},', '  "notes": [']
    notes = COMMON_NOTES + NOTES.get(name, [])
    lines += [f"    {json.dumps(n, ensure_ascii=False)}" + ("," if i + 1 < len(notes) else "")
              for i, n in enumerate(notes)]
    lines += ["  ],", '  "layers": [']
    layers = build()
    lines += [f"    {json.dumps(l, separators=(',', ':'))}" + ("," if i + 1 < len(layers) else "")
              for i, l in enumerate(layers)]
    lines += ["  ]", "}"]
    return "\n".join(lines) + "\n"


def main(argv):
    """Writes the files; with --check, writes nothing and exits 1 naming each file that differs
    from what this script makes (a ctest test runs that)."""
    check = argv[1:] == ["--check"]
    if argv[1:] and not check:
        sys.exit(f"usage: {argv[0]} [--check]")
    differ = []
    for model in MODELS:
        path = os.path.join(HERE, model + ".json")
        if check:
            with open(path, encoding="utf-8") as f:
                if f.read() != text(model):
                    differ.append(path)
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text(model))
    for path in differ:
        print(f"{path} differs from what {os.path.basename(argv[0])} writes", file=sys.stderr)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
