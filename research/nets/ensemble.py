"""Is an ensemble of networks at 0-ply a stronger Mediu?  Each play is judged by the mean equity
of the networks listed (comma-separated), in duplicate-dice cubeless money games against the
other side (also a list, often one network).  Tried on 4 December 2026 and not kept
(docs/strength.md).  From the repository root:

    PYTHONPATH=src python3 research/nets/ensemble.py A.npz,B.npz OPPONENT.npz PAIRS SEED
"""
import sys, time, numpy as np
from numba import njit
from table.bot import bearoff, search
from table.bot.net import Weights, evaluate_board, equity, final_probs
from table.tools.duel import draw_dice, MAX_TURNS, START

Nets = tuple[search.Net, ...]

@njit(cache=False)
def pick(nets: Nets, wts: np.ndarray, work: search.Work, board: np.ndarray, d1: int, d2: int,
         p: np.ndarray) -> int:
    n = search.generate_level(board, d1, d2, work, 0)
    best = 0; besteq = -1e9
    for c in range(n):
        search.flip_into(work.boards[0, c], work.cand[0])
        eq = 0.0
        for k in range(len(nets)):
            nt = nets[k]
            evaluate_board(nt.w1, nt.b1, nt.wh, nt.bh, nt.w2, nt.b2, nt.db, work.cand[0], work.x, work.hidden, work.scratch, p)
            eq += wts[k] * -equity(p)
        if eq > besteq:
            besteq = eq; best = c
    return best

@njit(cache=False)
def game(first: int, dice: np.ndarray, A: Nets, wa: np.ndarray, B: Nets, wb: np.ndarray,
         work: search.Work, p: np.ndarray) -> int:
    board = START.copy(); side = first
    for t in range(MAX_TURNS):
        if side == 0: best = pick(A, wa, work, board, dice[t, 0], dice[t, 1], p)
        else: best = pick(B, wb, work, board, dice[t, 0], dice[t, 1], p)
        search.flip_into(work.boards[0, best], board)
        if final_probs(board, work.p[0]):
            pts = 1 + int(work.p[0, 3]) + int(work.p[0, 4])
            return pts if side == 0 else -pts
        side = 1 - side
    return 0

@njit(cache=False)
def pairs(n: int, seed: int, A: Nets, wa: np.ndarray, B: Nets, wb: np.ndarray, work: search.Work,
          p: np.ndarray, res: np.ndarray) -> None:
    np.random.seed(seed)
    dice = np.empty((MAX_TURNS, 2), dtype=np.int64)
    for i in range(n):
        draw_dice(dice)
        res[i] = game(0, dice, A, wa, B, wb, work, p) + game(1, dice, A, wa, B, wb, work, p)

def nets(spec: str, db: np.ndarray) -> tuple[Nets, np.ndarray]:
    files = spec.split(",")
    wts = np.full(len(files), 1.0 / len(files))
    ns = tuple(search.make_net(Weights.load(f), db) for f in files)
    return ns, wts

db = bearoff.database()
A, wa = nets(sys.argv[1], db); B, wb = nets(sys.argv[2], db)
n, seed = int(sys.argv[3]), int(sys.argv[4])
work = search.make_work(256); p = np.zeros(5, np.float32); res = np.zeros(n, np.int64)
t = time.time(); pairs(n, seed, A, wa, B, wb, work, p, res)
g = res / 2.0
print(f"{sys.argv[1]} vs {sys.argv[2]}: {g.mean():+.3f} ppg +/- {1.96 * g.std() / np.sqrt(n):.3f}, {2*n} games, seed {seed}, {time.time()-t:.0f}s", flush=True)
