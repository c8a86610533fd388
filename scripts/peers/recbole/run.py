"""Train RecBole peers on recmem's split and score them on its 1+9 candidates.

This harness lives apart from the product: it is Python, it needs torch and
RecBole from PyPI (see setup.sh), and it is on neither the default run path nor
the test path. It reads the RecBole atomic files `recmem eval rec` reads
(NAME.test.inter, NAME.valid.inter, NAME.random; for MovieLens, the files
`recmem data movielens` writes), and writes, per model, OUT/NAME.MODEL.scores:

    user_id:token<TAB>item_id:token<TAB>score:float

one row per candidate of every evaluated user, which `recmem eval rec --peers
OUT` reads back into its "baselines" (key: the lower-cased model name, with
"recbole_" before BPR, to tell it from recmem's own). OUT/NAME.MODEL.json
records the settings, the epochs and the validation curve.

Protocol, the same as recmem's (docs/rec.md):
  * training data are the histories (never the targets), without ratings of
    1 or 2 when the files carry ratings (a 3 stays);
  * candidates: the target, then the first 9 items of the user's .random line
    that are neither the target nor in the history; users whose target is in
    their .random line are skipped;
  * model selection on the validation split: the model is trained on the
    validation histories and scored after every epoch on the validation
    cases (NDCG@10 over their 1+9 candidates); training stops after
    --patience epochs without a gain. It is then trained afresh on the test
    histories for the best number of epochs and scores the test cases. No
    test target is looked at before the scores are written.
"""

import argparse
import json
import math
import os
import sys
import tempfile
import time

import shims  # noqa: F401  (compatibility with current numpy, pandas, torch)

import numpy as np
import torch


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def read_inter(path):
    """Rows of a sequential .inter file: (user, history, target, ratings)."""
    rows = []
    with open(path, encoding="utf-8") as f:
        head = f.readline().rstrip("\n").split("\t")
        names = [h.split(":")[0] for h in head]
        u, h, t = names.index("user_id"), names.index("item_id_list"), names.index("item_id")
        r = names.index("rating_list") if "rating_list" in names else -1
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            f_ = line.split("\t")
            hist = f_[h].split()
            ratings = [int(float(x)) for x in f_[r].split()] if r >= 0 else None
            rows.append((f_[u], hist, f_[t], ratings))
    return rows


def read_random(path):
    out = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f):
            line = line.rstrip("\n")
            if not line:
                continue
            user, _, rest = line.partition("\t")
            if n == 0 and ":" in user:
                continue
            out[user] = rest.split()
    return out


def positive(hist, ratings):
    if ratings is None:
        return hist
    return [i for i, r in zip(hist, ratings) if r > 2]


def cases(rows, random):
    """recmem's rec.Cases: (user, history, candidates), target first."""
    out = []
    for user, hist, target, ratings in rows:
        rnd = random.get(user)
        if rnd is None or target in rnd:
            continue
        seen = set(hist) | {target}
        cands = [target]
        for i in rnd:
            if len(cands) == 10:
                break
            if i not in seen:
                seen.add(i)
                cands.append(i)
        if len(cands) == 10:
            out.append((user, positive(hist, ratings), cands))
    return out


def write_benchmark(work, name, rows, items, sequential, max_len, prefixes=0):
    """RecBole benchmark files for one training split: NAME.train.inter (the
    augmented prefixes for sequential models, the interactions otherwise),
    placeholder valid and test files, and NAME.item listing every item so
    that every candidate has an id."""
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, name + ".item"), "w") as f:
        f.write("item_id:token\n")
        for i in items:
            f.write(i + "\n")
    hists = [(u, positive(h, r)) for u, h, _, r in rows]
    def lines_for(u, h):
        if sequential:
            first = max(1, len(h) - prefixes) if prefixes > 0 else 1
            for t in range(first, len(h)):
                yield f"{u}\t{' '.join(h[max(0, t - max_len):t])}\t{h[t]}\n"
        else:
            for t, i in enumerate(h):
                yield f"{u}\t{i}\t{t}\n"
    head = "user_id:token\titem_id_list:token_seq\titem_id:token\n" if sequential else \
        "user_id:token\titem_id:token\ttimestamp:float\n"
    with open(os.path.join(work, name + ".train.inter"), "w") as f:
        f.write(head)
        for u, h in hists:
            for line in lines_for(u, h):
                f.write(line)
    # RecBole wants three benchmark files; valid and test hold one row each
    # and are never used (this harness scores the candidates itself).
    u, h = next((u, h) for u, h in hists if len(h) >= 2)
    one = f"{u}\t{' '.join(h[-max_len - 1:-1])}\t{h[-1]}\n" if sequential else f"{u}\t{h[-1]}\t{len(h)}\n"
    for part in ("valid", "test"):
        with open(os.path.join(work, f"{name}.{part}.inter"), "w") as f:
            f.write(head + one)


