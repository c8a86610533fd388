package host_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recmem/recmem/host"
	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/seal"
	"github.com/recmem/recmem/pkg/workload"
)

// The attacks of issue 22 on the stateless API, and more of the same kind,
// each against an in-process server. The targets they hold: a sealed server
// never seals a state holding bytes it did not produce; no request under
// 100 kB holds an instance more than 1 s or grows its memory by more than
// 64 MB (host.Client.Usage measures both, from the moment an instance is
// handed out to its return); warm instances answer as a clean import would.

// hostileServer is an edge server with two instances, two warm, the tiny
// catalog, a seal key (nil: none) and opts, and its client.
func hostileServer(t *testing.T, key []byte, opts host.EdgeOptions) (*httptest.Server, *host.Client) {
	t.Helper()
	ctx := context.Background()
	cat, err := os.ReadFile("../testdata/catalog/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	c, err := host.NewClient(ctx, host.ClientOptions{Options: host.Options{WasmPath: testWasm}, Instances: 2, Warm: 2, Catalog: cat, SealKey: key})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(host.NewEdgeHandler(c, opts))
	t.Cleanup(func() { srv.Close(); c.Close(ctx) })
	return srv, c
}

// likes is a record input of n likes of games with a genre and a platform,
// maintained at once: a memory with "likes" chunks.
func likes(n int) json.RawMessage {
	var s []string
	for i := range n {
		s = append(s, fmt.Sprintf(`{"user":"u1","item":"g%d","action":"like","meta":{"genre":["Puzzle"],"platform":["Switch"]},"time":%d}`, i, 1700000000+i))
	}
	return json.RawMessage(`{"signals":[` + strings.Join(s, ",") + `],"maintain":"fixed"}`)
}

// rawBody posts body as it is and returns the status, the answer and the
// message of an error answer.
func rawBody(t *testing.T, url string, body []byte) (int, host.EdgeResponse, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	buf.ReadFrom(resp.Body)
	if resp.StatusCode != http.StatusOK {
		var e host.EdgeError
		json.Unmarshal(buf.Bytes(), &e)
		return resp.StatusCode, host.EdgeResponse{}, e.Error.Message
	}
	var r host.EdgeResponse
	if err := json.Unmarshal(buf.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, r, ""
}

// TestEdgeSealHolds (issue 22, finding 1): on a server with a seal key and
// base tags, a client-forged segment (every preference turned into
// "avoids", its checksum recomputed) sent as the delta of a sealed state
// was applied, and the answer sealed; sent later as a whole state it was
// accepted. Now every way client bytes could reach a sealed answer is
// refused, and the warm state stays as it was.
func TestEdgeSealHolds(t *testing.T) {
	srv, _ := hostileServer(t, sealKey, host.EdgeOptions{BaseTag: true})
	code, r, msg := rawBody(t, srv.URL+"/v1/record", mustJSON(host.EdgeRequest{Input: likes(6), Format: "binary"}))
	if code != 200 {
		t.Fatal(code, msg)
	}
	st, err := host.UnpackState(r.State, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	mem, err := workload.MemoryOf(st)
	if err != nil {
		t.Fatal(err)
	}
	avoid, err := workload.AvoidEverything(mem)
	if err != nil {
		t.Fatal(err)
	}
	forgedSeg, err := workload.Segment(st, workload.Section('M', avoid))
	if err != nil {
		t.Fatal(err)
	}
	forged := append(bytes.Clone(st), forgedSeg...)
	twenty, err := workload.EmptySegments(st, 20)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		req  host.EdgeRequest
		want int
		msg  string
	}{
		{"a forged segment by base_tag", host.EdgeRequest{BaseTag: r.Tag, Delta: host.EdgeDelta{Segment: host.PackState(forgedSeg)}},
			422, "delta: this server seals its states, and a segment it did not seal is refused"},
		{"the same segment sealed with another key", host.EdgeRequest{BaseTag: r.Tag, Delta: host.EdgeDelta{Segment: host.PackState(seal.Seal([]byte("another key, guessed or stolen elsewhere"), forgedSeg))}},
			422, "delta: does not match its seal"},
		{"20 segments by base_tag (46 kB in the integrator's run)", host.EdgeRequest{BaseTag: r.Tag, Delta: host.EdgeDelta{Segment: host.PackState(twenty[len(st):])}},
			422, "a segment it did not seal is refused"},
		{"the forged state whole, with the state's seal", host.EdgeRequest{State: host.PackState(forged), Tag: r.Tag},
			422, "tag: does not match the state's seal"},
		{"the forged state whole, with its SHA-256", host.EdgeRequest{State: host.PackState(forged), Tag: host.StateTag(forged)},
			422, "tag: this server seals its states"},
		{"the forged state whole, sealed with another key", host.EdgeRequest{State: host.PackState(forged), Tag: seal.Sum([]byte("another key, guessed or stolen elsewhere"), forged)},
			422, "tag: does not match the state's seal"},
	}
	for _, c := range cases {
		c.req.Input = json.RawMessage(`{}`)
		code, _, msg := rawBody(t, srv.URL+"/v1/get_memory", mustJSON(c.req))
		if code != c.want || !strings.Contains(msg, c.msg) {
			t.Errorf("%s: %d %s, want %d %q", c.name, code, msg, c.want, c.msg)
		}
	}
	// The sealed state is warm as it was: by its tag, its chunks like.
	code, got, msg := rawBody(t, srv.URL+"/v1/get_memory", mustJSON(host.EdgeRequest{BaseTag: r.Tag, Input: json.RawMessage(`{}`)}))
	if code != 200 || !bytes.Contains(got.Result, []byte(`"polarity":"likes"`)) || bytes.Contains(got.Result, []byte(`"polarity":"avoids"`)) {
		t.Fatalf("the warm state after the refusals: %d %s %.300s", code, msg, got.Result)
	}
	// Every answer's tag is the seal of the bytes the client holds, and
	// those are the server's own pieces only.
	h := holder{bin: st, tag: r.Tag}
	for i, c := range []string{`{"units":[{"id":"a","session":"s","text":"kiln fixed"}]}`, `{"ids":["a"]}`} {
		export := []string{"add_units", "delete_units"}[i]
		if _, err := h.call(srv.URL, export, []byte(c)); err != nil {
			t.Fatal(err)
		}
		if h.tag != seal.Sum(sealKey, h.bin) {
			t.Fatalf("%s: the answer's tag is not the seal of the state held", export)
		}
	}
}

// TestClientSealPaths: every path by which a Client with a SealKey signs a
// state signs only a state it computed from states it opened: Export,
// ExportBinary and ExportDelta seal what the module wrote; Session and
// Import open only states sealed with the key; Call refuses import_state,
// which would let unchecked bytes into a state the client then seals.
func TestClientSealPaths(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, host.ClientOptions{Instances: 2, SealKey: sealKey})
	s, err := c.Session(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	if _, err := s.Call(ctx, "record", likes(6)); err != nil {
		t.Fatal(err)
	}
	doc, err := s.Export(ctx)
	if err != nil {
		t.Fatal(err)
	}
	bin, err := s.ExportBinary(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Call(ctx, "add_units", []byte(`{"units":[{"id":"a","session":"s","text":"kiln fixed"}]}`)); err != nil {
		t.Fatal(err)
	}
	delta, err := s.ExportDelta(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := seal.Open(sealKey, doc); err != nil {
		t.Errorf("Export: %v", err)
	}
	for name, sealed := range map[string][]byte{"ExportBinary": bin, "ExportDelta": delta} {
		if !bytes.HasPrefix(sealed, []byte(seal.Prefix)) {
			t.Errorf("%s: not sealed", name)
		}
	}
	if err := s.Import(ctx, host.AppendState(bin, delta)); err != nil {
		t.Fatalf("its own sealed pieces: %v", err)
	}
	bare, err := c.Session(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer bare.Close(ctx)
	plain, _ := bare.Call(ctx, "export_state", []byte(`{"format":"binary"}`))
	if _, err := s.Call(ctx, "import_state", plain); err == nil || !strings.Contains(err.Error(), "Session.Import") {
		t.Fatalf("import_state through Call on a sealing client: %v", err)
	}
	if err := s.Import(ctx, plain); err == nil {
		t.Fatal("Import took an unsealed state")
	}
}

// TestEdgeBoundedWork (issue 22, findings 2 and 3): requests of a few kB
// that unfold into long or large imports. Each is refused before the work,
// naming the limit, with the instance held for milliseconds and its memory
// grown by little; an ordinary user's requests meanwhile are served.
func TestEdgeBoundedWork(t *testing.T) {
	empty := engine.New()
	b, _ := empty.Call("export_state", []byte(`{"format":"binary"}`))
	mem, err := workload.MemoryOf(b)
	if err != nil {
		t.Fatal(err)
	}
	tiny := tinyUnitsState(t, 20000)
	segs, err := workload.UnitSegments(tiny, 2000)
	if err != nil {
		t.Fatal(err)
	}
	seventeen, err := workload.UnitSegments(tiny, 17)
	if err != nil {
		t.Fatal(err)
	}
	var zeros bytes.Buffer
	zw := gzip.NewWriter(&zeros)
	zw.Write(make([]byte, 5<<20))
	zw.Close()
	near32 := func() []byte { // a piece whose header says 4 GB of body
		p := workload.Piece('B', 0, 0, workload.Section('M', mem))
		binary.LittleEndian.PutUint32(p[8:], 0xFFFFFFF0)
		return p
	}
	huge := func() []byte { // a units section claiming 2^63 tokens
		u := append([]byte{0}, binary.AppendUvarint(nil, 1<<63)...)
		return workload.Piece('B', 0, 0, append(workload.Section('M', mem), workload.Section('U', u)...))
	}
	sectionLen := func() []byte { // a section whose length is near 2^32
		body := workload.Section('M', mem)
		binary.LittleEndian.PutUint32(body[1:], 0xFFFFFFFF)
		return workload.Piece('B', 0, 0, body)
	}
	garbage := func() []byte { // checksum-valid random bytes
		r := rand.New(rand.NewPCG(22, 1))
		body := make([]byte, 60000)
		for i := range body {
			body[i] = byte(r.Uint32())
		}
		return workload.Piece('B', 0, 0, append(workload.Section('M', mem), workload.Section('U', body)...))
	}
	type attack struct {
		name   string
		state  []byte // sent with its SHA-256 tag
		packed string // instead: sent as it is
		want   int
		msg    string
	}
	attacks := []attack{
		{name: "2,000 segments after a base of 20,000 units", state: segs, want: 413, msg: "unpacks to more than"},
		{name: "17 segments after a base of 20,000 units", state: seventeen, want: 400, msg: "more than 16 segments after the base"},
		{name: "1,000,000 unused words (7 MB in about 33 kB)", state: workload.UnusedVocabulary(mem, 1_000_000), want: 413, msg: "unpacks to more than"},
		{name: "a gzip bomb: 5 MB of zeros", packed: base64.StdEncoding.EncodeToString(zeros.Bytes()), want: 413, msg: "unpacks to more than"},
		{name: "100,000 one-word units packed in 15 kB", state: tinyUnitsState(t, 100000), want: 413, msg: "unpacks to more than"},
		{name: "a body length near 2^32", state: near32(), want: 400, msg: "truncated: the header says 4294967280 bytes of body"},
		{name: "a section length near 2^32", state: sectionLen(), want: 400, msg: "section 'M' says 4294967295 bytes"},
		{name: "2^63 tokens", state: huge(), want: 400, msg: "tokens: count 9223372036854775808 is more than the section holds"},
		{name: "checksum-valid garbage", state: garbage(), want: 400, msg: "state.binary.units."},
	}
	srv, c := hostileServer(t, nil, host.EdgeOptions{})
	var wg sync.WaitGroup
	stop := make(chan struct{})
	ordinary := make(chan string, 1)
	wg.Add(1)
	go func() { // an ordinary user, all along
		defer wg.Done()
		h := holder{}
		for i := 0; ; i++ {
			select {
			case <-stop:
				ordinary <- fmt.Sprintf("%d requests served", i)
				return
			default:
			}
			if _, err := h.callWhole(srv.URL, "record", fmt.Appendf(nil, `{"signals":[{"user":"o","item":"i%d","action":"like","time":%d}]}`, i, 1700000000+i)); err != nil {
				ordinary <- err.Error()
				return
			}
		}
	}()
	for _, a := range attacks {
		packed, tag := a.packed, ""
		if a.state != nil {
			packed, tag = host.PackState(a.state), host.StateTag(a.state)
		}
		body := mustJSON(host.EdgeRequest{State: packed, Tag: tag, Input: json.RawMessage(`{"query":"ok","budget":100}`)})
		t0 := time.Now()
		code, _, msg := rawBody(t, srv.URL+"/v1/select_slate", body)
		took := time.Since(t0)
		t.Logf("%s: request %s, %d in %v: %s", a.name, kb(len(body)), code, took.Round(time.Millisecond), msg)
		if code != a.want || !strings.Contains(msg, a.msg) {
			t.Errorf("%s: %d %s, want %d %q", a.name, code, msg, a.want, a.msg)
		}
		if len(body) < 100_000 && took > time.Second {
			t.Errorf("%s: a request of %s took %v", a.name, kb(len(body)), took)
		}
	}
	close(stop)
	wg.Wait()
	if got := <-ordinary; !strings.HasSuffix(got, "requests served") {
		t.Errorf("the ordinary user: %s", got)
	} else {
		t.Logf("the ordinary user meanwhile: %s", got)
	}
	u := c.Usage()
	t.Logf("instances: held at most %v, grew at most %.1f MB", u.LongestHold.Round(time.Millisecond), float64(u.LargestGrowth)/1e6)
	if u.LongestHold > time.Second || u.LargestGrowth > 64<<20 {
		t.Errorf("an instance was held %v and grew %d bytes: the targets are 1 s and 64 MB", u.LongestHold, u.LargestGrowth)
	}
}

// TestEdgeBudgetBehindTheExpansion: the same attacks on a server that
// unpacks anything up to its state limit (MaxExpansion -1) are refused by
// the module's own bounds, before it allocates what they declare.
func TestEdgeBudgetBehindTheExpansion(t *testing.T) {
	empty := engine.New()
	b, _ := empty.Call("export_state", []byte(`{"format":"binary"}`))
	mem, _ := workload.MemoryOf(b)
	srv, c := hostileServer(t, nil, host.EdgeOptions{MaxExpansion: -1})
	segs, err := workload.UnitSegments(tinyUnitsState(t, 20000), 2000)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []struct {
		name  string
		state []byte
		msg   string
	}{
		{"2,000 segments after a base of 20,000 units", segs, "more than 16 segments after the base"},
		{"700,000 unused words", workload.UnusedVocabulary(mem, 700_000), "tokens[0]: used by no unit of this piece"},
		{"300,000 used words", workload.Vocabulary(mem, 300_000), "importing it would take about 293.1 MB of memory"},
	} {
		body := mustJSON(host.EdgeRequest{State: host.PackState(a.state), Tag: host.StateTag(a.state), Input: json.RawMessage(`{}`)})
		t0 := time.Now()
		code, _, msg := rawBody(t, srv.URL+"/v1/get_memory", body)
		t.Logf("%s: %s unpacked, request %s: %d in %v", a.name, kb(len(a.state)), kb(len(body)), code, time.Since(t0).Round(time.Millisecond))
		if code != 400 || !strings.Contains(msg, a.msg) {
			t.Errorf("%s: %d %s, want 400 %q", a.name, code, msg, a.msg)
		}
	}
	u := c.Usage()
	t.Logf("instances: held at most %v, grew at most %.1f MB", u.LongestHold.Round(time.Millisecond), float64(u.LargestGrowth)/1e6)
	if u.LargestGrowth > 64<<20 {
		t.Errorf("an instance grew %d bytes refusing what it never allocated", u.LargestGrowth)
	}
}

// TestEdgeDeadlineCutsOff: a request whose deadline passes while the module
// imports its state is cut off (504), its instance discarded, and the next
// request is served by a new one. The import here is a genuine one, long
// only because the deadline is short.
func TestEdgeDeadlineCutsOff(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, host.ClientOptions{Instances: 1})
	srv := httptest.NewServer(host.NewEdgeHandler(c, host.EdgeOptions{Timeout: 300 * time.Millisecond, MaxExpansion: -1}))
	defer srv.Close()
	doc := unitsState(t, 15000) // about 4 s to import as JSON
	body := mustJSON(host.EdgeRequest{State: host.PackState(doc), Tag: host.StateTag(doc), Input: json.RawMessage(`{}`)})
	t0 := time.Now()
	code, _, msg := rawBody(t, srv.URL+"/v1/get_memory", body)
	took := time.Since(t0)
	t.Logf("a 4-second import under a 300 ms deadline: %d %s after %v", code, msg, took.Round(time.Millisecond))
	if code != http.StatusGatewayTimeout {
		t.Fatalf("%d %s", code, msg)
	}
	if u := c.Usage(); u.LongestHold > 2*time.Second {
		t.Errorf("the instance was held %v: not cut off", u.LongestHold)
	}
	// The next request runs on a new instance (the cut one was discarded):
	// on this one-instance pool, it could not run otherwise.
	s, err := c.Session(ctx, nil)
	if err != nil {
		t.Fatalf("after the cut: %v", err)
	}
	if _, err := s.Call(ctx, "get_memory", []byte(`{}`)); err != nil {
		t.Fatalf("after the cut: %v", err)
	}
	s.Close(ctx)
}

// TestEdgeWarmKeyedByExactBytes (issue 22, finding 4): a binary state whose
// word vectors were rewritten, whose JSON form is byte for byte the genuine
// state's, sent with "format": "json", left a warm instance under the
// genuine JSON's tag, and the next client sending that JSON got the forged
// slate. An instance is kept warm only under bytes whose import gives its
// state exactly.
func TestEdgeWarmKeyedByExactBytes(t *testing.T) {
	m := locomo(t, 300)
	e := engine.New()
	if _, err := e.Call("add_units", m.AddUnits(0, 300)); err != nil {
		t.Fatal(err)
	}
	genuine, _ := e.Call("export_state", []byte(`{"format":"binary"}`))
	genuineJSON, _ := e.Call("export_state", nil)
	sel := m.Select(3, 400, "")
	clean, _ := e.Call("select_slate", sel)
	forged, err := workload.RewriteVectors(genuine)
	if err != nil {
		t.Fatal(err)
	}
	srv, _ := hostileServer(t, nil, host.EdgeOptions{BaseTag: true})
	code, r, msg := rawBody(t, srv.URL+"/v1/select_slate", mustJSON(host.EdgeRequest{State: host.PackState(forged), Tag: host.StateTag(forged), Format: "json", Input: sel}))
	if code != 200 {
		t.Fatal(code, msg)
	}
	if r.Tag != host.StateTag(genuineJSON) {
		t.Fatal("the forged state's JSON form is not the genuine one's: the attack has no edge to test")
	}
	if bytes.Equal(compact(r.Result), compact(clean)) {
		t.Fatal("the forged analysis does not change the slate: the attack has no edge to test")
	}
	// The victim, with the genuine JSON, by state and by tag.
	code, v, msg := rawBody(t, srv.URL+"/v1/select_slate", mustJSON(host.EdgeRequest{State: host.PackState(genuineJSON), Tag: host.StateTag(genuineJSON), Input: sel}))
	if code != 200 || !bytes.Equal(compact(v.Result), compact(clean)) {
		t.Fatalf("the genuine JSON's slate is the forged one's: %d %s", code, msg)
	}
	// A forged state stays warm under its own bytes (which import to it),
	// with a delta appended: a request by the forged state's tag is its own.
	code, _, msg = rawBody(t, srv.URL+"/v1/select_slate", mustJSON(host.EdgeRequest{State: host.PackState(forged), Tag: host.StateTag(forged), Input: sel}))
	if code != 200 {
		t.Fatal(code, msg)
	}
	if code, _, _ := rawBody(t, srv.URL+"/v1/get_memory", mustJSON(host.EdgeRequest{BaseTag: host.StateTag(forged)})); code != 200 {
		t.Fatalf("the forged state under its own tag: %d", code)
	}
	// A whole binary state written from it is its exact form (it names
	// every word the instance holds), and stays warm; written after a unit
	// was deleted it drops that unit's words, which the instance still
	// holds as the client wrote them: not warm.
	for _, c := range []struct {
		export, input string
		warm          bool
	}{
		{"add_units", `{"units":[{"id":"new","session":"s","text":"the kiln is fixed"}]}`, true},
		{"delete_units", `{"ids":["new"]}`, false},
	} {
		st := host.PackState(forged)
		code, r, msg := rawBody(t, srv.URL+"/v1/"+c.export, mustJSON(host.EdgeRequest{State: st, Tag: host.StateTag(forged), Format: "binary", Input: json.RawMessage(c.input)}))
		if code != 200 {
			t.Fatalf("%s: %d %s", c.export, code, msg)
		}
		forged, _ = host.UnpackState(r.State, 1<<30)
		code, _, _ = rawBody(t, srv.URL+"/v1/get_memory", mustJSON(host.EdgeRequest{BaseTag: r.Tag}))
		if (code == 200) != c.warm {
			t.Errorf("after %s, the whole binary state written from a forged one: by its tag %d, want warm %v", c.export, code, c.warm)
		}
	}
}

// TestEdgeFailedMutationByTag (issue 22, finding 6): a failed mutation sent
// by tag dropped the warm state, and the next request by tag got 409. The
// module refuses a call whole, so the state stays warm as it was, with a
// delta too (the state is imported again without it).
func TestEdgeFailedMutationByTag(t *testing.T) {
	srv, _ := hostileServer(t, nil, host.EdgeOptions{BaseTag: true})
	h := holder{}
	if _, err := h.call(srv.URL, "record", likes(3)); err != nil {
		t.Fatal(err)
	}
	code, _, msg := rawBody(t, srv.URL+"/v1/apply_ops", mustJSON(host.EdgeRequest{BaseTag: h.tag, Input: json.RawMessage(`{"ops":[{"op":"forget","chunk":"c99"}]}`)}))
	if code != 400 || !strings.Contains(msg, `unknown chunk "c99"`) {
		t.Fatalf("a failed mutation by tag: %d %s", code, msg)
	}
	if code, _, msg := rawBody(t, srv.URL+"/v1/get_memory", mustJSON(host.EdgeRequest{BaseTag: h.tag})); code != 200 {
		t.Fatalf("the next request by tag: %d %s", code, msg)
	}
	// With a delta: a segment adding a unit, then a mutation the module
	// refuses; the state of base_tag (without the delta) is warm again.
	ctx := context.Background()
	local := newClient(t, host.ClientOptions{Instances: 1, Warm: -1})
	s, err := local.Session(ctx, h.bin)
	if err != nil {
		t.Fatal(err)
	}
	s.Call(ctx, "add_units", []byte(`{"units":[{"id":"a","session":"s","text":"kiln fixed"}]}`))
	seg, err := s.ExportDelta(ctx)
	s.Close(ctx)
	if err != nil {
		t.Fatal(err)
	}
	code, _, msg = rawBody(t, srv.URL+"/v1/apply_ops", mustJSON(host.EdgeRequest{BaseTag: h.tag, Delta: host.EdgeDelta{Segment: host.PackState(seg)}, Input: json.RawMessage(`{"ops":[{"op":"forget","chunk":"c99"}]}`)}))
	if code != 400 {
		t.Fatalf("a failed mutation with a delta: %d %s", code, msg)
	}
	code, r, msg := rawBody(t, srv.URL+"/v1/get_memory", mustJSON(host.EdgeRequest{BaseTag: h.tag}))
	if code != 200 || r.BaseTag != h.tag {
		t.Fatalf("the state of base_tag after a failed mutation with a delta: %d %s", code, msg)
	}
}

// TestEdgeOtherUsersTags: a request cannot borrow another user's tag for
// its own bytes (422), nor append a delta of its own state to another
// user's (400, the chain refuses it); and a tag is a bearer token for its
// memory, as docs/http.md says, which only its holder knows.
func TestEdgeOtherUsersTags(t *testing.T) {
	srv, _ := hostileServer(t, nil, host.EdgeOptions{BaseTag: true})
	var alice, bob holder
	if _, err := alice.call(srv.URL, "record", likes(2)); err != nil {
		t.Fatal(err)
	}
	if _, err := bob.call(srv.URL, "add_units", []byte(`{"units":[{"id":"b","session":"s","text":"bob's own unit"}]}`)); err != nil {
		t.Fatal(err)
	}
	if code, _, msg := rawBody(t, srv.URL+"/v1/get_memory", mustJSON(host.EdgeRequest{State: host.PackState(bob.bin), Tag: alice.tag})); code != 422 {
		t.Errorf("bob's state with alice's tag: %d %s", code, msg)
	}
	bobSeg, err := workload.Segment(bob.bin, nil)
	if err != nil {
		t.Fatal(err)
	}
	if code, _, msg := rawBody(t, srv.URL+"/v1/get_memory", mustJSON(host.EdgeRequest{BaseTag: alice.tag, Delta: host.EdgeDelta{Segment: host.PackState(bobSeg)}})); code != 400 || !strings.Contains(msg, "a delta of another state") {
		t.Errorf("a segment of bob's state on alice's tag: %d %s", code, msg)
	}
	code, r, _ := rawBody(t, srv.URL+"/v1/get_memory", mustJSON(host.EdgeRequest{BaseTag: alice.tag}))
	if code != 200 || !bytes.Contains(r.Result, []byte(`"user":"u1"`)) || bytes.Contains(r.Result, []byte("bob")) {
		t.Errorf("alice's memory after bob's attempts: %d %.200s", code, r.Result)
	}
}

// TestEdgeConcurrentByTag: many requests on one tag at once. One at a time
// holds the warm instance; the others get 409 (or, sending the state, are
// served by importing it); none is served a state it did not name, and the
// memory loses no update among those answered 200 from one base.
func TestEdgeConcurrentByTag(t *testing.T) {
	srv, _ := hostileServer(t, nil, host.EdgeOptions{BaseTag: true})
	h := holder{}
	if _, err := h.call(srv.URL, "record", likes(2)); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	counts := map[int]int{}
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in := fmt.Appendf(nil, `{"signals":[{"user":"u1","item":"c%d","action":"like","time":%d}]}`, i, 1800000000+i)
			code, r, msg := rawBody(t, srv.URL+"/v1/record", mustJSON(host.EdgeRequest{BaseTag: h.tag, Input: in}))
			mu.Lock()
			counts[code]++
			mu.Unlock()
			if code == 200 && r.BaseTag != h.tag {
				t.Errorf("served from %s, named %s", r.BaseTag, h.tag)
			}
			if code != 200 && code != 409 {
				t.Errorf("%d %s", code, msg)
			}
		}()
	}
	wg.Wait()
	t.Logf("12 requests on one tag at once: %v", counts)
	if counts[200] < 1 {
		t.Error("none served")
	}
}

// tinyUnitsState is the binary state of n units of one word each, with ids
// of a few digits, built natively: the state that packs best.
func tinyUnitsState(t testing.TB, n int) []byte {
	t.Helper()
	e := engine.New()
	var b []byte
	b = append(b, `{"units":[`...)
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, `{"id":"%d","session":"s","text":"ok"}`, i)
	}
	b = append(b, `]}`...)
	if _, err := e.Call("add_units", b); err != nil {
		t.Fatal(err)
	}
	out, err := e.Call("export_state", []byte(`{"format":"binary"}`))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// compact is a JSON value without insignificant space.
func compact(b []byte) []byte {
	var buf bytes.Buffer
	json.Compact(&buf, b)
	return buf.Bytes()
}

func kb(n int) string { return fmt.Sprintf("%.1f kB", float64(n)/1000) }

// TestEdgeLargestUnder100kB measures the most a request under 100 kB can
// ask of the Go host once it is admitted: a state of the most expensive
// kind per byte (short units, whose import costs the most per byte, as JSON
// and as binary) unpacking to as much as the expansion bound lets it (6
// bytes a byte of gzip, or 256 KiB), imported and queried. It asserts the
// memory target (64 MB) and logs the time held, whose target (1 s) is a
// benchmark's matter on a loaded machine: docs/limits.md gives the figures.
func TestEdgeLargestUnder100kB(t *testing.T) {
	for _, form := range []string{"json", "binary"} {
		doc := largestAdmitted(t, form)
		body := mustJSON(host.EdgeRequest{State: host.PackState(doc), Tag: host.StateTag(doc), Input: json.RawMessage(`{"query":"what did Ann say about the kiln","budget":500}`)})
		fresh := newClient(t, host.ClientOptions{Instances: 1, Warm: -1})
		fh := host.NewEdgeHandler(fresh, host.EdgeOptions{})
		w := httptest.NewRecorder()
		t0 := time.Now()
		fh.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/v1/select_slate", bytes.NewReader(body)))
		took := time.Since(t0)
		u := fresh.Usage()
		t.Logf("%s: %s unpacked from a %s request: %d in %v, the instance held %v and grown %.1f MB",
			form, kb(len(doc)), kb(len(body)), w.Code, took.Round(time.Millisecond), u.LongestHold.Round(time.Millisecond), float64(u.LargestGrowth)/1e6)
		if w.Code != 200 || len(body) >= 100_000 {
			t.Fatalf("%s: %d (%s) for a %s request: the case must be a request under 100 kB that is served", form, w.Code, w.Body.String(), kb(len(body)))
		}
		if u.LargestGrowth > 64<<20 {
			t.Errorf("%s: the instance grew %.1f MB", form, float64(u.LargestGrowth)/1e6)
		}
	}
}

// largestAdmitted is a state of short units in form ("json" or "binary")
// as large as a request under 100 kB may bring: its packed size times the
// expansion bound (6), and at least what gzip packs under 100 kB.
func largestAdmitted(t *testing.T, form string) []byte {
	t.Helper()
	best := []byte(nil)
	for n := 1000; ; n += 1000 {
		e := engine.New()
		var b []byte
		b = append(b, `{"units":[`...)
		for i := range n {
			if i > 0 {
				b = append(b, ',')
			}
			// Short turns, each a little different, as a chat log's.
			b = fmt.Appendf(b, `{"id":"t%d","session":"s%d","speaker":"%s","text":"%s %d"}`, i, i/40, []string{"Ann", "Ben"}[i%2], []string{"ok", "sure, at six", "the kiln again?", "see you Tuesday", "fine by me"}[i%5], i%97)
		}
		b = append(b, `]}`...)
		if _, err := e.Call("add_units", b); err != nil {
			t.Fatal(err)
		}
		in := []byte(nil)
		if form == "binary" {
			in = []byte(`{"format":"binary"}`)
		}
		doc, _ := e.Call("export_state", in)
		packed := len(host.PackState(doc)) * 3 / 4
		if len(doc) > max(host.ExpansionFloor, 6*packed) || packed > 70_000 {
			return best
		}
		best = doc
	}
}

// TestPoolTagsTheBytes: host.Pool takes bytes, never a tag: it tags them
// itself (their SHA-256, or their seal under SetTagKey), and an instance
// released with a state is warm for those bytes only.
func TestPoolTagsTheBytes(t *testing.T) {
	ctx := context.Background()
	p := openRuntime(t).NewPool(1)
	p.SetWarm(2)
	defer p.Close(ctx)
	ann, bob := []byte(`{"schema":"recmem.state","version":1,"memory":null}`), []byte(`{"schema":"recmem.state","version":1,"memory":null} `)
	if p.Tag(ann) != host.StateTag(ann) {
		t.Fatal("the tag of a pool without a key is the SHA-256")
	}
	in, warm, err := p.AcquireState(ctx, ann)
	if err != nil || warm {
		t.Fatalf("first: %v %v", warm, err)
	}
	p.ReleaseState(ctx, in, ann)
	for _, c := range []struct {
		doc  []byte
		warm bool
	}{{bob, false}, {ann, true}} {
		in, warm, err := p.AcquireState(ctx, c.doc)
		if err != nil || warm != c.warm {
			t.Fatalf("%q: warm %v, want %v (%v)", c.doc, warm, c.warm, err)
		}
		p.ReleaseState(ctx, in, c.doc)
	}
	keyed := openRuntime(t).NewPool(1)
	keyed.SetTagKey(sealKey)
	if keyed.Tag(ann) != seal.Sum(sealKey, ann) {
		t.Fatal("the tag of a pool with a key is the seal")
	}
}
