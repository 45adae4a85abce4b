#!/usr/bin/python3
"""text_torch_check.py: recompute a text-model snapshot with PyTorch.

Does: read the JSON of app/wire/text_json.h (tests/torch/text_snapshot writes
it), build the same model in torch float64 from the formula (token +
position embeddings; per layer causal multi-head attention, heads taking
column blocks of W_Q, W_K, W_V, scores / sqrt(d_head), softmax, W_O, added
to the residual stream; X W_U + b_U; mean cross-entropy over the B*L
targets), let autograd give every gradient, and compare the engine's loss
and gradients with it: |engine - torch| / max|torch| per matrix must be at
most 1e-5 (the engine computes in float: about 1e-7 relative per value).
Prints the worst difference per matrix; exits 1 on any failure.
Does not: use any of the engine's code or formulas beyond the JSON.

Usage: /usr/bin/python3 tests/torch/text_torch_check.py snapshot.json
(Debian's python3-torch; the first python3 on PATH may not see it.)
"""
import json
import math
import sys

import torch

TOL = 1e-5


def tensor(t):
    return torch.tensor(t["data"], dtype=torch.float64).reshape(t["shape"])


def main(path):
    s = json.load(open(path))
    H, D = s["heads"], s["dModel"]
    dh = D // H
    p = s["params"]
    params = {"E_tok": tensor(p["E_tok"]), "E_pos": tensor(p["E_pos"]),
              "W_U": tensor(p["W_U"]), "b_U": tensor(p["b_U"])}
    for l, layer in enumerate(p["layers"]):
        for k in ("W_Q", "W_K", "W_V", "W_O"):
            params[f"{l}.{k}"] = tensor(layer[k])
    for t in params.values():
        t.requires_grad_(True)
    ids = torch.tensor(s["ids"]["data"], dtype=torch.long).reshape(s["ids"]["shape"])
    targets = torch.tensor(s["targets"]["data"], dtype=torch.long).reshape(s["targets"]["shape"])
    B, L = ids.shape

    x = params["E_tok"][ids] + params["E_pos"][:L]                     # B, L, D
    mask = torch.triu(torch.ones(L, L, dtype=torch.bool), diagonal=1)  # j > i
    for l in range(s["layers"]):
        q = (x @ params[f"{l}.W_Q"]).reshape(B, L, H, dh).transpose(1, 2)  # B, H, L, dh
        k = (x @ params[f"{l}.W_K"]).reshape(B, L, H, dh).transpose(1, 2)
        v = (x @ params[f"{l}.W_V"]).reshape(B, L, H, dh).transpose(1, 2)
        scores = (q @ k.transpose(-1, -2)) / math.sqrt(dh)
        weights = torch.softmax(scores.masked_fill(mask, float("-inf")), dim=-1)
        concat = (weights @ v).transpose(1, 2).reshape(B, L, D)
        x = x + concat @ params[f"{l}.W_O"]
    logits = x @ params["W_U"] + params["b_U"]
    loss = torch.nn.functional.cross_entropy(logits.reshape(B * L, -1), targets.reshape(B * L))
    loss.backward()

    failures = 0
    d = abs(s["loss"] - loss.item()) / abs(loss.item())
    ok = d <= TOL
    failures += not ok
    print(f"{'ok  ' if ok else 'FAIL'} loss: engine {s['loss']:.8f} torch {loss.item():.8f} (relative {d:.2e})")
    g = s["grads"]
    engine = {"E_tok": g["E_tok"], "E_pos": g["E_pos"], "W_U": g["W_U"], "b_U": g["b_U"]}
    for l, layer in enumerate(g["layers"]):
        for k in ("W_Q", "W_K", "W_V", "W_O"):
            engine[f"{l}.{k}"] = layer[k]
    for name, t in params.items():
        ref = t.grad
        got = tensor(engine[name]).reshape(ref.shape)
        scale = ref.abs().max().item()
        d = (got - ref).abs().max().item() / max(scale, 1e-30)
        ok = d <= TOL and scale > 0
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'} dLoss/d{name} {tuple(ref.shape)}: max |diff| / max |grad| = {d:.2e} (max |grad| {scale:.3e})")
    print(f"H = {H}, layers = {s['layers']}, step {s['step']}, B = {B}, L = {L}, D = {D}, V = {s['vocab']}: "
          + ("all within 1e-5" if not failures else f"{failures} failed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
