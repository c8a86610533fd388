package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	hostllm "github.com/recmem/recmem/host/llm"
	contract "github.com/recmem/recmem/pkg/llm"
)

var pruneRecorded = flag.Bool("prune-recorded", false, "drop from testdata/llm/*/*.jsonl the exchanges no replay of TestRecordedModel or TestRecordedInstructions asks for (keeping the last line of a hash asked twice)")

// askedHashes is a set of request hashes, shared by the replays of one
// recording file: what they asked of it.
type askedHashes struct {
	mu   sync.Mutex
	hash map[string]bool
}

// add records that a replay asked for h.
func (a *askedHashes) add(h string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.hash == nil {
		a.hash = map[string]bool{}
	}
	a.hash[h] = true
}

// has reports whether a replay asked for h.
func (a *askedHashes) has(h string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.hash[h]
}

// askedCompleter notes the hash of every request on its way to next.
type askedCompleter struct {
	next  contract.Completer
	asked *askedHashes
}

func (c askedCompleter) Complete(ctx context.Context, r contract.Request) (contract.Response, error) {
	c.asked.add(r.Hash())
	return c.next.Complete(ctx, r)
}

// recordingUse is what a recording holds beyond what its replays asked for:
// lines whose request no replay asked for, and lines a later line of the
// same hash overrides (a replay answers from the last one).
type recordingUse struct {
	Lines, Unasked, Overridden int
}

// unused reports the number of lines a prune would drop.
func (u recordingUse) unused() int { return u.Unasked + u.Overridden }

// scanRecording reads a recording and returns its lines and the index of the
// line a replay answers each hash from (the last).
func scanRecording(path string) ([][]byte, map[string]int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var lines [][]byte
	last := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var ex hostllm.Exchange
		if err := json.Unmarshal(sc.Bytes(), &ex); err != nil {
			return nil, nil, fmt.Errorf("%s: line %d: %w", path, len(lines)+1, err)
		}
		last[ex.Hash] = len(lines)
		lines = append(lines, append([]byte(nil), sc.Bytes()...))
	}
	return lines, last, sc.Err()
}

// useOf counts what the recording at path holds that asked does not need.
func useOf(path string, asked *askedHashes) (recordingUse, error) {
	lines, last, err := scanRecording(path)
	if err != nil {
		return recordingUse{}, err
	}
	u := recordingUse{Lines: len(lines)}
	for h := range last {
		if !asked.has(h) {
			u.Unasked++
		}
	}
	u.Overridden = len(lines) - len(last)
	return u, nil
}

// pruneRecording rewrites the recording at path with only the lines a replay
// answers from for a hash in asked, in their order, and returns what it
// dropped. The kept lines are copied byte for byte.
func pruneRecording(path string, asked *askedHashes) (recordingUse, error) {
	lines, last, err := scanRecording(path)
	if err != nil {
		return recordingUse{}, err
	}
	keep := make([]int, 0, len(last))
	u := recordingUse{Lines: len(lines), Overridden: len(lines) - len(last)}
	for h, i := range last {
		if asked.has(h) {
			keep = append(keep, i)
		} else {
			u.Unasked++
		}
	}
	sort.Ints(keep)
	var out bytes.Buffer
	for _, i := range keep {
		out.Write(lines[i])
		out.WriteByte('\n')
	}
	return u, os.WriteFile(path, out.Bytes(), 0o644)
}

func TestPruneRecording(t *testing.T) {
	ex := func(user, text string) string {
		req := contract.Request{Purpose: "rank", User: user, Messages: []contract.Message{{Role: "user", Content: "q"}}}
		b, _ := json.Marshal(hostllm.Exchange{Hash: req.Hash(), Source: "test", Request: req, Response: contract.Response{Text: text}})
		return string(b)
	}
	hash := func(user string) string {
		return contract.Request{Purpose: "rank", User: user, Messages: []contract.Message{{Role: "user", Content: "q"}}}.Hash()
	}
	a1, a2, b1, c1 := ex("a", "1"), ex("a", "2"), ex("b", "1"), ex("c", "1")
	tests := []struct {
		name  string
		lines []string
		asked []string
		want  recordingUse
		kept  []string
	}{
		{"all asked", []string{a1, b1}, []string{"a", "b"}, recordingUse{Lines: 2}, []string{a1, b1}},
		{"one not asked", []string{a1, b1, c1}, []string{"a", "c"}, recordingUse{Lines: 3, Unasked: 1}, []string{a1, c1}},
		{"a hash twice keeps the last", []string{a1, b1, a2}, []string{"a", "b"}, recordingUse{Lines: 3, Overridden: 1}, []string{b1, a2}},
		{"asked but absent", []string{b1}, []string{"a", "b"}, recordingUse{Lines: 1}, []string{b1}},
		{"nothing asked", []string{a1, a2, b1}, nil, recordingUse{Lines: 3, Unasked: 2, Overridden: 1}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "r.jsonl")
			if err := os.WriteFile(path, []byte(strings.Join(tc.lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			asked := &askedHashes{}
			for _, u := range tc.asked {
				asked.add(hash(u))
			}
			if u, err := useOf(path, asked); err != nil || u != tc.want {
				t.Fatalf("useOf = %+v, %v; want %+v", u, err, tc.want)
			}
			if u, err := pruneRecording(path, asked); err != nil || u != tc.want {
				t.Fatalf("pruneRecording = %+v, %v; want %+v", u, err, tc.want)
			}
			got, _ := os.ReadFile(path)
			want := ""
			for _, l := range tc.kept {
				want += l + "\n"
			}
			if string(got) != want {
				t.Fatalf("kept:\n%s\nwant:\n%s", got, want)
			}
			if u, _ := useOf(path, asked); u.unused() != 0 {
				t.Fatalf("after pruning, %+v unused", u)
			}
			if _, err := hostllm.LoadReplayer(path); err != nil {
				t.Fatalf("the pruned file does not load: %v", err)
			}
		})
	}
}
