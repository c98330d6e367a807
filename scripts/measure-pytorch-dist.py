#!/usr/bin/python3
# Measures what each rank of a two-rank data-parallel PyTorch step holds, for
# tests/fixtures/pytorch/ranks/*.json (not a test: run by hand, `scripts/measure-pytorch-dist.py [OUT_DIR]`).
# Two processes, torch.distributed with the gloo backend, the models and the per-phase live-bytes
# measurement of scripts/measure-pytorch.py (the profiler's memory events on CPU; with
# MEASURE_DEVICE=cuda both ranks share GPU 0 and read torch.cuda.max_memory_allocated, per process).
# Gradient synchronisation ("gradient_buckets"): DDP with its flat bucket copy ("copy"), DDP with
# gradient_as_bucket_view ("view"), or no DDP: an in-place all-reduce of each .grad ("none").
# Optimizer: unsharded, or ZeRO stage 1 as torch's ZeroRedundancyOptimizer ("zero_redundancy") or as
# FlatShardedOptimizer below ("flat", written the way a course would).
import importlib.util, json, math, os, re, sys
import torch
import torch.distributed as dist
import torch.multiprocessing as mproc
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.distributed.optim import ZeroRedundancyOptimizer

_spec = importlib.util.spec_from_file_location("measure_pytorch", os.path.join(os.path.dirname(os.path.abspath(__file__)), "measure-pytorch.py"))
one = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(one)  # the one-device script: models, scenario, optimizers, step timeline

WORLD = 2


