"""Probe (issue 13): would a second hidden layer learn the 1-ply labels better?

Fits contact networks of any shape (sigmoid layers, Adam, learning rate falling
a hundredfold) to the 1-ply labelled sets refine-8, refine-6, refine-5 and
candidates-10, and prints the held-out error on 20,000 of refine-8's contact
positions after each epoch.  WARM (a weights file) starts the first layer, or
the whole one-layer network, from it.  Nothing is saved: the shipped format has
one hidden layer, and this only measures whether another would pay.

Usage: OPENBLAS_NUM_THREADS=1 PYTHONPATH=src python3 research/nets/deep_probe.py 256,64 12 3e-3 [WARM]
"""

import sys
import time
import numpy as np
from pathlib import Path
from table.tools.train import refine
from table.bot.net import CONTACT, Weights
sizes = [int(s) for s in sys.argv[1].split(',')]  # hidden sizes
epochs = int(sys.argv[2]); lr0 = float(sys.argv[3]); warm = sys.argv[4] if len(sys.argv) > 4 else ''
D = Path(__file__).resolve().parent / 'data'
def load(name: str) -> refine.Dataset:
    d = refine.Dataset.load(D / name).labelled(); return d
sets = [load(n) for n in ('refine-8.npz', 'refine-6.npz', 'refine-5.npz', 'candidates-10.npz')]
def enc(d: refine.Dataset) -> tuple[np.ndarray, np.ndarray]:
    xs = np.zeros((len(d.positions), 214), np.float32); nets = np.zeros(len(d.positions), np.int64)
    refine.encode_all(d.positions, xs, nets); m = nets == CONTACT
    return xs[m], d.targets[m]
X0, Y0 = enc(sets[0])
rng = np.random.default_rng(1); perm = rng.permutation(len(X0)); nh = 20000
Xh, Yh = X0[perm[:nh]], Y0[perm[:nh]]
parts = [(X0[perm[nh:]], Y0[perm[nh:]])] + [enc(s) for s in sets[1:]]
X = np.concatenate([p[0] for p in parts]); Y = np.concatenate([p[1] for p in parts]); del parts
print('train', X.shape, 'held', Xh.shape, flush=True)
def sig(z: np.ndarray) -> np.ndarray:
    return np.asarray(1/(1+np.exp(-np.clip(z,-40,40))))
dims = [214] + sizes + [5]
P: list[np.ndarray]
if warm and len(sizes) == 1:
    w = Weights.load(warm); P = [w.w1[0].copy(), w.b1[0].copy(), w.w2[0].copy(), w.b2[0].copy()]
else:
    P = []
    for n_in, n_out in zip(dims[:-1], dims[1:]):
        P += [(rng.standard_normal((n_in, n_out)) * np.sqrt(1.0 / n_in)).astype(np.float32), np.zeros(n_out, np.float32)]
if warm and len(sizes) > 1:
    w = Weights.load(warm); P[0] = w.w1[0].copy(); P[1] = w.b1[0].copy()
def fwd(x: np.ndarray) -> list[np.ndarray]:
    hs = [x]
    for k in range(0, len(P), 2):
        hs.append(sig(hs[-1] @ P[k] + P[k+1]).astype(np.float32))
    return hs
def metric(x: np.ndarray, y: np.ndarray) -> str:
    o = np.clip(fwd(x)[-1].astype(np.float64), 1e-7, 1-1e-7)
    ce = -np.mean(y*np.log(o) + (1-y)*np.log(1-o)); we = np.array([2.,1,1,-1,-1])
    return f"ce {ce:.5f} eqerr {np.abs((o-y)@we).mean():.4f}"
print('before', metric(Xh, Yh), flush=True)
m = [np.zeros_like(p) for p in P]; v = [np.zeros_like(p) for p in P]
B = 256; steps = epochs * (len(X) // B); t = 0; T = time.time()
for ep in range(epochs):
    idx = rng.permutation(len(X))
    for s in range(0, len(X) - B + 1, B):
        b = idx[s:s+B]; hs = fwd(X[b]); d = (hs[-1] - Y[b]) / B
        grads: list[np.ndarray] = [d] * len(P)
        for k in range(len(P) // 2 - 1, -1, -1):
            grads[2*k] = hs[k].T @ d; grads[2*k+1] = d.sum(0)
            if k: d = (d @ P[2*k].T) * hs[k] * (1 - hs[k])
        t += 1; lr = lr0 * (0.01) ** (t / steps)
        for p, g, mm, vv in zip(P, grads, m, v):
            mm *= 0.9; mm += 0.1*g; vv *= 0.999; vv += 0.001*g*g
            p -= (lr * (mm/(1-0.9**t)) / (np.sqrt(vv/(1-0.999**t)) + 1e-8)).astype(np.float32)
    print(f'epoch {ep+1} {metric(Xh, Yh)} {time.time()-T:.0f}s', flush=True)
