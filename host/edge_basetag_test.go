package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/recmem/recmem/host"
	"github.com/recmem/recmem/pkg/seal"
)

// baseTagServer is an edge server on a client with instances instances, warm
// of them kept warm, and seal key key (nil: none), with opts.
func baseTagServer(t *testing.T, instances, warm int, key []byte, opts host.EdgeOptions) (*httptest.Server, *host.Client) {
	t.Helper()
	ctx := context.Background()
	c, err := host.NewClient(ctx, host.ClientOptions{Options: host.Options{WasmPath: testWasm}, Instances: instances, Warm: warm, SealKey: key})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(host.NewEdgeHandler(c, opts))
	t.Cleanup(func() { srv.Close(); c.Close(ctx) })
	return srv, c
}

// edgeCall posts req and returns the status, the answer (on 200) or the
// error message.
func edgeCall(url string, req host.EdgeRequest) (int, host.EdgeResponse, string, error) {
	b, _ := json.Marshal(req)
	resp, err := http.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		return 0, host.EdgeResponse{}, "", err
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	buf.ReadFrom(resp.Body)
	if resp.StatusCode != http.StatusOK {
		var e host.EdgeError
		json.Unmarshal(buf.Bytes(), &e)
		return resp.StatusCode, host.EdgeResponse{}, e.Error.Message, nil
	}
	var r host.EdgeResponse
	err = json.Unmarshal(buf.Bytes(), &r)
	return resp.StatusCode, r, "", err
}

// holder is a client of the stateless API keeping its binary state: it
// sends base_tag when it may, and the whole state when the server answers
// 409.
type holder struct {
	bin     []byte
	tag     string
	byTag   int // requests served by tag
	resends int // 409s answered by sending the whole state
}

// apply folds an answer into the state held.
func (h *holder) apply(r host.EdgeResponse) error {
	switch {
	case r.Delta != "":
		d, err := host.UnpackState(r.Delta, 1<<30)
		if err != nil {
			return err
		}
		h.bin = host.AppendState(h.bin, d)
	case r.State != "":
		b, err := host.UnpackState(r.State, 1<<30)
		if err != nil {
			return err
		}
		h.bin = b
	}
	h.tag = r.Tag
	return nil
}

// call runs export on the state held: by tag, then, on 409, with the state.
func (h *holder) call(url, export string, input []byte) (host.EdgeResponse, error) {
	if h.tag != "" {
		code, r, msg, err := edgeCall(url+"/v1/"+export, host.EdgeRequest{BaseTag: h.tag, Input: input})
		switch {
		case err != nil:
			return r, err
		case code == http.StatusOK:
			h.byTag++
			return r, h.apply(r)
		case code != http.StatusConflict:
			return r, fmt.Errorf("%s by tag: %d %s", export, code, msg)
		}
		h.resends++
	}
	req := host.EdgeRequest{Input: input, Format: "binary", Delta: host.EdgeDelta{Want: true}}
	if h.bin != nil {
		req.State, req.Tag = host.PackState(h.bin), h.tag
	}
	code, r, msg, err := edgeCall(url+"/v1/"+export, req)
	if err == nil && code != http.StatusOK {
		err = fmt.Errorf("%s: %d %s", export, code, msg)
	}
	if err != nil {
		return r, err
	}
	return r, h.apply(r)
}