class FlatShardedOptimizer:
    """ZeRO stage 1 as a course writes it. model.parameters() are read as one flat vector of `total`
    elements; rank r owns elements [r*S, min((r+1)*S, total)), S = ceil(total / N), and keeps the
    optimizer state of those elements only, as flat tensors (Adam's m and v, momentum's buffer),
    created at the first step as torch.optim does. step() expects gradients already averaged over the
    ranks (DDP, or an all-reduce); it updates the owned slice of every parameter the shard overlaps,
    then each rank broadcasts the slices it owns, in place."""

    def __init__(self, params, kind, lr, rank, world, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, momentum=0.9):
        self.params = [p for p in params if p.requires_grad]
        self.kind, self.lr, self.rank, self.world = kind, lr, rank, world
        self.betas, self.eps, self.wd, self.mom = betas, eps, weight_decay, momentum
        total = sum(p.numel() for p in self.params)
        S = -(-total // world)
        self.slices = [[] for _ in range(world)]  # per rank: (parameter, first, end, offset in the shard)
        start = 0
        for p in self.params:
            for r in range(world):
                lo, hi = max(start, r * S), min(start + p.numel(), (r + 1) * S)
                if lo < hi: self.slices[r].append((p, lo - start, hi - start, lo - r * S))
            start += p.numel()
        self.shard = max(0, min(total, (rank + 1) * S) - rank * S)
        self.state, self.t = {}, 0

    def zero_grad(self, set_to_none=True):
        for p in self.params:
            if p.grad is None: continue
            if set_to_none: p.grad = None
            else: p.grad.zero_()

    @torch.no_grad()
    def step(self):
        p0 = self.params[0]
        if not self.state and self.kind != "sgd":
            names = ("exp_avg", "exp_avg_sq") if self.kind in ("adam", "adamw") else ("momentum_buffer",)
            self.state = {n: torch.zeros(self.shard, dtype=p0.dtype, device=p0.device) for n in names}
        self.t += 1
        b1, b2 = self.betas
        for p, a, b, o in self.slices[self.rank]:
            w, g = p.view(-1)[a:b], p.grad.view(-1)[a:b]
            if self.kind in ("adam", "adamw"):
                m, v = self.state["exp_avg"][o:o + b - a], self.state["exp_avg_sq"][o:o + b - a]
                if self.wd: w.mul_(1 - self.lr * self.wd)
                m.mul_(b1).add_(g, alpha=1 - b1)
                v.mul_(b2).addcmul_(g, g, value=1 - b2)
                denom = (v.sqrt() / math.sqrt(1 - b2 ** self.t)).add_(self.eps)
                w.addcdiv_(m, denom, value=-self.lr / (1 - b1 ** self.t))
            elif self.kind == "momentum":
                buf = self.state["momentum_buffer"][o:o + b - a]
                buf.mul_(self.mom).add_(g)
                w.add_(buf, alpha=-self.lr)
            else:
                w.add_(g, alpha=-self.lr)
        for r in range(self.world):  # every rank receives the slices the others updated
            for p, a, b, _ in self.slices[r]:
                dist.broadcast(p.data.view(-1)[a:b], src=r)


def make_optimizer(model, c, rank):
    sharded, o = c.get("sharded_optimizer"), c["optimizer"]
    if sharded == "flat":
        return FlatShardedOptimizer(model.parameters(), o, 1e-4 if o.startswith("adam") else 1e-3, rank, WORLD,
                                    weight_decay=0.01 if o == "adamw" else 0.0)
    if sharded == "zero_redundancy":
        cls = {"adamw": torch.optim.AdamW, "adam": torch.optim.Adam}.get(o, torch.optim.SGD)
        kw = dict(lr=1e-4) if o.startswith("adam") else dict(lr=1e-3, momentum=0.9 if o == "momentum" else 0)
        return ZeroRedundancyOptimizer(model.parameters(), optimizer_class=cls, foreach=c["optimizer_impl"] == "foreach", **kw)
    return one.make_optimizer(model, c)


def storage_bytes(tensors, seen):
    """Bytes of the storages of `tensors` not yet in `seen` (views of one storage count once)."""
    n = 0
    for t in tensors:
        st = t.untyped_storage() if hasattr(t, "untyped_storage") else t.storage()
        if st.data_ptr() in seen: continue
        seen.add(st.data_ptr())
        n += st.nbytes()
    return n


def optimizer_state_tensors(opt):
    if isinstance(opt, FlatShardedOptimizer): return list(opt.state.values())
    inner = opt.optim if isinstance(opt, ZeroRedundancyOptimizer) else opt
    return [v for st in inner.state.values() for v in st.values() if torch.is_tensor(v)]


def baseline(model, opt, bucket_bytes, view):
    """What is live between steps: parameters, gradients (with gradient_as_bucket_view the gradients
    are views of the buckets, so counted as the buckets), optimizer state and DDP's buckets."""
    seen = set()
    params = list(model.parameters())
    total = storage_bytes(params, seen)
    if not view: total += storage_bytes([p.grad for p in params if p.grad is not None], seen)
    return total + storage_bytes(optimizer_state_tensors(opt), seen) + bucket_bytes


def ddp_bucket_bytes(net):
    """The bytes of DDP's gradient buckets, as DDP's own logging data reports them (a profiler count of
    the construction picked up unrelated allocations now and then)."""
    return sum(int(n) for n in re.findall(r"\d+", str(net._get_ddp_logging_data()["bucket_sizes"])))


def all_reduce_grads(model):
    """gradient_buckets "none": each .grad all-reduced in place and averaged, no DDP."""
    def sync():
        for p in model.parameters():
            if p.grad is not None:
                dist.all_reduce(p.grad)
                p.grad.div_(WORLD)
    return sync


def measure_rank(c, rank):
    torch.manual_seed(0)  # the same initial weights on both ranks (DDP also broadcasts rank 0's)
    model = (one.ScratchModel(c) if c["arch"] == "scratch" else one.Model(c)).train().to(one.DEV)
    g = torch.Generator().manual_seed(1 + rank)  # each rank its own micro-batch
    idx = torch.randint(0, c["vocab"], (c["batch_size"], c["seq_len"]), generator=g).to(one.DEV)
    tgt = torch.randint(0, c["vocab"], (c["batch_size"], c["seq_len"]), generator=g).to(one.DEV)
    mode, view = c["gradient_buckets"], c["gradient_buckets"] == "view"
    bucket_bytes, net, sync = 0, model, None
    if mode == "none":
        sync = all_reduce_grads(model)
    else:
        # gloo cannot broadcast bool tensors: the from-scratch causal masks (constants) stay out of DDP's sync.
        DDP._set_params_and_buffers_to_ignore_for_model(model, [n for n, b in model.named_buffers() if b.dtype == torch.bool])
        # broadcast_buffers=False: the models' buffers are constants (masks, RoPE tables). DDP's default
        # re-broadcast of them at every forward is a transient of their size at the forward's start,
        # which gloo's thread frees where the CPU profiler cannot see it (measured peaks then drifted
        # by exactly the buffers' bytes from run to run).
        net = DDP(model, gradient_as_bucket_view=view, broadcast_buffers=False,
                  bucket_cap_mb=c.get("bucket_bytes", 25 * 2 ** 20) / 2 ** 20)
        bucket_bytes = ddp_bucket_bytes(net)
    opt = make_optimizer(model, c, rank)
    steps = []
    for _ in range(3):  # first, second (DDP rebuilds its buckets in the second step's forward), steady
        base = baseline(model, opt, bucket_bytes, view)
        steps.append(one.step_timeline(net, opt, c, idx, tgt, base=base, sync=sync))
    if isinstance(opt, ZeroRedundancyOptimizer):
        owned = [p.numel() for grp in opt._partition_parameters()[rank] for p in grp["params"]]
    elif isinstance(opt, FlatShardedOptimizer):
        owned = [b - a for _, a, b, _ in opt.slices[rank]]
    else:
        owned = [p.numel() for p in model.parameters()]
    return {"rank": rank, "bucket_bytes": bucket_bytes, "owned_elements": sum(owned), "owned_tensors": len(owned),
            "optimizer_state_bytes": storage_bytes(optimizer_state_tensors(opt), set()),
            "first_step": steps[0], "steady_step": steps[2]}


def scenario_of(c):
    s = one.scenario_of(c)
    s["parallel"] = {"data_parallel": WORLD, "zero_stage": 1 if c.get("sharded_optimizer") else 0,
                     "gradient_buckets": c["gradient_buckets"], "bucket_bytes": c.get("bucket_bytes", 25 * 2 ** 20),
                     **({"sharded_optimizer": c["sharded_optimizer"]} if c.get("sharded_optimizer") else {})}
    return s


def configs():
    """Small runs at the one-device fixtures' models: (arch, base, L, d, heads, s, b, precision,
    optimizer, gradient_buckets, sharded_optimizer or None)."""
    gpt2 = dict(arch="gpt2", vocab=512, context=128, tied_head=True, dropout_p=0.0)
    llama = dict(arch="llama", vocab=512, context=128, tied_head=False)
    scratch = dict(llama, arch="scratch")
    grid = [
        ("gpt2", gpt2, 2, 64, 4, 32, 2, "fp32", "adamw", "copy", None),
        ("gpt2", gpt2, 2, 64, 4, 32, 2, "fp32", "adamw", "view", None),
        ("gpt2", gpt2, 2, 64, 4, 32, 2, "fp32", "adamw", "none", None),
        ("llama", llama, 2, 64, 4, 32, 2, "fp32", "adamw", "copy", "zero_redundancy"),
        ("llama", llama, 2, 64, 4, 32, 2, "fp32", "adamw", "copy", "flat"),
        ("llama", llama, 2, 64, 4, 32, 2, "fp32", "adamw", "none", "flat"),
        ("llama", llama, 2, 64, 4, 32, 2, "fp32", "adamw", "view", "zero_redundancy"),
        ("gpt2", gpt2, 2, 64, 4, 64, 2, "autocast_bf16", "adamw", "copy", None),
        ("gpt2", gpt2, 2, 64, 4, 64, 2, "autocast_bf16", "adamw", "copy", "zero_redundancy"),
        ("llama", llama, 2, 64, 4, 64, 2, "autocast_bf16", "adamw", "view", "flat"),
        ("scratch", scratch, 2, 64, 4, 32, 2, "fp32", "adam", "copy", "zero_redundancy"),
        ("scratch", scratch, 2, 64, 4, 32, 2, "autocast_bf16", "adam", "none", "flat"),
        ("llama", llama, 2, 96, 6, 64, 2, "fp32", "momentum", "copy", "zero_redundancy"),
        ("gpt2", gpt2, 2, 96, 6, 64, 2, "fp32", "momentum", "view", "flat"),
        ("llama", llama, 3, 128, 8, 32, 1, "fp32", "sgd", "copy", None),
        ("llama", {**llama, "vocab": 2048}, 1, 128, 4, 16, 2, "fp32", "adam", "copy", "zero_redundancy"),
    ]
    if one.DEV == "cuda":
        # GPU-sized runs (16-23): DDP copy, DDP view, ZeroRedundancyOptimizer and the flat sharded
        # optimizer, FP32 and autocast BF16, Adam; big enough that the cuBLAS workspace is a few percent.
        big = dict(llama, vocab=8192, context=256)
        for prec in ("fp32", "autocast_bf16"):
            grid += [("llama", big, 4, 512, 8, 256, 4, prec, "adam", buckets, sharded)
                     for buckets, sharded in (("copy", None), ("view", None), ("copy", "zero_redundancy"), ("none", "flat"))]
    for i, (arch, base, L, d, a, s, b, prec, opt, buckets, sharded) in enumerate(grid):
        f = 4 * d if arch == "gpt2" else 2 * (4 * d) // 3 // 8 * 8
        yield {**base, "layers": L, "hidden": d, "heads": a, "mlp_hidden": f, "seq_len": s, "batch_size": b,
               "precision": prec, "optimizer": opt, "optimizer_impl": "per_parameter",
               "zero_grad": "zero" if i % 5 == 4 else "set_to_none", "gradient_buckets": buckets,
               **({"sharded_optimizer": sharded} if sharded else {})}


def fixture_name(i, c):
    return (f"{i:02d}-{c['arch']}-L{c['layers']}-d{c['hidden']}-s{c['seq_len']}-b{c['batch_size']}-{c['precision']}"
            f"-{c['optimizer']}-{c['gradient_buckets']}-{c.get('sharded_optimizer', 'unsharded')}.json")


def worker(rank, chosen, port, out):
    """Each rank measures every chosen run; rank 0 writes each fixture as soon as both ranks have it,
    so a run stopped by a timeout keeps what it finished. On CUDA a run that raises is recorded as an
    error and the next one runs (a CPU run that raises stops the script, as measure-pytorch.py does)."""
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    torch.set_num_threads(1)
    if one.DEV == "cuda": torch.cuda.set_device(0)  # both ranks on one GPU: gloo (NCCL refuses that)
    dist.init_process_group("gloo", rank=rank, world_size=WORLD)
    extra = {"cuda_workspace_bytes": one.cuda_workspace_bytes()} if one.DEV == "cuda" else {}
    device = one.DEV if one.DEV == "cpu" else torch.cuda.get_device_name()
    for i, c in chosen:
        try:
            mine = {**measure_rank(c, rank), **extra}
        except Exception as e:
            if one.DEV != "cuda": raise
            mine = {"rank": rank, "error": f"{type(e).__name__}: {e}"}
        both = [None] * WORLD
        dist.all_gather_object(both, mine)
        if rank == 0: write_fixture(out, i, c, both, device)
    dist.barrier()
    dist.destroy_process_group()


def write_fixture(out, i, c, ranks, device):
    r = {"config": c, "scenario": scenario_of(c), "world_size": WORLD, "backend": "gloo",
         "torch_version": torch.__version__, "device": device, "ranks": ranks,
         "regenerate": "scripts/measure-pytorch-dist.py (Debian bookworm python3-torch, CPU, two gloo ranks); see core/memory/README.md"}
    name = fixture_name(i, c)
    one.write_json(os.path.join(out, name), r)
    print(name, *(f"rank{k} " + (f"{x['steady_step']['peak_bytes']} {x['steady_step']['peak_phase']}" if "error" not in x else x["error"])
                  for k, x in enumerate(ranks)), flush=True)


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# PyTorch 1.13's CPU profiler sometimes aborts a rank as it stops (SIGABRT, "munmap_chunk(): invalid
# pointer" in kineto's stop_trace while gloo's threads allocate; PYTHONFAULTHANDLER=1 shows the stack):
# about 1 run in 10 with two runs at once on 2 cores, twice in a row in one CI run. The bytes are the
# same each time, so a run killed by a signal is measured again, in two fresh processes, and says so.
SIGNAL_TRIES = 4


def spawn_measuring(chosen, out):
    for attempt in range(1, SIGNAL_TRIES + 1):
        try:
            return mproc.spawn(worker, args=(chosen, free_port(), out), nprocs=WORLD, join=True)
        except mproc.ProcessExitedException as e:
            if not e.signal_name or attempt == SIGNAL_TRIES: raise
            print(f"rank {e.error_index} was killed by {e.signal_name}; measuring again (try {attempt + 1} of {SIGNAL_TRIES})",
                  file=sys.stderr, flush=True)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "pytorch", "ranks")
    if one.DEV == "cuda": out = os.path.join(out, "cuda")
    os.makedirs(out, exist_ok=True)
    only = os.environ.get("MEASURE_ONLY")
    chosen = [(i, c) for i, c in enumerate(configs()) if one.selected(only, i)]
    chosen.sort(key=lambda ic: ic[0] < 16)  # on CUDA the GPU-sized runs first: they matter most there
    spawn_measuring(chosen, out)
    one.write_manifest(out, [fixture_name(i, c) for i, c in enumerate(configs())])


if __name__ == "__main__":
    main()
