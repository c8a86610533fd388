package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/recmem/recmem/host"
)

// The client code of docs/http.md's example, verbatim (TestDocs checks it).

// userMemory is what a client keeps between requests: the packed state and
// its tag, exactly as the server returned them.
type userMemory struct {
	State string `json:"state,omitempty"`
	Tag   string `json:"tag,omitempty"`
}

// response is the server's answer (the fields this client reads).
type response struct {
	Result  json.RawMessage `json:"result"`
	State   string          `json:"state"`
	Tag     string          `json:"tag"`
	BaseTag string          `json:"base_tag"`
	Changed bool            `json:"changed"`
	Error   *struct {
		Status  int    `json:"status"`
		Message string `json:"message"`
	} `json:"error"`
}

// call runs one export on the memory m and, when the call succeeds,
// keeps the new state in m.
func call(base, export string, input any, m *userMemory) (json.RawMessage, error) {
	in, err := json.Marshal(input)
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(map[string]any{"state": m.State, "tag": m.Tag, "input": json.RawMessage(in)})
	if err != nil {
		return nil, err
	}
	resp, err := http.Post(base+"/v1/"+export, "application/json", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var r response
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		return nil, fmt.Errorf("%s: %d, undecodable answer: %w", export, resp.StatusCode, err)
	}
	if r.Error != nil {
		return nil, fmt.Errorf("%d: %s", r.Error.Status, r.Error.Message)
	}
	if m.Tag != "" && r.BaseTag != m.Tag {
		return nil, fmt.Errorf("%s: the memory changed under this request", export)
	}
	m.State, m.Tag = r.State, r.Tag
	return r.Result, nil
}

// ExampleNewEdgeHandler serves the stateless API and calls it as any Go
// program would, with the code of docs/http.md.
func ExampleNewEdgeHandler() {
	ctx := context.Background()
	cat, _ := os.ReadFile("../testdata/catalog/tiny.json")
	c, err := host.NewClient(ctx, host.ClientOptions{Instances: 1, Catalog: cat})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close(ctx)
	srv := httptest.NewServer(host.NewEdgeHandler(c, host.EdgeOptions{}))
	defer srv.Close()

	var m userMemory // a new user
	for i, title := range []string{"Halo 5: Guardians - Xbox One", "Forza Horizon 3 - Xbox One", "Gears of War 4 - Xbox One",
		"Halo Wars 2 - Xbox One", "Sea of Thieves - Xbox One"} {
		signal := map[string]any{"user": "u1", "item": fmt.Sprint("g", i), "action": "purchase",
			"meta": map[string]any{"title": title}, "time": 1700000000 + i*86400, "client_id": fmt.Sprint("buy-", i)}
		if _, err := call(srv.URL, "record", map[string]any{"signals": []any{signal}}, &m); err != nil {
			fmt.Println(err)
			return
		}
	}
	out, _ := call(srv.URL, "get_memory", map[string]any{}, &m)
	var view struct{ Chunks []struct{ ID, Text string } }
	json.Unmarshal(out, &view)
	for _, ch := range view.Chunks {
		fmt.Println(ch.ID, ch.Text)
	}
	// A retry of the last purchase (the same signal, the same client_id) is
	// acknowledged, not recorded.
	retry := map[string]any{"user": "u1", "item": "g4", "action": "purchase",
		"meta": map[string]any{"title": "Sea of Thieves - Xbox One"}, "time": 1700345600, "client_id": "buy-4"}
	out, _ = call(srv.URL, "record", map[string]any{"signals": []any{retry}}, &m)
	var rec struct {
		EventsAdded int      `json:"events_added"`
		Repeated    []string `json:"repeated"`
	}
	json.Unmarshal(out, &rec)
	fmt.Println("retry:", rec.EventsAdded, "added, repeated", rec.Repeated)
	_, err = call(srv.URL, "apply_ops", map[string]any{"ops": []any{map[string]any{"op": "boost", "chunk": "c9"}}}, &m)
	fmt.Println(err)
	// Output:
	// c1 Prefers Xbox One
	// retry: 0 added, repeated [buy-4]
	// 400: apply_ops: input.ops[0].chunk: unknown chunk "c9"
}