// TestEdgeBaseTag runs one memory through the stateless API twice, once
// sending the whole state every time and once naming it by tag: every
// result and tag is the same; by tag, the requests carry no state, the
// answers carry only deltas, and a client's own delta is applied.
func TestEdgeBaseTag(t *testing.T) {
	for _, key := range [][]byte{nil, []byte("0123456789abcdef0123456789abcdef-base-tag")} {
		t.Run(fmt.Sprint("sealed=", key != nil), func(t *testing.T) {
			m := locomo(t, 120)
			srv, _ := baseTagServer(t, 2, 2, key, host.EdgeOptions{BaseTag: true})
			calls := [][2]string{
				{"add_units", string(m.AddUnits(0, 100))},
				{"select_slate", string(m.Select(0, 800, ""))},
				{"record", `{"signals":[{"user":"u1","item":"a","action":"like","time":1700000000}]}`},
				{"add_units", string(m.AddUnits(100, 110))},
				{"select_slate", string(m.Select(1, 800, ""))},
				{"get_memory", `{}`},
			}
			var byState, byTag holder
			for i, c := range calls {
				got, err := byTag.call(srv.URL, c[0], []byte(c[1]))
				if err != nil {
					t.Fatal(err)
				}
				// The whole state every time: the reference (after, since
				// it takes the warm instance of its state, which is the
				// same state).
				want, err := byState.callWhole(srv.URL, c[0], []byte(c[1]))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got.Result, want.Result) || got.Tag != want.Tag || got.Changed != want.Changed {
					t.Fatalf("call %d (%s): by tag %s %s %v, by state %s %s %v", i, c[0], got.Result, got.Tag, got.Changed, want.Result, want.Tag, want.Changed)
				}
				if i > 0 && (got.State != "" || !got.Changed && got.Delta != "") {
					t.Fatalf("call %d (%s): an answer by tag carries the whole state, or a delta without a change", i, c[0])
				}
			}
			if byTag.byTag != len(calls)-1 || byTag.resends != 0 {
				t.Fatalf("served by tag %d times, resent %d times, want %d and 0", byTag.byTag, byTag.resends, len(calls)-1)
			}
			if !bytes.Equal(byTag.bin, byState.bin) {
				t.Fatal("the states held differ")
			}
			// A client's own delta: made on another client (as recmem.js
			// would make it), sent with the tag of the state it appends to.
			ctx := context.Background()
			local, err := host.NewClient(ctx, host.ClientOptions{Options: host.Options{WasmPath: testWasm}, Instances: 1, Warm: -1})
			if err != nil {
				t.Fatal(err)
			}
			defer local.Close(ctx)
			s, err := local.Session(ctx, byTag.bin)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Call(ctx, "add_units", m.AddUnits(110, 115)); err != nil {
				t.Fatal(err)
			}
			seg, err := s.ExportDelta(ctx)
			s.Close(ctx)
			if err != nil || len(seg) == 0 || seg[5] != 'S' {
				t.Fatalf("a local delta: %v %q", err, seg[:min(len(seg), 8)])
			}
			whole := host.AppendState(byTag.bin, seg)
			wantTag := host.StateTag(whole)
			if key != nil {
				wantTag = seal.Sum(key, whole)
			}
			packed := host.PackState(seg)
			if key != nil {
				// A sealed server takes no segment it did not seal (issue
				// 22): the same delta is refused, with the warm state as it
				// was; sealed with the server's key (by a client trusted
				// with it), it is taken.
				code, _, msg, err := edgeCall(srv.URL+"/v1/select_slate", host.EdgeRequest{BaseTag: byTag.tag, Delta: host.EdgeDelta{Segment: packed}, Input: m.Select(2, 800, "")})
				if err != nil || code != http.StatusUnprocessableEntity || !strings.Contains(msg, "a segment it did not seal is refused") {
					t.Fatalf("an unsealed delta on a sealed server: %d %s %v", code, msg, err)
				}
				packed = host.PackState(seal.Seal(key, seg))
			}
			code, r, msg, err := edgeCall(srv.URL+"/v1/select_slate", host.EdgeRequest{BaseTag: byTag.tag, Delta: host.EdgeDelta{Segment: packed}, Input: m.Select(2, 800, "")})
			if err != nil || code != 200 {
				t.Fatalf("base_tag with a delta: %d %s %v", code, msg, err)
			}
			if r.BaseTag != wantTag || r.Tag != wantTag || r.Changed || r.State != "" || r.Delta != "" {
				t.Fatalf("base_tag with a delta: %+v, want the tag %s of the state and its delta, unchanged", r, wantTag)
			}
			ref, err := (&holder{bin: whole, tag: wantTag}).callWhole(srv.URL, "select_slate", m.Select(2, 800, ""))
			if err != nil || !bytes.Equal(ref.Result, r.Result) {
				t.Fatalf("the slate with the delta differs from the whole state's: %v", err)
			}
		})
	}
}