def build(model_name, work, name, args):
    from recbole.config import Config
    from recbole.data import create_dataset, data_preparation
    from recbole.utils import get_model, get_trainer, init_seed

    sequential = model_name == "SASRec"
    conf = {
        "data_path": os.path.dirname(work), "benchmark_filename": ["train", "valid", "test"],
        "seed": args.seed, "reproducibility": True, "device": "cpu", "use_gpu": False,
        "show_progress": False, "checkpoint_dir": os.path.join(work, "saved"), "log_wandb": False,
        "train_batch_size": args.batch, "eval_batch_size": 4096, "epochs": 1,
        "learning_rate": args.lr, "embedding_size": args.dim, "state": "WARNING",
        "USER_ID_FIELD": "user_id", "ITEM_ID_FIELD": "item_id",
    }
    if sequential:
        conf.update({
            "load_col": {"inter": ["user_id", "item_id_list", "item_id"], "item": ["item_id"]},
            "alias_of_item_id": ["item_id_list"], "MAX_ITEM_LIST_LENGTH": args.max_len,
            "hidden_size": args.dim,
            "inner_size": args.dim * 4, "n_layers": 2, "n_heads": 2,
            "hidden_dropout_prob": 0.2, "attn_dropout_prob": 0.2,
        })
        if args.sasrec_loss == "CE":
            conf.update({"loss_type": "CE", "train_neg_sample_args": None})
        else:
            conf.update({"loss_type": "BPR", "train_neg_sample_args": {"distribution": "uniform", "sample_num": 1}})
    else:
        conf.update({
            "load_col": {"inter": ["user_id", "item_id", "timestamp"], "item": ["item_id"]},
            "TIME_FIELD": "timestamp",
            "train_neg_sample_args": {"distribution": "uniform", "sample_num": 1},
        })
        if model_name == "LightGCN":
            conf.update({"n_layers": 2, "reg_weight": 1e-4})
    config = Config(model=model_name, dataset=os.path.basename(work), config_dict=conf)
    init_seed(config["seed"], config["reproducibility"])
    dataset = create_dataset(config)
    train, _, _ = data_preparation(config, dataset)
    model = get_model(config["model"])(config, train.dataset).to("cpu")
    trainer = get_trainer(config["MODEL_TYPE"], config["model"])(config, model)
    return dataset, train, model, trainer


def score(model_name, dataset, model, cs, max_len):
    """Scores of each case's candidates, in candidate order."""
    from recbole.data.interaction import Interaction

    model.eval()
    uid = dataset.field2token_id["user_id"]
    iid = dataset.field2token_id["item_id"]
    out = []
    with torch.no_grad():
        for b in range(0, len(cs), 256):
            batch = cs[b:b + 256]
            if model_name == "SASRec":
                seqs = np.zeros((len(batch), max_len), dtype=np.int64)
                lens = np.zeros(len(batch), dtype=np.int64)
                for k, (_, hist, _) in enumerate(batch):
                    h = [iid[i] for i in hist if i in iid][-max_len:]
                    if not h:
                        h = [0]
                    seqs[k, :len(h)] = h
                    lens[k] = len(h)
                inter = Interaction({"item_id_list": torch.from_numpy(seqs), "item_length": torch.from_numpy(lens)})
            else:
                users = np.array([uid.get(u, 0) for u, _, _ in batch], dtype=np.int64)
                inter = Interaction({"user_id": torch.from_numpy(users)})
            full = model.full_sort_predict(inter).view(len(batch), -1).numpy()
            for k, (_, _, cands) in enumerate(batch):
                out.append([float(full[k, iid[c]]) if c in iid else -1e9 for c in cands])
    return out


def metrics(scores):
    hr1 = hr5 = n5 = n10 = 0.0
    for s in scores:
        r = sum(1 for j in range(1, len(s)) if s[j] >= s[0])  # ties against the target
        hr1 += r < 1
        hr5 += r < 5
        n5 += (1 / math.log2(r + 2)) if r < 5 else 0
        n10 += (1 / math.log2(r + 2)) if r < 10 else 0
    n = max(1, len(scores))
    return {"hr@1": hr1 / n, "hr@5": hr5 / n, "ndcg@5": n5 / n, "ndcg@10": n10 / n}


def train_epoch(trainer, train, epoch):
    trainer.model.train()
    loss = trainer._train_epoch(train, epoch, show_progress=False)
    if isinstance(loss, tuple):
        loss = sum(loss)
    return float(loss)


