package main

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/recmem/recmem/pkg/dataset"
)

func init() {
	commands["data movielens"] = command{
		summary: "convert MovieLens 100K to RecBole atomic files: recmem data movielens --src DIR --out DIR",
		run:     runDataMovieLens,
	}
}

// convertedDir is where a converted data set is kept: under the user cache
// directory (never the repository: MovieLens may not be redistributed), in
// a folder named after the source's content and the sampler's settings, so
// that the .random file is written once and every later run reads the same.
func convertedDir(root, src, name string, cfg dataset.MovieLensConfig) (string, error) {
	if root == "" {
		c, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("no cache directory (give --convert-dir): %w", err)
		}
		root = filepath.Join(c, "recmem", "data")
	}
	h := sha256.New()
	for _, f := range []string{"u.data", "u.item", "u.genre"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", f, len(b))
		h.Write(b)
	}
	fmt.Fprintf(h, "negatives %d seed %d\n", cfg.Negatives, cfg.Seed)
	return filepath.Join(root, name+"-"+hex.EncodeToString(h.Sum(nil))[:12]), nil
}

// loadData loads a RecBole data set from dir. A directory that holds the
// original MovieLens 100K files instead is converted first (once) into
// convertRoot (see convertedDir), then loaded from there.
func loadData(dir, name, convertRoot string, say func(string)) (*dataset.RecBole, error) {
	if _, err := os.Stat(filepath.Join(dir, name+".test.inter")); err == nil || !dataset.IsMovieLens(dir) {
		return dataset.LoadRecBole(dir, name)
	}
	cfg := dataset.MovieLensConfig{Negatives: 100, Seed: 1}
	out, err := convertedDir(convertRoot, dir, name, cfg)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(out, name+".random")); err != nil {
		say(fmt.Sprintf("converting MovieLens %s to RecBole files in %s", dir, out))
		if err := dataset.ConvertMovieLens(dir, out, name, cfg); err != nil {
			return nil, err
		}
	} else {
		say(fmt.Sprintf("reading MovieLens %s as converted in %s", dir, out))
	}
	return dataset.LoadRecBole(out, name)
}

func runDataMovieLens(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("data movielens", flag.ContinueOnError)
	fs.SetOutput(stderr)
	src := fs.String("src", "", "directory of the original ML-100K files u.data, u.item, u.genre (required)")
	out := fs.String("out", "", "directory to write NAME.item, NAME.test.inter, NAME.valid.inter, NAME.random (required; outside the repository)")
	name := fs.String("name", "ml-100k", "data set name, the files' common prefix")
	neg := fs.Int("negatives", 100, "never-rated items per user in NAME.random (the evaluation takes the first 9)")
	seed := fs.Uint64("seed", 1, "PCG seed of the negative sampler")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *src == "" || *out == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: recmem data movielens --src DIR --out DIR [--name ml-100k] [--negatives 100] [--seed 1]")
		return 2
	}
	if err := dataset.ConvertMovieLens(*src, *out, *name, dataset.MovieLensConfig{Negatives: *neg, Seed: *seed}); err != nil {
		fmt.Fprintln(stderr, "recmem data movielens:", err)
		return 1
	}
	d, err := dataset.LoadRecBole(*out, *name)
	if err != nil {
		fmt.Fprintln(stderr, "recmem data movielens:", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s: %d items, %d test and %d validation users, %d random lines\n",
		filepath.Join(*out, *name+".*"), len(d.Items), len(d.Test), len(d.Valid), len(d.Random))
	return 0
}