// callWhole runs export with the whole state held, as a client without
// base_tag does.
func (h *holder) callWhole(url, export string, input []byte) (host.EdgeResponse, error) {
	req := host.EdgeRequest{Input: input, Format: "binary", Delta: host.EdgeDelta{Want: true}}
	if h.bin != nil {
		req.State, req.Tag = host.PackState(h.bin), h.tag
	}
	code, r, msg, err := edgeCall(url+"/v1/"+export, req)
	if err == nil && code != http.StatusOK {
		err = fmt.Errorf("%s: %d %s", export, code, msg)
	}
	if err != nil {
		return r, err
	}
	return r, h.apply(r)
}

// TestEdgeBaseTagRefusals: what a request by tag is refused with, and that
// a refused delta leaves the warm state as it was.
func TestEdgeBaseTagRefusals(t *testing.T) {
	m := locomo(t, 60)
	srv, _ := baseTagServer(t, 1, 1, nil, host.EdgeOptions{BaseTag: true})
	var h holder
	if _, err := h.call(srv.URL, "add_units", m.AddUnits(0, 50)); err != nil {
		t.Fatal(err)
	}
	other := holder{}
	if _, err := other.callWhole(srv.URL, "add_units", m.AddUnits(50, 55)); err != nil {
		t.Fatal(err)
	}
	// other's state took the one warm place: h's tag is no longer held.
	code, _, msg, _ := edgeCall(srv.URL+"/v1/get_memory", host.EdgeRequest{BaseTag: h.tag})
	if code != http.StatusConflict || !strings.Contains(msg, `send the whole state in "state"`) || !strings.Contains(msg, h.tag) {
		t.Fatalf("an evicted tag: %d %s", code, msg)
	}
	otherSeg := func() []byte { // a segment of another state than other's
		var x holder
		x.callWhole(srv.URL, "add_units", m.AddUnits(0, 3))
		bin := x.bin
		x.callWhole(srv.URL, "add_units", m.AddUnits(3, 4))
		return x.bin[len(bin):]
	}()
	if _, err := other.callWhole(srv.URL, "get_memory", nil); err != nil { // warm again
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		req  host.EdgeRequest
		code int
		msg  string
	}{
		{"an unknown tag", host.EdgeRequest{BaseTag: "sha256:" + strings.Repeat("0", 64)}, 409, "holds no state sha256:000"},
		{"base_tag and state", host.EdgeRequest{BaseTag: other.tag, State: host.PackState(other.bin), Tag: other.tag}, 400, "base_tag: send either"},
		{"a delta without base_tag", host.EdgeRequest{Delta: host.EdgeDelta{Segment: host.PackState(otherSeg)}}, 400, `delta: a segment to append needs "base_tag"`},
		{"a delta that is not gzip", host.EdgeRequest{BaseTag: other.tag, Delta: host.EdgeDelta{Segment: "bm90IGd6aXA="}}, 400, "delta: not gzip"},
		{"a whole state as a delta", host.EdgeRequest{BaseTag: other.tag, Delta: host.EdgeDelta{Segment: host.PackState(other.bin)}}, 400, "delta: not a segment"},
		{"a delta of another state", host.EdgeRequest{BaseTag: other.tag, Delta: host.EdgeDelta{Segment: host.PackState(otherSeg)}}, 400, "(a delta of another state)"},
		{"format xml", host.EdgeRequest{BaseTag: other.tag, Format: "xml"}, 400, "format: want"},
	} {
		code, _, msg, err := edgeCall(srv.URL+"/v1/get_memory", tt.req)
		if err != nil || code != tt.code || !strings.Contains(msg, tt.msg) {
			t.Errorf("%s: %d %q %v, want %d and %q", tt.name, code, msg, err, tt.code, tt.msg)
		}
	}
	// After every refusal the warm state is still other's, served by tag.
	before := other.tag
	r, err := other.call(srv.URL, "get_memory", nil)
	if err != nil || other.byTag != 1 || r.Tag != before || r.Changed {
		t.Fatalf("after the refusals: %v, served by tag %d times, %+v", err, other.byTag, r)
	}
	// The request's body is checked before anything: a delta of the wrong type.
	code, _, msg, _ = edgeCall(srv.URL+"/v1/get_memory", host.EdgeRequest{})
	if code != 200 {
		t.Fatalf("a new memory: %d %s", code, msg)
	}
	resp, _ := http.Post(srv.URL+"/v1/get_memory", "application/json", strings.NewReader(`{"base_tag":"x","delta":7}`))
	if resp.StatusCode != 400 {
		t.Errorf(`"delta": 7: %d`, resp.StatusCode)
	}
	resp.Body.Close()
	// A server without BaseTag answers 409, naming what to send.
	plain, _ := baseTagServer(t, 1, 1, nil, host.EdgeOptions{})
	code, _, msg, _ = edgeCall(plain.URL+"/v1/get_memory", host.EdgeRequest{BaseTag: other.tag})
	if code != http.StatusConflict || !strings.Contains(msg, "does not serve a state by its tag") {
		t.Errorf("a server without base tags: %d %s", code, msg)
	}
}