def run_model(model_name, args, name, items, valid_rows, test_rows, random):
    root = tempfile.mkdtemp(prefix=f"recmem-peers-{model_name}-", dir=args.work)
    max_len = args.max_len
    sequential = model_name == "SASRec"
    vcases = cases(valid_rows, random)
    tcases = cases(test_rows, random)
    # 1. Choose the number of epochs on the validation split.
    vwork = os.path.join(root, "v" + name)
    write_benchmark(vwork, "v" + name, valid_rows, items, sequential, max_len, args.prefixes)
    ds, train, model, trainer = build(model_name, vwork, name, args)
    curve, best, best_epoch, since = [], -1.0, 0, 0
    for epoch in range(args.epochs):
        t0 = time.time()
        loss = train_epoch(trainer, train, epoch)
        m = metrics(score(model_name, ds, model, vcases, max_len))
        curve.append({"epoch": epoch + 1, "loss": loss, **m, "seconds": round(time.time() - t0, 1)})
        log(f"{model_name} validation epoch {epoch + 1}: loss {loss:.4f} hr@1 {m['hr@1']:.4f} ndcg@10 {m['ndcg@10']:.4f}")
        if m["ndcg@10"] > best:
            best, best_epoch, since = m["ndcg@10"], epoch + 1, 0
        else:
            since += 1
            if since >= args.patience:
                break
    # 2. Train afresh on the test histories for the chosen epochs; score.
    twork = os.path.join(root, "t" + name)
    write_benchmark(twork, "t" + name, test_rows, items, sequential, max_len, args.prefixes)
    ds, train, model, trainer = build(model_name, twork, name, args)
    for epoch in range(best_epoch):
        loss = train_epoch(trainer, train, epoch)
        log(f"{model_name} test-split training epoch {epoch + 1}/{best_epoch}: loss {loss:.4f}")
    scores = score(model_name, ds, model, tcases, max_len)
    key = ("recbole_" if model_name == "BPR" else "") + model_name.lower()
    base = os.path.join(args.out, f"{name}.{key}")
    with open(base + ".scores.tmp", "w") as f:
        f.write("user_id:token\titem_id:token\tscore:float\n")
        for (user, _, cands), s in zip(tcases, scores):
            for c, x in zip(cands, s):
                f.write(f"{user}\t{c}\t{x:.6g}\n")
    os.replace(base + ".scores.tmp", base + ".scores")
    report = {"model": model_name, "key": key, "dataset": name, "epochs": best_epoch,
              "validation": curve, "validation_best_ndcg@10": best, "test_users": len(tcases),
              "settings": {k: v for k, v in vars(args).items() if k not in ("data", "out", "work")},
              "recbole": __import__("recbole").__version__, "torch": torch.__version__}
    with open(base + ".json", "w") as f:
        json.dump(report, f, indent=1)
    log(f"{model_name}: wrote {base}.scores ({len(tcases)} users, {best_epoch} epochs)")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", required=True, help="directory of the RecBole atomic files")
    p.add_argument("--dataset", required=True, help="data set name (the files' prefix)")
    p.add_argument("--out", required=True, help="directory for NAME.MODEL.scores and .json")
    p.add_argument("--models", default="BPR,LightGCN,SASRec")
    p.add_argument("--epochs", type=int, default=30, help="most epochs on the validation split")
    p.add_argument("--patience", type=int, default=3)
    p.add_argument("--dim", type=int, default=64)
    p.add_argument("--lr", type=float, default=0.001)
    p.add_argument("--batch", type=int, default=2048)
    p.add_argument("--max-len", type=int, default=50, dest="max_len")
    p.add_argument("--seed", type=int, default=2020)
    p.add_argument("--prefixes", type=int, default=0,
                   help="SASRec: train on each user's last N prefixes only (0: all, RecBole's augmentation); "
                        "every prefix is one forward pass, which on a CPU is the cost")
    p.add_argument("--sasrec-loss", default="CE", choices=["CE", "BPR"], dest="sasrec_loss",
                   help="SASRec's loss: CE over all items (RecBole's default) or BPR with one sampled "
                        "negative, whose cost does not grow with the item count")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--work", default=None, help="scratch directory (default: the system temp)")
    args = p.parse_args()
    sys.argv = sys.argv[:1]  # RecBole reads the command line too; give it none
    torch.set_num_threads(args.threads)
    args.data, args.out = os.path.abspath(args.data), os.path.abspath(args.out)
    os.makedirs(args.out, exist_ok=True)
    # RecBole writes its logs (log/, log_tensorboard/) under the working
    # directory: work in the scratch directory, never in the repository.
    args.work = os.path.abspath(args.work or tempfile.mkdtemp(prefix="recmem-peers-"))
    os.makedirs(args.work, exist_ok=True)
    os.chdir(args.work)
    name = args.dataset
    valid_rows = read_inter(os.path.join(args.data, name + ".valid.inter"))
    test_rows = read_inter(os.path.join(args.data, name + ".test.inter"))
    random = read_random(os.path.join(args.data, name + ".random"))
    items = set()
    for rows in (valid_rows, test_rows):
        for _, h, t, _ in rows:
            items.update(h)
            items.add(t)
    for r in random.values():
        items.update(r)
    items = sorted(items)
    for m in args.models.split(","):
        run_model(m.strip(), args, name, items, valid_rows, test_rows, random)


if __name__ == "__main__":
    main()
