package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/recmem/recmem/host"
	"github.com/recmem/recmem/pkg/seal"
	"github.com/recmem/recmem/pkg/slate"
	"github.com/recmem/recmem/pkg/workload"
)

// locomo returns the first n LoCoMo units, as the benchmarks use them.
func locomo(t testing.TB, n int) *workload.Memory {
	t.Helper()
	m, err := workload.LoCoMoMemory(workload.LoCoMoPath[3:], n)
	if err != nil {
		t.Skipf("LoCoMo: %v", err)
	}
	return m
}

func newClient(t testing.TB, opts host.ClientOptions) *host.Client {
	t.Helper()
	opts.Options.WasmPath = testWasm
	c, err := host.NewClient(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// step runs one call on a session opened on state and returns its output
// and the state after it: delta true keeps the state in binary form and
// appends ExportDelta's piece, false exports the JSON document.
func step(t testing.TB, c *host.Client, state []byte, export, input string, delta bool) (out, next []byte, warm bool) {
	t.Helper()
	ctx := context.Background()
	s, err := c.Session(ctx, state)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	if out, err = s.Call(ctx, export, []byte(input)); err != nil {
		t.Fatalf("%s: %v", export, err)
	}
	if delta {
		piece, err := s.ExportDelta(ctx)
		if err != nil {
			t.Fatal(err)
		}
		next = host.AppendState(state, piece)
	} else if next, err = s.Export(ctx); err != nil {
		t.Fatal(err)
	}
	return out, next, s.Warm
}

// TestWarmSessionsGiveColdAnswers runs one memory through a run of calls
// twice: on a client that keeps no warm instance, with JSON documents, and
// on one that keeps them, with a binary state carried by deltas. Every
// answer and the final memory are the same; after the first call, every
// session starts warm; a state that differs by its last segment imports.
func TestWarmSessionsGiveColdAnswers(t *testing.T) {
	m := locomo(t, 400)
	calls := [][2]string{
		{"add_units", string(m.AddUnits(0, 300))},
		{"select_slate", string(m.Select(0, 1000, ""))},
		{"record", string(workload.RecordSignal(0))},
		{"add_units", string(m.AddUnits(300, 320))},
		{"select_slate", string(m.Select(1, 1000, ""))},
		{"delete_units", `{"ids":["` + m.Units[5]["id"] + `"]}`},
		{"select_slate", string(m.Select(2, 1000, ""))},
		{"get_memory", `{}`},
	}
	cold := newClient(t, host.ClientOptions{Instances: 1, Warm: -1})
	warm := newClient(t, host.ClientOptions{Instances: 1, Warm: 2})
	var cs, ws []byte
	for i, c := range calls {
		want, next, _ := step(t, cold, cs, c[0], c[1], false)
		cs = next
		got, next, isWarm := step(t, warm, ws, c[0], c[1], true)
		if i > 0 && !isWarm {
			t.Errorf("call %d (%s) did not start warm", i, c[0])
		}
		ws = next
		if !bytes.Equal(got, want) {
			t.Fatalf("call %d (%s): warm answer differs from cold", i, c[0])
		}
	}
	// The binary state held is the JSON document's memory, byte for byte.
	s, err := cold.Session(context.Background(), ws)
	if err != nil {
		t.Fatal(err)
	}
	j, _ := s.Export(context.Background())
	s.Close(context.Background())
	if !bytes.Equal(j, cs) {
		t.Fatal("the binary state carried by deltas is not the JSON document's memory")
	}
	st := warm.WarmStats()
	if st.Hits != int64(len(calls)-1) {
		t.Errorf("warm stats %+v, want %d hits", st, len(calls)-1)
	}
	// A state the warm instance does not hold (one segment short) imports.
	_, _, isWarm := step(t, warm, ws[:firstPiece(ws)], "get_memory", `{}`, true)
	if isWarm {
		t.Error("an older state was served warm")
	}
}

// firstPiece is the length of a binary state's base.
func firstPiece(b []byte) int {
	return 32 + int(uint32(b[8])|uint32(b[9])<<8|uint32(b[10])<<16|uint32(b[11])<<24) + 8
}

// TestHammerWarm sends many users' calls at once (under -race in CI) to a
// client with fewer warm instances than users: each user's answers must be
// its own, whichever instance served them.
func TestHammerWarm(t *testing.T) {
	c := newClient(t, host.ClientOptions{Instances: 2, Warm: 3})
	const users, steps = 6, 8
	var wg sync.WaitGroup
	errs := make(chan error, users)
	for u := range users {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := context.Background()
			var state []byte
			for i := range steps {
				s, err := c.Session(ctx, state)
				if err != nil {
					errs <- err
					return
				}
				fail := func(err error) { s.Close(ctx); errs <- err }
				text := fmt.Sprintf("user %d says thing %d about pottery", u, i)
				unit := slate.Unit{ID: fmt.Sprintf("u%d-%d", u, i), Session: fmt.Sprint("s", u), Text: text}
				if _, err := s.AddUnits(ctx, []slate.Unit{unit}); err != nil {
					fail(fmt.Errorf("user %d step %d: %w", u, i, err))
					return
				}
				res, err := s.SelectSlate(ctx, slate.Request{Query: "pottery", Budget: 10000, Ranker: "bm25"})
				if err != nil {
					fail(err)
					return
				}
				if len(res.Units) != i+1 {
					fail(fmt.Errorf("user %d step %d: %d units in the slate, want %d", u, i, len(res.Units), i+1))
					return
				}
				for _, ch := range res.Units {
					if !strings.HasPrefix(ch.ID, fmt.Sprintf("u%d-", u)) {
						fail(fmt.Errorf("user %d step %d: another user's unit %s", u, i, ch.ID))
						return
					}
				}
				piece, err := s.ExportDelta(ctx)
				s.Close(ctx)
				if err != nil {
					errs <- err
					return
				}
				state = host.AppendState(state, piece)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	t.Logf("warm stats %+v", c.WarmStats())
}

// TestEdgeBinaryDeltas drives the stateless API with a binary state and
// deltas: the client appends each answer's delta, the tags chain, a read
// leaves the state as it was, the warm instance serves the next request, a
// damaged state is refused, and the memory equals the JSON mode's.
func TestEdgeBinaryDeltas(t *testing.T) {
	srv := edgeServer(t, host.EdgeOptions{})
	m := locomo(t, 200)
	type held struct {
		bin []byte
		tag string
	}
	var h held
	send := func(export string, input []byte, format string, delta bool) host.EdgeResponse {
		t.Helper()
		req := host.EdgeRequest{Tag: h.tag, Input: input, Format: format, Delta: host.EdgeDelta{Want: delta}}
		if h.bin != nil {
			req.State = host.PackState(h.bin)
		}
		code, body := post(t, srv.URL+"/v1/"+export, req)
		if code != 200 {
			t.Fatalf("%s: %d %s", export, code, body)
		}
		var r host.EdgeResponse
		if err := json.Unmarshal(body, &r); err != nil {
			t.Fatal(err)
		}
		if h.tag != "" && r.BaseTag != h.tag {
			t.Fatalf("%s: base_tag %s, want %s", export, r.BaseTag, h.tag)
		}
		switch {
		case r.Delta != "":
			d, err := host.UnpackState(r.Delta, 1<<30)
			if err != nil {
				t.Fatal(err)
			}
			h.bin = host.AppendState(h.bin, d)
		case r.State != "":
			b, err := host.UnpackState(r.State, 1<<30)
			if err != nil {
				t.Fatal(err)
			}
			h.bin = b
		}
		if r.Tag != host.StateTag(h.bin) {
			t.Fatalf("%s: tag %s is not the tag of the state held", export, r.Tag)
		}
		h.tag = r.Tag
		return r
	}
	r := send("add_units", m.AddUnits(0, 150), "binary", true)
	if r.State == "" || r.Delta != "" || !r.Changed {
		t.Fatalf("a new memory's first answer: %+v", r)
	}
	r = send("record", workload.RecordSignal(1), "", true)
	if r.Delta == "" || r.State != "" || !r.Changed {
		t.Fatalf("a change: %+v", r)
	}
	r = send("select_slate", m.Select(3, 500, ""), "", true)
	if r.Delta != "" || r.State != "" || r.Changed {
		t.Fatalf("a read: %+v", r)
	}
	r = send("add_units", m.AddUnits(150, 160), "", true)
	if r.Delta == "" || len(r.Delta) > len(host.PackState(h.bin))/4 {
		t.Fatalf("the delta of 10 units is %d bytes packed, the state %d", len(r.Delta), len(host.PackState(h.bin)))
	}
	// The same state, but one byte of it changed: refused, by tag or by checksum.
	bad := bytes.Clone(h.bin)
	bad[len(bad)-20] ^= 1
	code, body := post(t, srv.URL+"/v1/get_memory", host.EdgeRequest{State: host.PackState(bad), Tag: host.StateTag(bad)})
	if code != 400 || !strings.Contains(string(body), "checksum does not match") {
		t.Errorf("a damaged state: %d %s", code, body)
	}
	// JSON out of a binary state: the same memory as a JSON-mode run's.
	r = send("get_memory", []byte(`{}`), "json", false)
	if r.State == "" {
		t.Fatal("no state")
	}
	code, _ = post(t, srv.URL+"/v1/select_slate", host.EdgeRequest{State: host.PackState(h.bin), Tag: h.tag, Format: "xml"})
	if code != 400 {
		t.Errorf("format xml: %d", code)
	}
	code, _ = post(t, srv.URL+"/v1/select_slate", host.EdgeRequest{State: host.PackState(h.bin), Tag: h.tag, Format: "json", Delta: host.EdgeDelta{Want: true}})
	if code != 400 {
		t.Errorf("delta with json: %d", code)
	}
}

// TestEdgeWarmIsAcrossUsersSafe sends two users' states alternately to a
// one-instance server: every answer is its own user's.
func TestEdgeWarmIsAcrossUsersSafe(t *testing.T) {
	ctx := context.Background()
	c, err := host.NewClient(ctx, host.ClientOptions{Options: host.Options{WasmPath: testWasm}, Instances: 1, Warm: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	srv := httptest.NewServer(host.NewEdgeHandler(c, host.EdgeOptions{}))
	defer srv.Close()
	states := map[string]host.EdgeResponse{}
	for i := range 6 {
		user := []string{"ann", "bob"}[i%2]
		prev := states[user]
		input := fmt.Sprintf(`{"units":[{"id":"%s-%d","session":"s","text":"%s note %d"}]}`, user, i, user, i)
		code, body := post(t, srv.URL+"/v1/add_units", host.EdgeRequest{State: prev.State, Tag: prev.Tag, Input: json.RawMessage(input), Format: "binary"})
		if code != http.StatusOK {
			t.Fatalf("%d %s", code, body)
		}
		var r host.EdgeResponse
		json.Unmarshal(body, &r)
		states[user] = r
		code, body = post(t, srv.URL+"/v1/select_slate", host.EdgeRequest{State: r.State, Tag: r.Tag, Input: json.RawMessage(`{"query":"note","budget":5000,"ranker":"bm25"}`)})
		if code != http.StatusOK || strings.Contains(string(body), map[string]string{"ann": "bob-", "bob": "ann-"}[user]) {
			t.Fatalf("%s saw another user's memory: %s", user, body)
		}
	}
	if st := c.WarmStats(); st.Hits == 0 {
		t.Errorf("no warm hit: %+v", st)
	}
}

// TestSealedBinaryPieces seals every binary piece a keyed client hands out:
// the whole state and each delta open with the key, appended as they come;
// a bare piece, a changed one and another key's are refused before import.
func TestSealedBinaryPieces(t *testing.T) {
	ctx := context.Background()
	key := []byte("0123456789abcdef0123456789abcdef-test-key")
	c := newClient(t, host.ClientOptions{Instances: 1, SealKey: key})
	s, err := c.Session(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var units []slate.Unit
	for i := range 50 {
		units = append(units, slate.Unit{ID: fmt.Sprint("u", i), Session: "s", Text: fmt.Sprintf("turn %d about the kiln", i)})
	}
	s.AddUnits(ctx, units)
	state, err := s.ExportBinary(ctx)
	s.Close(ctx)
	if err != nil || !bytes.HasPrefix(state, []byte(seal.Prefix)) {
		t.Fatalf("%v %q", err, state[:20])
	}
	s, err = c.Session(ctx, state)
	if err != nil {
		t.Fatal(err)
	}
	s.AddUnits(ctx, []slate.Unit{{ID: "late", Session: "s", Text: "the kiln is fixed"}})
	piece, err := s.ExportDelta(ctx)
	s.Close(ctx)
	if err != nil || !bytes.HasPrefix(piece, []byte(seal.Prefix)) {
		t.Fatalf("%v %q", err, piece)
	}
	state = host.AppendState(state, piece)
	s, err = c.Session(ctx, state)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := s.SelectSlate(ctx, slate.Request{Query: "kiln fixed", Budget: 20, Ranker: "bm25"})
	s.Close(ctx)
	best := ""
	for _, u := range m.Units {
		if u.Rank == 1 {
			best = u.ID
		}
	}
	if best != "late" {
		t.Fatalf("the delta's unit is not the best match: %+v", m.Units)
	}
	_, bare, _ := bytes.Cut(state, []byte("\n"))
	changed := bytes.Clone(state)
	changed[len(changed)-30] ^= 1
	other := newClient(t, host.ClientOptions{Instances: 1, SealKey: []byte("another key, also thirty-two bytes long")})
	for name, tt := range map[string]struct {
		c     *host.Client
		state []byte
		want  error
	}{
		"bare":        {c, bare, seal.ErrUnsealed},
		"changed":     {c, changed, seal.ErrMismatch},
		"another key": {other, state, seal.ErrMismatch},
	} {
		if _, err := tt.c.Session(ctx, tt.state); !errors.Is(err, tt.want) {
			t.Errorf("%s: err = %v, want %v", name, err, tt.want)
		}
	}
}