// TestEdgeBaseTagAcrossUsers has users add and read their own notes at once
// by tag, on a server with fewer warm places than users (so that tags are
// evicted and states resent): every user sees only its own notes, and ends
// with all of them. Run it with -race.
func TestEdgeBaseTagAcrossUsers(t *testing.T) {
	srv, c := baseTagServer(t, 2, 2, nil, host.EdgeOptions{BaseTag: true})
	users := []string{"ann", "bob", "cy", "dee"}
	var wg sync.WaitGroup
	errs := make(chan error, len(users))
	holders := make([]*holder, len(users))
	for k, user := range users {
		holders[k] = &holder{}
		wg.Add(1)
		go func(user string, h *holder) {
			defer wg.Done()
			for i := range 6 {
				in := fmt.Sprintf(`{"units":[{"id":"%s-%d","session":"s","text":"%s writes note %d"}]}`, user, i, user, i)
				if _, err := h.call(srv.URL, "add_units", []byte(in)); err != nil {
					errs <- fmt.Errorf("%s: %w", user, err)
					return
				}
				r, err := h.call(srv.URL, "select_slate", []byte(`{"query":"writes note","budget":5000,"ranker":"bm25"}`))
				if err != nil {
					errs <- fmt.Errorf("%s: %w", user, err)
					return
				}
				for _, o := range users {
					if o != user && strings.Contains(string(r.Result), `"`+o+`-`) {
						errs <- fmt.Errorf("%s saw %s's notes: %s", user, o, r.Result)
						return
					}
				}
				if n := strings.Count(string(r.Result), `"id":"`+user+`-`); n != i+1 {
					errs <- fmt.Errorf("%s: %d of its %d notes in the slate", user, n, i+1)
					return
				}
			}
		}(user, holders[k])
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	byTag, resends := 0, 0
	for _, h := range holders {
		byTag, resends = byTag+h.byTag, resends+h.resends
	}
	if byTag == 0 {
		t.Errorf("no request was served by tag (%d resends)", resends)
	}
	t.Logf("served by tag %d, resent %d, warm %+v", byTag, resends, c.WarmStats())
}
