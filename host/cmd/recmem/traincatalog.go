package main

import (
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"

	"github.com/recmem/recmem/pkg/rec"
)

func init() {
	commands["train catalog"] = command{
		summary: "build the catalog asset from RecBole logs: recmem train catalog --data DIR --dataset NAME --out FILE",
		run:     runTrainCatalog,
	}
}

// trainFlags are the training settings shared by train catalog and eval rec.
type trainFlags struct {
	epochs, seqEpochs int
	seed              uint64
	convertDir        string
}

func (t *trainFlags) register(fs *flag.FlagSet) {
	fs.IntVar(&t.epochs, "epochs", 92, "BPR-MF epochs (dim 64, lr 0.2, reg 0.03; DESIGN §6)")
	fs.IntVar(&t.seqEpochs, "seq-epochs", 20, "epochs of the factorised transition model (dim 32, window 3)")
	fs.Uint64Var(&t.seed, "seed", 1, "PCG seed of every training run")
	fs.StringVar(&t.convertDir, "convert-dir", "", "where a MovieLens directory given as --data is converted to RecBole files, once (default: the user cache directory's recmem/data)")
}

func (t *trainFlags) config(progress func(string)) rec.TrainConfig {
	return rec.TrainConfig{BPR: rec.BPRConfig{Epochs: t.epochs}, Seq: rec.SeqConfig{BPR: rec.BPRConfig{Epochs: t.seqEpochs}},
		Seed: t.seed, Progress: progress}
}

func runTrainCatalog(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("train catalog", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "", "directory of the RecBole atomic files (required)")
	name := fs.String("dataset", "", "data set name, the files' common prefix (required)")
	out := fs.String("out", "", "write the binary catalog to `FILE` (required)")
	var tf trainFlags
	tf.register(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *data == "" || *name == "" || *out == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: recmem train catalog --data DIR --dataset NAME --out FILE [--epochs N] [--seed S]")
		return 2
	}
	start := time.Now()
	d, err := loadData(*data, *name, tf.convertDir, progressTo(stderr, start))
	if err != nil {
		fmt.Fprintln(stderr, "recmem train catalog:", err)
		return 1
	}
	tr, err := rec.TrainCatalog(d, tf.config(progressTo(stderr, start)))
	if err != nil {
		fmt.Fprintln(stderr, "recmem train catalog:", err)
		return 1
	}
	if err := writeFileAtomic(*out, tr.Catalog); err != nil {
		fmt.Fprintln(stderr, "recmem train catalog:", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s: %d items, %d bytes, in %.1fs\n", *out, len(d.Items), len(tr.Catalog), time.Since(start).Seconds())
	fmt.Fprintf(stdout, "validation fit: hr@1 %.4f hr@5 %.4f ndcg@5 %.4f ndcg@10 %.4f\n", tr.Valid.HR1, tr.Valid.HR5, tr.Valid.NDCG5, tr.Valid.NDCG10)
	for _, n := range slices.Sorted(maps.Keys(tr.Weights)) {
		fmt.Fprintf(stdout, "  weight %-17s %+.4f\n", n, tr.Weights[n])
	}
	return 0
}

// progressTo returns a progress function writing "[seconds] line" to w.
func progressTo(w io.Writer, start time.Time) func(string) {
	return func(s string) { fmt.Fprintf(w, "[%6.1fs] %s\n", time.Since(start).Seconds(), s) }
}
