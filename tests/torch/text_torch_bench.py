#!/usr/bin/python3
"""text_torch_bench.py: the text model's training step in PyTorch on CPU, one
thread, for the comparison ./build.sh bench asks for (tests/bench/bench_text.cpp
times the engine's).

Does: the same model and batch as bench_text (B = 32 windows of L = 32
tokens, D = 64, V = 3002, H = 1/2/4/8, 1 and 2 layers: token + position
embeddings, causal multi-head attention without biases on a residual
stream, unembedding + bias, mean cross-entropy; Adam lr 3e-3), float32,
torch.set_num_threads(1), random ids; one step = forward + backward + Adam.
Two ways of writing the projections, as TOOLCHAIN.md measured that Debian's
torch links the reference BLAS: "matmul" (x @ W, torch.matmul) and "conv1d"
(every projection, the unembedding included, as a 1x1 conv1d, which runs on
oneDNN). Prints one JSON line per (layers, H, path) with the median step
time of 7 samples after 3 warm-up steps, wall (ms) and CPU (cpuMs: the
process's CPU time, which a loaded machine inflates less), and tokens/s
(from the wall time); the fastest path is the one to compare against.
Does not: check gradients (text_torch_check.py does).

Usage: /usr/bin/python3 tests/torch/text_torch_bench.py [--quick]
"""
import json
import math
import sys
import time

import torch

B, L, D, V = 32, 32, 64, 3002


def make(H, layers, conv):
    g = torch.Generator().manual_seed(1)
    u = lambda *s, a: ((torch.rand(*s, generator=g) * 2 - 1) * a).requires_grad_(True)
    a = 1 / math.sqrt(D)
    p = {"tok": u(V, D, a=1.0), "pos": u(L, D, a=1.0), "wu": u(D, V, a=a), "bu": torch.zeros(V, requires_grad=True)}
    for l in range(layers):
        for k in ("q", "k", "v", "o"):
            p[f"{l}{k}"] = u(D, D, a=a)
    dh = D // H
    mask = torch.triu(torch.ones(L, L, dtype=torch.bool), diagonal=1)

    def proj(x, w):  # x: B, L, Din; w: Din x Dout
        if conv:  # 1x1 conv1d: weight Dout x Din x 1, input B x Din x L
            return torch.nn.functional.conv1d(x.transpose(1, 2), w.t().unsqueeze(-1)).transpose(1, 2)
        return x @ w

    def loss_fn(ids, targets):
        x = p["tok"][ids] + p["pos"]
        for l in range(layers):
            q = proj(x, p[f"{l}q"]).reshape(B, L, H, dh).transpose(1, 2)
            k = proj(x, p[f"{l}k"]).reshape(B, L, H, dh).transpose(1, 2)
            v = proj(x, p[f"{l}v"]).reshape(B, L, H, dh).transpose(1, 2)
            w = torch.softmax((q @ k.transpose(-1, -2) / math.sqrt(dh)).masked_fill(mask, float("-inf")), -1)
            x = x + proj((w @ v).transpose(1, 2).reshape(B, L, D), p[f"{l}o"])
        z = proj(x, p["wu"]) + p["bu"]
        return torch.nn.functional.cross_entropy(z.reshape(B * L, V), targets.reshape(B * L))

    opt = torch.optim.Adam(list(p.values()), lr=3e-3)
    return loss_fn, opt


def main():
    torch.set_num_threads(1)
    quick = "--quick" in sys.argv
    ids = torch.randint(0, V, (B, L + 1), generator=torch.Generator().manual_seed(2))
    for layers in (1, 2):
        for H in (1, 4) if quick else (1, 2, 4, 8):
            for path in ("matmul", "conv1d"):
                loss_fn, opt = make(H, layers, path == "conv1d")

                def step():
                    opt.zero_grad()
                    loss = loss_fn(ids[:, :L], ids[:, 1:])
                    loss.backward()
                    opt.step()
                    return loss.item()

                for _ in range(3):
                    step()
                times, cpu = [], []
                for _ in range(7):
                    t0, c0 = time.perf_counter(), time.process_time()
                    step()
                    times.append(time.perf_counter() - t0)
                    cpu.append(time.process_time() - c0)
                s = sorted(times)[len(times) // 2]
                c = sorted(cpu)[len(cpu) // 2]
                print(json.dumps({"B": B, "L": L, "D": D, "V": V, "H": H, "layers": layers,
                                  "variant": f"text-torch-{path}", "ms": round(s * 1e3, 2), "cpuMs": round(c * 1e3, 2),
                                  "tokensPerS": round(B * L / s), "torch": torch.__version__, "threads": 1}),
                      flush=True)


if __name__ == "__main__":
    main()
